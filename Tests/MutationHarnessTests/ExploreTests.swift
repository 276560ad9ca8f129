import Foundation
import Testing
@testable import MutationHarness

/// The adapter to the compiler's syntax tree, each operator, the markers,
/// the ignore file and the diff reader. The compiler runs on a small
/// self-contained file; no package is built.
@Suite(.ownThread)
struct ExploreTests {
    static let source = """
        func check(_ a: Int, _ b: Int) -> Bool {
            guard a > 0 else { return false }
            if a <= b && b != 3 { log() }
            let s = "a < b \\(a + 1)"
            // a == b in a comment
            return a * 2 == b - 1 || s.isEmpty
        }
        func log() {}
        let x = 1 + 2 // mutate: skip
        // mutate: skip
        func skipped() -> Bool { return 1 < 2 }
        #if os(Windows)
        let w = 5 + 5
        #endif

        """

    private func points(_ text: String = source) throws -> [MutationPoint] {
        try withScratch { scratch in
            try scratch.write("A.swift", text)
            let trees = try ASTDump.run(swiftc: "swiftc", module: "M", packageName: "m", files: ["A.swift"], in: scratch.url,
                                        searchPaths: [], moduleMaps: [], environment: scratch.toolEnvironment())
            let tree = try #require(trees.first)
            #expect(tree.compilerVersion.hasPrefix("Swift version"))
            return MutationFinder(path: "A.swift", source: Array(text.utf8)).points(in: tree.root)
        }
    }

    private func describe(_ points: [MutationPoint]) -> Set<String> {
        Set(points.map { "\($0.line):\($0.column) \($0.mutationOperator.rawValue) \($0.original) -> \($0.replacement)" })
    }

    /// What `swift package describe --type json` says of each target, every
    /// field read from it; a field it leaves out reads empty, and output that
    /// is not a description is none.
    @Test func aPackageDescriptionGivesEachTargetsFields() throws {
        let json = #"{"name":"P","targets":[{"name":"Tiny-Core","c99name":"Tiny_Core","type":"library","module_type":"SwiftTarget","#
            + #""path":"Sources/Tiny","sources":["A.swift","B.swift"],"target_dependencies":["Base"]},{"name":"T","type":"test"}]}"#
        let targets = try #require(PackageTargets.targets(described: Data(json.utf8)))
        #expect(targets == [
            PackageTargets.Target(name: "Tiny-Core", c99name: "Tiny_Core", type: "library", moduleType: "SwiftTarget", path: "Sources/Tiny",
                                  sources: ["A.swift", "B.swift"], dependencies: ["Base"]),
            PackageTargets.Target(name: "T", c99name: "", type: "test", moduleType: "", path: "", sources: [], dependencies: []),
        ])
        #expect(PackageTargets.targets(described: Data("error: no package".utf8)) == nil)
        #expect(PackageTargets.targets(described: Data(#"{"name":"P"}"#.utf8)) == nil)
    }

    /// An id names the mutated line, not its byte offset: code added above
    /// it, or a change of indentation, leaves the id alone, so ignore lines
    /// and `--id` keep naming the same mutant. Editing the line itself gives
    /// new ids, and two identical lines give two sets of ids (each also
    /// names its nearest code lines, which this edit leaves alone).
    @Test func anIdSurvivesEditsElsewhereInTheFile() throws {
        let before = "func f(_ x: Int) -> Int {\n    var t = x\n    t = t * 2\n    t = t * 2\n    let d = t\n    let c = x + 1\n    return t - 2 + c\n}\n"
        let after = "let added = 3 + 4\n\nfunc f(_ x: Int) -> Int {\n        var t = x\n    t = t * 2\n    t = t * 2\n    let d = t\n    let c = x + 2\n    return t - 5 + c\n}\n"
        func ids(_ text: String) throws -> [String: [String]] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return Dictionary(grouping: try points(text), by: { lines[$0.line - 1].trimmingCharacters(in: .whitespaces) }).mapValues { $0.map(\.id).sorted() }
        }
        let old = try ids(before)
        let new = try ids(after)
        #expect(old["t = t * 2"]?.count == 6 && Set(old["t = t * 2"] ?? []).count == 6, "two identical lines have ids of their own: \(old)")
        #expect(old["t = t * 2"] == new["t = t * 2"], "code added above and a new indentation keep the ids")
        #expect(Set(old.values.joined()).isDisjoint(with: new["let c = x + 2"] ?? []), "an edited line's mutants are new")
        #expect(Set(old.values.joined()).isDisjoint(with: new["return t - 5 + c"] ?? []))
        #expect(new["return t - 5 + c"]?.count == 3, "\(new)")
    }

    @Test func everyOperatorAtItsPlaceAndNothingElse() throws {
        let found = describe(try points())
        let expected: Set<String> = [
            "1:40 return-constant { -> { return true;", "1:40 return-constant { -> { return false;",
            "2:13 relational-boundary > -> >=", "2:13 relational-negation > -> <=", "2:15 integer-literal 0 -> 1",
            "2:11 remove-condition a > 0 -> true", "2:31 boolean-literal false -> true",
            "3:10 relational-boundary <= -> <", "3:10 relational-negation <= -> >", "3:15 logical && -> ||",
            "3:20 relational-negation != -> ==", "3:23 integer-literal 3 -> 4", "3:8 remove-condition a <= b && b != 3 -> true",
            "3:27 remove-void-call log() -> ", "3:5 remove-branch if a <= b && b != 3 { log() } -> ",
            "3:8 dropped-operand a <= b && b != 3 -> a <= b", "3:8 dropped-operand a <= b && b != 3 -> b != 3", "6:12 dropped-operand a * 2 -> a",
            "6:14 arithmetic * -> /", "6:16 integer-literal 2 -> 3", "6:18 relational-negation == -> !=",
            "6:23 arithmetic - -> +", "6:25 integer-literal 1 -> 2", "6:27 logical || -> &&",
        ]
        #expect(found.subtracting(expected).isEmpty, "unexpected: \(found.subtracting(expected).sorted())")
        #expect(expected.subtracting(found).isEmpty, "missing: \(expected.subtracting(found).sorted())")
    }

    @Test func aGeneratedMutantIsAPatchThatMakesExactlyTheMutation() throws {
        let point = try #require(try points().first { $0.mutationOperator == .logical && $0.line == 3 })
        let mutant = try #require(GeneratedMutant.mutant(for: point, source: Array(Self.source.utf8)))
        #expect(mutant.name == point.id)
        let patched = try PatchApplier.apply(mutant.diff.files[0], to: Self.source)
        #expect(patched == Self.source.replacingOccurrences(of: "a <= b && b != 3", with: "a <= b || b != 3"))
        #expect(mutant.description.contains("logical at A.swift:3:15"))
    }

    /// Where the parentheses of a point's `group` go: around a group that
    /// ends where the mutated token starts, or that holds the whole token
    /// (up to the file's last byte); never around one that starts after the
    /// token, overlaps part of it, or runs past the file.
    @Test func aGroupIsParenthesizedOnlyWhereItHoldsOrPrecedesTheToken() {
        func mutated(_ text: String, _ start: Int, _ end: Int, to replacement: String, group: (Int, Int)) -> String {
            var point = MutationPoint(file: "A.swift", start: start, end: end, line: 1, column: start + 1, mutationOperator: .arithmetic,
                                      original: String(text.utf8.dropFirst(start).prefix(end - start))!, replacement: replacement)
            point.group = MutationPoint.ByteRange(start: group.0, end: group.1)
            return String(decoding: GeneratedMutant.mutatedSource(for: point, source: Array(text.utf8)), as: UTF8.self)
        }
        #expect(mutated("a+b", 1, 2, to: "-", group: (0, 1)) == "(a)-b", "a group that ends where the token starts")
        #expect(mutated("x+y", 2, 3, to: "z", group: (0, 3)) == "(x+z)", "a group that ends with the token, at the file's end")
        #expect(mutated("a+b", 0, 1, to: "c", group: (0, 3)) == "(c+b)", "a group that starts with the token")
        #expect(mutated("a+b", 0, 1, to: "c", group: (0, 1)) == "(c)+b", "a group that is the token")
        #expect(mutated("a+b", 1, 2, to: "", group: (0, 1)) == "(a)b", "a token removed where a group ends")
        #expect(mutated("a+b", 0, 1, to: "c", group: (2, 3)) == "c+b", "a group after the token")
        #expect(mutated("abcd", 2, 4, to: "x", group: (0, 3)) == "abx", "a group over part of the token")
        #expect(mutated("a+b", 1, 2, to: "-", group: (0, 9)) == "a-b", "a group past the file's end")
        // Code written without spaces: the left operand ends where the operator starts. The patch (and the
        // report's diff) used to read `(a||b&&|c`, which does not compile.
        let text = "func f(_ a: Bool, _ b: Bool, _ c: Bool) -> Bool {\n    a||b||c\n}\n"
        let lines = (try? points(text))?.filter { $0.mutationOperator == .logical }.sorted { $0.start < $1.start }.map {
            String(decoding: GeneratedMutant.mutatedSource(for: $0, source: Array(text.utf8)), as: UTF8.self).split(separator: "\n")[1]
                .trimmingCharacters(in: .whitespaces)
        }
        #expect(lines == ["a&&b||c", "(a||b)&&c"])
    }

    /// A swap of `&&` and `||` in a chain keeps the tree's grouping: the
    /// text `a || b && c` would be `a || (b && c)`, another mutant than the
    /// one the schema's switch runs.
    @Test func aLogicalSwapInAChainKeepsItsGrouping() throws {
        let text = "func f(_ a: Bool, _ b: Bool, _ c: Bool) -> [Bool] {\n    [a && b && c, a || b || c, (a && b) && c, a && b || c]\n}\n"
        let mutated = try points(text).filter { $0.mutationOperator == .logical }.sorted { $0.start < $1.start }.map {
            String(decoding: GeneratedMutant.mutatedSource(for: $0, source: Array(text.utf8)), as: UTF8.self)
                .split(separator: "\n")[1].trimmingCharacters(in: .whitespaces)
        }
        #expect(mutated == [
            "[(a || b) && c, a || b || c, (a && b) && c, a && b || c]", "[a && b || c, a || b || c, (a && b) && c, a && b || c]",
            "[a && b && c, a && b || c, (a && b) && c, a && b || c]", "[a && b && c, (a || b) && c, (a && b) && c, a && b || c]",
            "[a && b && c, a || b || c, (a || b) && c, a && b || c]", "[a && b && c, a || b || c, (a && b) || c, a && b || c]",
            "[a && b && c, a || b || c, (a && b) && c, a || b || c]", "[a && b && c, a || b || c, (a && b) && c, a && b && c]",
        ], "\(mutated)")
    }

    /// Only `a && b && c` and `a || b || c` are regrouped: not a `&&` in
    /// parentheses glued to the next `&&`, not one followed by another
    /// operator that starts with `&`, not a `||` whose left operand is a
    /// prefix `||`.
    @Test func onlyAChainOfTheSameOperatorIsRegrouped() throws {
        let text = """
            infix operator &| : LogicalDisjunctionPrecedence
            func &| (l: Bool, r: Bool) -> Bool { l || r }
            prefix operator ||
            prefix func || (x: Bool) -> Bool { !x }
            func f(_ a: Bool, _ b: Bool, _ c: Bool) -> [Bool] {
                [(a && b)&&c, a && b &| c, ||a || b]
            }

            """
        let logical = try points(text).filter { $0.mutationOperator == .logical }
        #expect(logical.count == 5 && logical.allSatisfy { $0.group == nil }, "\(logical.map { ($0.summary, $0.group) })")
    }

    /// A `&&` on a file's last line without a final newline is found like
    /// any other (reading past the end would crash the finder).
    @Test func aLogicalOperatorThatEndsTheFileIsNamedToo() throws {
        let found = try points("let a = true, b = false\nlet c = a && b")   // no newline at the end
        #expect(found.contains { $0.mutationOperator == .logical && $0.original == "&&" && $0.group == nil })
    }

    /// `+` on strings joins them: no arithmetic mutant; an operator glued
    /// to a comment is passed over (its token cannot be told from the comment).
    @Test func aStringJoinedWithPlusOrAnOperatorGluedToACommentIsNoArithmetic() throws {
        #expect(!(try points("func cat(_ s: String) -> String { s + \"!\" }\n")).contains { $0.mutationOperator == .arithmetic })
        #expect(!(try points("func add(_ a: Int, _ b: Int) -> Int { a +/* why */ b }\n")).contains { $0.mutationOperator == .arithmetic })
    }

    @Test func aTokenAtTheVeryEndOfAFileIsNamedToo() throws {
        let found = try points("let flag = true")   // no newline at the end
        #expect(found.map(\.original) == ["true"])
        #expect(found.first?.summary.hasSuffix("true -> false") == true)
    }

    /// A statement that ends the file (top-level code, no newline after it,
    /// maybe blanks) is removed whole: the look for a `;` after it stops at
    /// the file's end.
    @Test func aStatementThatEndsTheFileIsRemovedToo() throws {
        for tail in ["", "  "] {
            let found = try points("func lg() {}\nlg()" + tail).filter { $0.mutationOperator == .removeVoidCall }
            #expect(found.map(\.original) == ["lg()"], "\(tail.count) blank(s) after: \(found)")
            #expect(found.first?.end == 17, "the call's own end: \(found)")
        }
    }

        @Test func aGeneratedPatchHasThreeLinesOfContextLikeGitDiff() {
        let source = (1...20).map { "let v\($0) = \($0) + 1" }.joined(separator: "\n") + "\n"
        let offset = source.utf8.count - source.components(separatedBy: "let v10 = ")[1].utf8.count + 3  // the `+` of line 10
        let point = MutationPoint(file: "Sources/A.swift", start: offset, end: offset + 1, line: 10, column: 15,
                                  mutationOperator: .arithmetic, original: "+", replacement: "-")
        let diff = GeneratedMutant.diff(for: point, source: Array(source.utf8))
        #expect(diff.contains("@@ -7,7 +7,7 @@"), "lines 7 to 13: three before, the change, three after\n\(diff)")
        #expect(diff.contains("-let v10 = 10 + 1\n+let v10 = 10 - 1\n"))
        #expect(!diff.contains("let v6 ") && !diff.contains("let v14 "))
    }

    @Test func thePackageNameComesFromTheBuildsOwnFlags() throws {
        try withScratch { scratch in
            try scratch.write(".build/debug.yaml", #"  other: ["-module-name","X","-package-name","analytics","-o"]"#)
            #expect(PackageTargets.packageName(in: scratch.url) == "analytics")
            let bare = scratch.url.appendingPathComponent("My-Package")
            try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
            #expect(PackageTargets.packageName(in: bare) == "my-package", "no build file: the folder's name, lower-cased")
        }
    }

    /// The anchor an id is built from: the trimmed text of the lines the
    /// mutant spans (a tab indents like spaces, a blank line inside stays),
    /// where it starts in that text and how long it is, and the mutation; a
    /// place the file holds more than once adds its neighbours (the nearest
    /// code line above and below) and its rank among identical places with
    /// the same neighbours, counting from 0.
    @Test func anAnchorIsTheTrimmedLinesTheOffsetTheLengthAndForARepeatedPlaceItsNeighbours() throws {
        let text = "func f(_ a: Int, _ b: Int) -> Int {\n\tvar t = a\n\tt = t * 10\n    t = t * 10\n    if a ==\n\n        b { t = 0 }\n    return t\n}\n"
        let found = try points(text)
        let anchors = Set(found.compactMap(\.anchor))
        for neighbours in ["var t = a\nt = t * 10", "t = t * 10\nif a =="] {
            #expect(anchors.contains("t = t * 10|6|1|arithmetic|/|\(neighbours)#0"), "\(anchors.sorted())")
            #expect(anchors.contains("t = t * 10|8|2|integer-literal|11|\(neighbours)#0"), "\(anchors.sorted())")
        }
        let condition = try #require(found.first { $0.mutationOperator == .removeCondition && $0.replacement == "true" }, "\(describe(found))")
        #expect(condition.anchor == "if a ==\n\nb { t = 0 }|3|15|remove-condition|true#0", "a place held once has no neighbours")
        let last = try points("let x = 1 + 2").first { $0.mutationOperator == .arithmetic }
        #expect(last?.anchor == "let x = 1 + 2|10|1|arithmetic|-#0", "the last line of a file without a final newline")
        let twins = try points("func f(_ a: Int) -> Int {\n    var t = a\n    // one\n    t = t + 1\n\n    t = t + 1\n    return t\n}\nfunc g(_ a: Int) -> Int {\n    var t = a\n    t = t + 1\n    t = t + 1\n    return t\n}\n")
            .filter { $0.mutationOperator == .arithmetic }.compactMap(\.anchor)
        #expect(twins.sorted() == ["t = t + 1|6|1|arithmetic|-|t = t + 1\nreturn t#0", "t = t + 1|6|1|arithmetic|-|t = t + 1\nreturn t#1",
                                   "t = t + 1|6|1|arithmetic|-|var t = a\nt = t + 1#0", "t = t + 1|6|1|arithmetic|-|var t = a\nt = t + 1#1"],
                "comments and blank lines are no neighbours; the same neighbours take ranks: \(twins)")
        let edges = try points("func f(_ t: inout Int) {\n    t = t + 1\n    t = t + 1\n}").filter { $0.mutationOperator == .arithmetic }.compactMap(\.anchor)
        #expect(edges.sorted() == ["t = t + 1|6|1|arithmetic|-|func f(_ t: inout Int) {\nt = t + 1#0", "t = t + 1|6|1|arithmetic|-|t = t + 1\n}#0"],
                "the file's first line is a neighbour, and its last without a final newline: \(edges)")
        let blocks = try points("func f(_ a: Int) -> Int {\nvar t = a\nif a > 1 {\nt = 0\n}\nif a > 1 {\nt = 0\n}\nreturn t\n}\n")
            .filter { $0.mutationOperator == .removeBranch }.compactMap(\.anchor)
        #expect(blocks.sorted() == ["if a > 1 {\nt = 0\n}|0|18|remove-branch||var t = a\nif a > 1 {#0", "if a > 1 {\nt = 0\n}|0|18|remove-branch||}\nreturn t#0"],
                "a place of several lines has the line after its last as its neighbour below: \(blocks)")
    }

    /// An id never passes from one mutant to another: removing one of
    /// several identical lines leaves the ids of the others as they were
    /// (each keeps its neighbours), and a line left alone of its kind gets
    /// a new id (an ignore entry of the old one then names no mutant,
    /// which is said, rather than the line before it).
    @Test func removingOneOfSeveralIdenticalLinesHandsItsIdToNoOther() throws {
        func ids(_ functions: [String]) throws -> [String: String] {
            let text = functions.map { "func \($0)() {\n    step(\"\($0)\")\n    check()\n}\n" }.joined() + "func step(_ s: String) {}\nfunc check() {}\n"
            return Dictionary(uniqueKeysWithValues: try points(text).filter { $0.mutationOperator == .removeVoidCall && $0.original == "check()" }
                .map { point in (functions[(point.line - 3) / 4], point.id) })
        }
        let three = try ids(["f", "g", "h"])
        let two = try ids(["g", "h"])
        let one = try ids(["h"])
        #expect(three.count == 3 && Set(three.values).count == 3, "\(three)")
        #expect(two == ["g": three["g"], "h": three["h"]], "f's line gone, g and h keep their ids: \(three) \(two)")
        #expect(one.count == 1 && !Set(three.values).contains(one["h"] ?? ""), "h alone is a new id, no other's: \(three) \(one)")
    }

    @Test func idsAreStableAndDistinct() throws {
        let first = try points().map(\.id)
        #expect(first == (try points().map(\.id)))
        #expect(Set(first).count == first.count)
        #expect(first.allSatisfy { MutantFileParser.isValidName($0) })
    }

    /// A lone marker skips the next declaration; before a statement it
    /// skips nothing (an end-of-line marker skips one line).
    @Test func aLoneMarkerBeforeAStatementSkipsNothing() throws {
        let found = try points("""
            func f(a: Int) -> Int {
                // mutate: skip
                if a > 1 { return 0 }
                return a
            }

            """)
        #expect(found.contains { $0.line == 3 && $0.original == ">" }, "\(describe(found))")
    }

    /// The finder's view of the source: any range inside it, from its very
    /// first byte; nothing for a range that leaves it.
    @Test func theSourceTextOfARange() {
        let finder = MutationFinder(path: "A.swift", source: Array("true && x".utf8))
        #expect(finder.text(0, 4) == "true", "the first byte of the file is inside it")
        #expect(finder.text(8, 1) == "x")
        #expect(finder.text(8, 2) == "" && finder.text(-1, 2) == "" && finder.text(2, -1) == "")
    }

    /// An identifier runs through every byte of a non-ASCII letter ("À" is
    /// C3 80 in UTF-8), so a mutation never cuts a character in two.
    /// Line and column (1-based, in bytes) of an offset: at a line's first
    /// byte, and on the last line of a file without a final newline.
    @Test func positionsAtLineStartsAndOnTheLastLine() {
        let finder = MutationFinder(path: "A.swift", source: Array("a\nbc\nd".utf8))
        #expect([0, 2, 3, 5].map { let p = finder.position(of: $0); return [p.line, p.column] } == [[1, 1], [2, 1], [2, 2], [3, 1]])
    }

    @Test func anIdentifierTokenEndsAfterItsLastNonASCIIByte() {
        let finder = MutationFinder(path: "A.swift", source: Array("xÀy + 1".utf8))
        #expect(finder.tokenEnd(at: 0) == 4)
    }

    @Test func aWholeFileMarkerSkipsTheFile() throws {
        #expect(try points("// mutate: skip-file\n" + Self.source).isEmpty)
    }

    @Test func anUnknownDumpShapeIsAClearError() {
        do {
            _ = try ASTDump.parse(Data(#"{"_kind":"source_file","filename":"A.swift","items":{}}"#.utf8))
            Issue.record("a dump whose items are not a list must be refused")
        } catch {
            #expect("\(error)".contains("this compiler version is not supported by mutate explore"))
        }
        #expect((try? ASTDump.parse(Data(#"{"_kind":"source_file","filename":"A.swift"}"#.utf8)))?.count == 1,
                "a file whose code is all in inactive #if blocks has no items")
        let mixed = Data(("warning: x {\n" + #"{"_kind":"source_file","a":"}{"}"#).utf8)
        #expect(ASTDump.documents(in: mixed).count == 1, "text around the documents, and braces inside strings, are passed over")
        let cut = Data((#"{"_kind":"source_file","a":1}"# + "\n" + #"{"_kind":"source_file","items":[{"#).utf8)
        #expect(ASTDump.documents(in: cut).count == 1, "a document the compiler did not finish (it crashed) is left out")
    }

    @Test func aHunkThatOnlyDeletesMarksNoLineOfTheNewSide() {
        let changed = ChangedLines.parse("+++ b/Sources/A.swift\n@@ -3,2 +2,0 @@\n@@ -9 +8,2 @@\n@@ -20 +21 @@\n")
        #expect(changed.lines["Sources/A.swift"] == [8...9, 21...21], "a hunk without a count is one line")
    }

    /// A file with a merge conflict diffs in the combined form, with one
    /// old side per parent: its changed lines are still the "+" side's.
    @Test func aCombinedHunkMarksItsNewSide() {
        let changed = ChangedLines.parse("+++ b/Sources/A.swift\n@@@ -3,2 -3,1 +3,4 @@@\n")
        #expect(changed.lines["Sources/A.swift"] == [3...6])
    }

    /// A compiler that prints no syntax tree (it failed, or is not the
    /// compiler) is an error that quotes what it printed, not an empty module.
    @Test func aCompilerThatPrintsNoTreeIsAnErrorQuotingIt() throws {
        try withScratch { scratch in
            let fake = scratch.url.appendingPathComponent("swiftc")
            try writeExecutable("#!/bin/sh\necho 'error: no such module' >&2\nexit 1\n", to: fake)
            do {
                _ = try ASTDump.run(swiftc: fake.path, module: "M", packageName: "m", files: ["A.swift"], in: scratch.url, searchPaths: [], moduleMaps: [])
                Issue.record("no tree is an error")
            } catch let error as ASTDumpError {
                #expect(error.reason == "the compiler printed no syntax tree for module M: error: no such module\n", "\(error)")
            }
        }
    }

    /// A module the compiler cannot dump is left out with a warning naming
    /// its target; the other modules are still read.
    @Test func aModuleTheCompilerCannotDumpIsAWarningNotTheEnd() throws {
        try withScratch { scratch in
            struct Refused: Error, CustomStringConvertible { var description: String { "the compiler refused" } }
            func target(_ name: String) -> PackageTargets.Target {
                PackageTargets.Target(name: name, c99name: name, type: "library", moduleType: "SwiftTarget", path: "Sources/\(name)", sources: ["A.swift"])
            }
            var explorer = Explorer(paths: ["Sources"])
            explorer.describe = { _ in [target("Broken"), target("Fine")] }
            let read = Locked<[String]>([])
            explorer.dump = { _, module, _, _, _, _, _ in
                read.withLock { $0.append(module) }
                if module == "Broken" { throw Refused() }
                return []
            }
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            let output = OutputBox()
            let found = try explorer.explore(workspace, print: { output.append($0) })
            #expect(found.warnings == ["Broken: the compiler refused"])
            #expect(output.text == "  reading Broken (1 file(s))\n  reading Fine (1 file(s))", "progress for each module: \(output.text)")
            #expect(read.value == ["Broken", "Fine"], "the next module is still read")
        }
    }

    /// What a module's trees hold becomes the run's mutants: every point of
    /// a wanted file (none of a file the paths leave out), only the changed
    /// lines' with `--in-diff`, and the compiler that read them.
    @Test func theTreesOfTheWantedFilesBecomeTheMutants() throws {
        try withScratch { scratch in
            try scratch.write("copy/Sources/M/A.swift", "let x = true\nlet y = false\n")
            try scratch.write("copy/Sources/M/B.swift", "let z = true\n")
            func literal(_ start: Int, _ value: String) -> [String: Any] {
                ["_kind": "boolean_literal_expr", "value": value, "type": MutationFinder.boolType, "range": ["start": start, "end": start + value.count]]
            }
            var explorer = Explorer(paths: ["Sources/M/A.swift"])
            explorer.describe = { _ in
                [PackageTargets.Target(name: "M", c99name: "M", type: "library", moduleType: "SwiftTarget", path: "Sources/M", sources: ["A.swift", "B.swift"])]
            }
            explorer.dump = { _, _, _, files, _, _, _ in
                #expect(files == ["Sources/M/A.swift", "Sources/M/B.swift"], "the compiler reads the whole module")
                return [ASTDump.File(path: "Sources/M/A.swift", compilerVersion: "Swift version 9.9", root: ["_kind": "source_file", "items": [literal(8, "true"), literal(21, "false")]]),
                        ASTDump.File(path: "Sources/M/B.swift", compilerVersion: "Swift version 9.9", root: ["_kind": "source_file", "items": [literal(8, "true")]])]
            }
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            var found = try explorer.explore(workspace, print: { _ in })
            #expect(found.points.map(\.summary) == ["Sources/M/A.swift:1:9 boolean-literal  true -> false", "Sources/M/A.swift:2:9 boolean-literal  false -> true"])
            #expect(found.compilerVersion == "Swift version 9.9")
            explorer.changed = ChangedLines(lines: ["Sources/M/A.swift": [2...2]])
            found = try explorer.explore(workspace, print: { _ in })
            #expect(found.points.map(\.summary) == ["Sources/M/A.swift:2:9 boolean-literal  false -> true"])
        }
    }

    /// A Bool function whose body is one expression gets its `return`
    /// spelled out by the schema; one with a `return` of its own, or with
    /// more than one statement, does not.
    @Test func onlyABodyThatIsOneExpressionNeedsItsReturnSpelledOut() throws {
        let text = "func a(_ x: Int) -> Bool { x > 0 }\nfunc b(_ x: Int) -> Bool { return x > 0 }\nfunc c(_ x: Int) -> Bool { let y = x\n    return y > 0 }\n"
        let constants = try points(text).filter { $0.mutationOperator == .returnConstant }
        #expect(constants.map(\.line) == [1, 1, 2, 2, 3, 3])
        #expect(constants.map { $0.implicitReturn != nil } == [true, true, false, false, false, false], "\(constants.map(\.implicitReturn))")
        #expect(constants.first?.implicitReturn == 27, "where `x > 0` starts")
    }

    /// A result builder's body is no lone expression: nothing to spell out.
    @Test func aResultBuilderBodyHasNoReturnToSpellOut() throws {
        let text = """
            @resultBuilder enum AllOf {
                static func buildBlock(_ parts: Bool...) -> Bool { !parts.contains(false) }
            }
            @AllOf func both(_ a: Bool, _ b: Bool) -> Bool {
                a
                b
            }

            """
        let constants = try points(text).filter { $0.mutationOperator == .returnConstant && $0.line == 4 }
        #expect(constants.count == 2 && constants.allSatisfy { $0.implicitReturn == nil }, "\(constants.map(\.implicitReturn))")
    }

    @Test func aNumberThatEndsTheFileIsNamedWhole() throws {
        let found = try points("let x = 12")   // no newline at the end
        #expect(found.map(\.summary) == ["A.swift:1:9 integer-literal  12 -> 13"])
    }

    @Test func aConditionThatIsAlreadyTrueIsNotMadeTrue() throws {
        let found = try points("func f(_ a: Int) -> Int {\n    if true { return 1 }\n    if a > 0 { return 2 }\n    return 3\n}\n")
        #expect(found.filter { $0.mutationOperator == .removeCondition }.map(\.original) == ["a > 0"])
    }

    /// A condition that ends in a string literal is replaced up to the
    /// literal's closing quote: escaped quotes, multi-line and empty strings.
    @Test func aConditionEndingInAStringIsReplacedToItsClosingQuote() throws {
        let source = """
            func f(_ a: String) -> Int {
                if a == "x\\"y" { return 1 }
                if a == \"\"\"
                    multi
                    \"\"\" { return 2 }
                if a != "" { return 3 }
                if a == "\\"" { return 4 }
                return 0
            }

            """
        let found = try points(source).filter { $0.mutationOperator == .removeCondition }
        #expect(found.map(\.original) == [#"a == "x\"y""#, "a == \"\"\"\n        multi\n        \"\"\"", #"a != """#, #"a == "\"""#])
    }

    /// Ranges are taken from the dump as they are: a token at the file's first
    /// byte counts, a range that runs backwards or starts before the file is skipped.
    @Test func aTokenAtTheFirstByteCountsAndABadRangeIsSkipped() {
        let source = Array("1 + 22\nif x {}\n".utf8)
        let tree: [String: Any] = ["_kind": "source_file", "items": [
            ["_kind": "integer_literal_expr", "range": ["start": 0, "end": 0]],
            ["_kind": "integer_literal_expr", "range": ["start": 4, "end": 1]],
            ["_kind": "boolean_literal_expr", "value": "true", "range": ["start": 13, "end": 13]],   // would run past the end
            ["_kind": "if_stmt", "conditions": [["_kind": "declref_expr", "type": MutationFinder.boolType, "range": ["start": -3, "end": 10]]]],
            // A Bool function whose body starts past the end, an operator whose range holds another token,
            // a void call that ends past the file.
            ["_kind": "func_decl", "result": MutationFinder.boolType, "body": ["_kind": "brace_stmt", "range": ["start": 99, "end": 100], "elements": []]],
            ["_kind": "binary_expr", "type": "$sSiD", "fn": ["_kind": "declref_expr", "decl": ["base_name": "+"], "range": ["start": 0, "end": 0]]],
            ["_kind": "brace_stmt", "elements": [["_kind": "call_expr", "type": "$sytD", "range": ["start": 7, "end": 16]]]],
        ]]
        let found = MutationFinder(path: "A.swift", source: source).points(in: tree)
        #expect(found.map(\.summary) == ["A.swift:1:1 integer-literal  1 -> 2"])
    }

    @Test func anEscapedQuoteOrBackslashInAStringEndsOnlyItself() throws {
        let first = #"{"_kind":"source_file","filename":"A.swift","text":"say \"}\" and \\","items":[]}"#
        let second = #"{"_kind":"source_file","filename":"B.swift","items":[]}"#
        let documents = ASTDump.documents(in: Data((first + "\n" + second + "\n").utf8))
        #expect(documents.map { String(decoding: $0, as: UTF8.self) } == [first, second])
        #expect(try ASTDump.parse(Data((first + "\n" + second).utf8)).map(\.path) == ["A.swift", "B.swift"])
        #expect(ASTDump.documents(in: Data((first + second).utf8)).count == 2, "one right after the other, with nothing between")
    }

    @Test func theIgnoreFileMatchesByIdOrByPlaceAndNeedsAReason() throws {
        let point = MutationPoint(file: "Sources/A.swift", start: 10, end: 11, line: 4, column: 3, mutationOperator: .arithmetic,
                                  original: "+", replacement: "-")
        let ignore = try ExploreIgnore.parse("""
            # harmless ones
            \(point.id)  equivalent: both operands are zero here
            Sources/B.swift:9 logical  short-circuit order only
            """, file: "explore-ignore")
        #expect(ignore.reason(for: point) == "equivalent: both operands are zero here")
        var other = point
        other.file = "Sources/B.swift"
        other.line = 9
        other.mutationOperator = .logical
        #expect(ignore.reason(for: other) == "short-circuit order only")
        other.line = 10
        #expect(ignore.reason(for: other) == nil)
        #expect(throws: ASTDumpError(reason: "f:3: expected 'ID reason' or 'FILE:LINE OPERATOR reason', with a reason a reviewer would accept")) {
            try ExploreIgnore.parse("\n\nabcdef12\n", file: "f")
        }
        #expect(throws: (any Error).self) { try ExploreIgnore.parse("abcdef12\n", file: "f") }
        #expect(throws: (any Error).self) { try ExploreIgnore.parse("Sources/B.swift:9 nonsense reason\n", file: "f") }
    }

    /// A mutant named twice (by its id and by its place, or by one key on
    /// two lines) takes the reason of the entry that comes first in the file.
    @Test func ofTwoEntriesThatNameAMutantTheFirstGivesTheReason() throws {
        let point = MutationPoint(file: "Sources/A.swift", start: 10, end: 11, line: 4, column: 3, mutationOperator: .arithmetic,
                                  original: "+", replacement: "-")
        let placeFirst = try ExploreIgnore.parse("Sources/A.swift:4 arithmetic  by place\n\(point.id)  by id\n", file: "f")
        let idFirst = try ExploreIgnore.parse("\(point.id)  by id\nSources/A.swift:4 arithmetic  by place\n", file: "f")
        let twice = try ExploreIgnore.parse("\(point.id)  first\nSources/B.swift:1 logical  other\n\(point.id)  second\n", file: "f")
        #expect(placeFirst.reason(for: point) == "by place" && idFirst.reason(for: point) == "by id" && twice.reason(for: point) == "first")
    }

    /// Only a run that read every mutant an entry could name reports the
    /// entry as naming none: ids need the whole of Sources, a place needs
    /// its file, and a run over changed lines (`--in-diff`) checks nothing.
    @Test func anIgnoreEntryNamesNoMutantOnlyWhereItsMutantWouldHaveBeenRead() throws {
        let point = MutationPoint(file: "Sources/A/One.swift", start: 10, end: 11, line: 4, column: 3, mutationOperator: .arithmetic,
                                  original: "+", replacement: "-")
        let ignore = try ExploreIgnore.parse("""
            \(point.id)  equivalent: found
            0badc0de  equivalent: gone
            Sources/A/One.swift:4 arithmetic  found by place
            Sources/A/One.swift:5 arithmetic  gone from this file
            Sources/B/Two.swift:1 logical  in another folder
            """, file: "explore-ignore")
        func unmatched(_ paths: [String], changed: ChangedLines? = nil) -> [Int] {
            var explorer = Explorer(paths: paths)
            explorer.changed = changed
            return ignore.unmatched([point], by: explorer).map(\.line)
        }
        #expect(unmatched(["Sources"]) == [2, 4, 5])
        #expect(unmatched(["Sources/A"]) == [4])
        #expect(unmatched(["Sources/A/One.swift", "Sources/B"]) == [4, 5])
        #expect(unmatched(["Sources"], changed: ChangedLines(lines: ["Sources/A/One.swift": [4...4]])).isEmpty)
    }

    @Test func changedLinesComeFromTheNewSideOfEachHunk() {
        let changed = ChangedLines.parse("""
            diff --git a/Sources/A.swift b/Sources/A.swift
            --- a/Sources/A.swift
            +++ b/Sources/A.swift
            @@ -3 +3,2 @@ func a()
            @@ -10,2 +11,0 @@
            --- a/Sources/Gone.swift
            +++ /dev/null
            @@ -1,4 +0,0 @@
            """)
        #expect(changed.contains("Sources/A.swift", line: 3) && changed.contains("Sources/A.swift", line: 4))
        #expect(!changed.contains("Sources/A.swift", line: 5))
        #expect(!changed.contains("Sources/A.swift", line: 11), "a pure deletion adds no line")
        #expect(!changed.contains("Sources/Gone.swift", line: 1))
        // With context lines, a changed line that holds " +7" is text, not a hunk.
        let withText = ChangedLines.parse("+++ b/Sources/A.swift\n@@ -1 +1 @@\n-let y = x\n+let y = x +7\n")
        #expect(withText.lines == ["Sources/A.swift": [1...1]])
    }

    /// `--in-diff REF` asks git itself: the lines changed since REF, and a
    /// ref git does not know is an error that names it.
    @Test func theChangedLinesSinceARefComeFromGit() throws {
        try withScratch { scratch in
            try scratch.write("Sources/A.swift", "let a = 1\nlet b = 2\nlet c = 3\n")
            try git(["init", "-q"], in: scratch.url)
            try git(["add", "."], in: scratch.url)
            try git(["commit", "-q", "-m", "first"], in: scratch.url)
            try scratch.write("Sources/A.swift", "let a = 1\nlet b = 20\nlet c = 3\nlet d = 4\n")
            #expect(try ChangedLines.since("HEAD", in: scratch.url).lines == ["Sources/A.swift": [2...2, 4...4]])
            #expect(throws: ASTDumpError.self) { try ChangedLines.since("no-such-ref", in: scratch.url) }
            do {
                _ = try ChangedLines.since("no-such-ref", in: scratch.url)
            } catch let error as ASTDumpError {
                #expect(error.reason.hasPrefix("git diff no-such-ref failed in \(scratch.url.path): "), "\(error)")
            }
        }
    }

    @Test func aSampleIsTheFirstIdsAndShardsSplitItWithoutOverlap() {
        let points = (0..<40).map { index in
            MutationPoint(file: "Sources/F\(index % 3).swift", start: index * 10, end: index * 10 + 1, line: index + 1, column: 1,
                          mutationOperator: .arithmetic, original: "+", replacement: "-")
        }
        let sample = ExploreSelection(sample: 7).apply(points)
        #expect(Set(sample.map(\.id)) == Set(points.map(\.id).sorted().prefix(7)))
        #expect(sample.map(\.start) == sample.map(\.start).sorted(), "kept in the finder's order")
        #expect(ExploreSelection(sample: 7).apply(points.reversed()).map(\.id).sorted() == sample.map(\.id).sorted(),
                "the same sample whatever order the points come in")
        #expect(ExploreSelection().apply(points) == points)
        let shards = (1...3).map { ExploreSelection(sample: 7, shard: Shard(index: $0, count: 3)).apply(points) }
        #expect(shards.map(\.count) == [3, 2, 2])
        #expect(Set(shards.flatMap { $0.map(\.id) }) == Set(sample.map(\.id)))
        #expect(shards.flatMap { $0 }.count == 7, "no mutant in two shards")
        let wanted: Set = [points[3].id, points[30].id, "not-an-id"]
        #expect(ExploreSelection(ids: wanted).apply(points) == [points[3], points[30]], "only the ids asked for, in the finder's order")
    }

    @Test func ignoredMutantsAreReportedWithTheirReasonAndKeptOutOfTheSchema() throws {
        let source = "let a = 1 + 2\nlet b = 3 - 4\n"
        func point(_ start: Int, _ line: Int, _ original: String, _ replacement: String) -> MutationPoint {
            MutationPoint(file: "Sources/A.swift", start: start, end: start + 1, line: line, column: 11, mutationOperator: .arithmetic,
                          original: original, replacement: replacement)
        }
        let plus = point(10, 1, "+", "-"), minus = point(24, 2, "-", "+")
        let ignore = try ExploreIgnore.parse("\(minus.id) equivalent here", file: "explore-ignore")
        let split = ignore.split([plus, minus, point(10, 1, "+", "-")]) { $0 == "Sources/A.swift" ? Data(source.utf8) : nil }
        #expect(split.run.map(\.name) == [plus.id, plus.id])
        #expect(split.ignored.map(\.name) == [minus.id])
        #expect(split.ignored.first?.status == .ignored)
        #expect(split.ignored.first?.reason == "equivalent here")
        var elsewhere = plus
        elsewhere.file = "Sources/Missing.swift"
        #expect(ignore.split([elsewhere]) { _ in nil }.run.isEmpty, "a file that cannot be read gives no mutant")
        #expect(ignore.schemaPoints([plus, minus], excluding: []) == [plus], "an ignored mutant is not compiled in")
        #expect(ignore.schemaPoints([plus, minus], excluding: [plus.id]).isEmpty, "nor one that failed to type-check before")
    }
}

extension ExploreTests {
    /// What a compiler that prints no tree said is quoted up to its first
    /// 2000 bytes: a long output does not become a long error.
    @Test func aCompilerThatPrintsNoTreeIsQuotedUpToItsFirst2000Bytes() throws {
        try withScratch { scratch in
            let fake = scratch.url.appendingPathComponent("swiftc")
            try writeExecutable("#!/bin/sh\nhead -c 5000 /dev/zero | tr '\\0' e >&2\nexit 1\n", to: fake)
            let error = #expect(throws: ASTDumpError.self) {
                _ = try ASTDump.run(swiftc: fake.path, module: "M", packageName: "m", files: ["A.swift"], in: scratch.url, searchPaths: [], moduleMaps: [])
            }
            #expect(error?.reason == "the compiler printed no syntax tree for module M: " + String(repeating: "e", count: 2000),
                    "\(String(describing: error?.reason.count))")
        }
    }
}

extension ExploreTests {
    /// A number written with underscores (`1_000`) is read without them and
    /// mutated like any other.
    @Test func aNumberWithUnderscoresIsMutatedLikeAnyOther() {
        let tree: [String: Any] = ["_kind": "source_file", "items": [["_kind": "integer_literal_expr", "range": ["start": 8, "end": 8]]]]
        let found = MutationFinder(path: "A.swift", source: Array("let x = 1_000\n".utf8)).points(in: tree)
        #expect(found.map(\.summary) == ["A.swift:1:9 integer-literal  1_000 -> 1001"])
    }
}
