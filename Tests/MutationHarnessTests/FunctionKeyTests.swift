import Foundation
import Testing
@testable import MutationHarness

/// `--incremental` keys by function: comments left out by a lexer that
/// follows Swift's literals, each function by its own text, the rest of a
/// file as one piece, and a mutant's patch counted from its function.
struct FunctionKeyTests {
    private func lines(_ text: String) -> [String]? {
        SwiftSourceLines.lines(Array(text.utf8))?.map { String(decoding: $0.text, as: UTF8.self) }
    }

    @Test func commentsGoAndLiteralsStay() {
        #expect(lines("let a = 1 // one\n/* two\n three */ let b = 2\nlet c = 3 /* x /* nested */ y */") == ["let a = 1", "", " let b = 2", "let c = 3"])
        #expect(lines(#"let url = "http://x" // c"#) == [#"let url = "http://x""#])
        #expect(lines(##"let raw = #"a "// b" \#(f("/*")) c"# // d"##) == [##"let raw = #"a "// b" \#(f("/*")) c"#"##])
        #expect(lines(#"let s = "a \(g("//") /* gone */ + 1) b" // end"#) == [#"let s = "a \(g("//") + 1) b""#])
        #expect(lines("let r = #/a//b/# // c") == ["let r = #/a//b/#"])
    }

    @Test func aMultiLineLiteralKeepsItsBlankLinesAndItsLineCount() throws {
        let source = "let s = \"\"\"\n  // not a comment\n\n  a \\\n  b\n  \"\"\"\n\nlet t = 1 // x\n"
        let read = try #require(SwiftSourceLines.lines(Array(source.utf8)))
        #expect(read.count == 9, "one entry per line, the last one empty")
        #expect(String(decoding: read[1].text, as: UTF8.self) == "  // not a comment")
        #expect(!read[2].isBlank, "a blank line inside the literal is content")
        #expect(read[6].isBlank && !read[6].insideLiteral)
        #expect(String(decoding: read[7].text, as: UTF8.self) == "let t = 1")
    }

    @Test func aFileTheLexerCannotFollowGivesNothing() {
        for broken in ["let s = \"open\nlet t = 1", "/* never closed", "let s = \"\"\"\n never closed", "let r = #/never closed"] {
            #expect(SwiftSourceLines.lines(Array(broken.utf8)) == nil, "\(broken)")
        }
    }

    // Lines: 1 struct, 2-5 f, 6 blank, 7-10 g, 11 }.
    private static let original = """
        struct S {
            func f() -> Int {
                let a = 1
                return a + 1
            }

            func g() -> Int {
                let b = 2
                return b * 2
            }
        }
        """

    private let functions: [Int: CoverageMap.Function] = [
        0: .init(name: "f", file: "S.swift", firstLine: 2, lastLine: 5, count: 1),
        1: .init(name: "g", file: "S.swift", firstLine: 7, lastLine: 10, count: 1),
    ]

    private func digests(_ text: String, shift: Int = 0) -> SourceDigests {
        SourceDigests(source: Array(text.utf8), fallback: "whole", functions: functions.mapValues {
            var moved = $0
            if $0.name == "g" {
                moved.firstLine += shift
                moved.lastLine += shift
            }
            return moved
        })
    }

    @Test func anEditInsideABodyChangesThatFunctionOnly() {
        let base = digests(Self.original)
        let edited = digests(Self.original.replacingOccurrences(of: "b * 2", with: "b * 3"))
        #expect(edited.functions[0] == base.functions[0] && edited.outside == base.outside)
        #expect(edited.functions[1] != base.functions[1])
        let commented = digests(Self.original.replacingOccurrences(of: "let a = 1", with: "let a = 1 // the first"))
        #expect(commented.functions == base.functions && commented.outside == base.outside, "a comment changes nothing")
    }

    @Test func aSignatureOrADeclarationIsTheRestOfTheFile() {
        let base = digests(Self.original)
        let signature = digests(Self.original.replacingOccurrences(of: "func g() -> Int", with: "func g() -> Int8"))
        #expect(signature.outside != base.outside, "a signature is outside every body")
        let declaration = digests(Self.original.replacingOccurrences(of: "struct S {", with: "struct S: Equatable {"))
        #expect(declaration.outside != base.outside && declaration.functions == base.functions)
    }

    @Test func linesAddedAboveAFunctionLeaveItsDigest() {
        let base = digests(Self.original)
        let moved = digests(Self.original.replacingOccurrences(of: "    func g()", with: "    // g doubles.\n    // Twice.\n    func g()"), shift: 2)
        #expect(moved.functions == base.functions && moved.outside == base.outside)
        #expect(moved.function(holding: [10])?.index == 1 && moved.function(holding: [10])?.firstLine == 9)
        #expect(base.function(holding: [2]) == nil, "a function's first line is not in its body")
        #expect(base.function(holding: [3, 4])?.index == 0 && base.function(holding: [4, 8]) == nil)
    }

    @Test func withoutItsTextAFileCountsWhole() {
        let blind = SourceDigests(source: nil, fallback: "whole", functions: functions)
        #expect(blind.outside == "whole" && blind.functions.values.allSatisfy { $0 == "whole" })
        let unlexable = SourceDigests(source: Array("let s = \"open\n".utf8), fallback: "whole", functions: functions)
        #expect(unlexable.outside == "whole")
    }
}

extension FunctionKeyTests {
    // t1 runs f, t2 runs g; both tests live in T.swift.
    private var map: CoverageMap {
        CoverageMap(functions: [functions[0]!, functions[1]!,
                                .init(name: "t1", file: "T.swift", firstLine: 1, lastLine: 3, count: 1),
                                .init(name: "t2", file: "T.swift", firstLine: 4, lastLine: 6, count: 1)],
                    reached: ["t1": [0, 2], "t2": [1, 3]], seconds: ["t1": 0.1, "t2": 0.1])
    }

    private static let tests = "func t1() {\n    check(f())\n}\nfunc t2() {\n    check(g())\n}\n"

    private func map(shiftingG shift: Int) -> CoverageMap {
        var functions = map.functions
        functions[1].firstLine += shift
        functions[1].lastLine += shift
        return CoverageMap(functions: functions, reached: map.reached, seconds: map.seconds)
    }

    /// The mutant `b * 2` -> `b / 2` in g, whose line is `line`.
    private func mutantInG(line: Int) throws -> Mutant {
        try MutantFileParser.parse("""
            Mutant: m
            Description: d

            --- a/S.swift
            +++ b/S.swift
            @@ -\(line) +\(line) @@
            -        return b * 2
            +        return b / 2

            """, file: "m.patch")
    }

    private func key(_ source: String, shift: Int = 0, tests: String = tests, reach: [String] = ["t2"]) throws -> String {
        let files = ["S.swift": SHA256.hex(source), "T.swift": SHA256.hex(tests), "Package.swift": "p"]
        let keys = VerdictKeys(files: files, common: "c", coverage: map(shiftingG: shift),
                               sources: ["S.swift": Array(source.utf8), "T.swift": Array(tests.utf8)])
        return keys.key(for: try mutantInG(line: 9 + shift), reach: .tests(reach))
    }

    @Test func aMutantsKeyFollowsTheFunctionsItsTestsRun() throws {
        let base = try key(Self.original)
        #expect(try key(Self.original.replacingOccurrences(of: "let a = 1", with: "let a = 5")) == base,
                "f changed, and t2 does not run f")
        #expect(try key(Self.original.replacingOccurrences(of: "let b = 2", with: "let b = 5")) != base, "g changed")
        #expect(try key(Self.original.replacingOccurrences(of: "struct S {", with: "struct S: Equatable {")) != base,
                "the rest of the file changed")
        #expect(try key(Self.original.replacingOccurrences(of: "let b = 2", with: "let b = 2 // two")) == base, "a comment")
        #expect(try key(Self.original, tests: Self.tests.replacingOccurrences(of: "check(f())", with: "check(f() + 1)")) == base,
                "t1 changed, and only t2 covers it")
        #expect(try key(Self.original, tests: Self.tests.replacingOccurrences(of: "check(g())", with: "check(g() + 1)")) != base,
                "its test changed")
        #expect(try key(Self.original, reach: ["t1", "t2"]) != base, "another set of tests")
        #expect(try key(Self.original, tests: Self.tests + "let expected = 4\n") != base,
                "the rest of its test's file changed (a constant its test may read)")
    }

    /// A patch that renames a file onto one of the map's is keyed on that
    /// file whole, not on the functions its hunks touch.
    @Test func aMutantThatRenamesAFileIsKeyedByTheWholeFile() throws {
        let renaming = try MutantFileParser.parse("Mutant: m\nDescription: d\n\n--- a/Old.swift\n+++ b/S.swift\n@@ -9 +9 @@\n"
            + "-        return b * 2\n+        return b / 2\n", file: "m.patch")
        func key(_ source: String) -> String {
            let files = ["S.swift": SHA256.hex(source), "T.swift": SHA256.hex(Self.tests), "Package.swift": "p"]
            return VerdictKeys(files: files, common: "c", coverage: map, sources: ["S.swift": Array(source.utf8), "T.swift": Array(Self.tests.utf8)])
                .key(for: renaming, reach: .tests(["t2"]))
        }
        #expect(key(Self.original.replacingOccurrences(of: "let a = 1", with: "let a = 5")) != key(Self.original),
                "f changed: the patch's file, taken whole")
    }

    @Test func aMutantKeepsItsKeyWhenLinesAreAddedAboveIt() throws {
        let base = try key(Self.original)
        let moved = Self.original.replacingOccurrences(of: "    func g()", with: "    /// Doubles.\n    ///\n    func g()")
        #expect(try key(moved, shift: 2) == base, "the patch counts its lines from g's first")
        let inserted = Self.original.replacingOccurrences(of: "    func g()", with: "    var x: Int { 1 }\n\n    func g()")
        #expect(try key(inserted, shift: 2) != base, "a declaration added is the rest of the file")
    }

    @Test func aKilledVerdictHoldsWhileItsKillerRunsTheSameFunctions() throws {
        func killKey(_ source: String) throws -> String? {
            let files = ["S.swift": SHA256.hex(source), "T.swift": SHA256.hex(Self.tests)]
            return VerdictKeys(files: files, common: "c", coverage: map, sources: ["S.swift": Array(source.utf8), "T.swift": Array(Self.tests.utf8)])
                .killKey(for: try mutantInG(line: 9), killer: "t2")
        }
        let base = try killKey(Self.original)
        #expect(base != nil)
        #expect(try killKey(Self.original.replacingOccurrences(of: "let a = 1", with: "let a = 5")) == base)
        #expect(try killKey(Self.original.replacingOccurrences(of: "let b = 2", with: "let b = 5")) != base)
    }
}

extension FunctionKeyTests {
    /// A mutant the map cannot place runs the whole suite and is keyed on
    /// the whole package: by the text of its Swift files, so a comment does
    /// not re-run it, and by the manifest's bytes (its first comment is the
    /// tools version).
    @Test func aWholeSuiteMutantIsKeyedOnThePackagesTextNotItsComments() throws {
        func key(_ source: String, manifest: String = "// swift-tools-version:6.0\n") throws -> String {
            let files = ["Sources/S.swift": SHA256.hex(source), "Package.swift": SHA256.hex(manifest)]
            return VerdictKeys(files: files, common: "c", coverage: nil,
                               sources: ["Sources/S.swift": Array(source.utf8), "Package.swift": Array(manifest.utf8)])
                .key(for: try mutantInG(line: 9), reach: .unknown("outside every function"))
        }
        let base = try key(Self.original)
        #expect(try key(Self.original.replacingOccurrences(of: "struct S {", with: "struct S { // a comment")) == base)
        #expect(try key(Self.original.replacingOccurrences(of: "let a = 1", with: "let a = 5")) != base)
        #expect(try key(Self.original, manifest: "// swift-tools-version:5.9\n") != base)
    }
}

extension FunctionKeyTests {
    /// The tree a results file is of: a compiled Swift file by its code, so
    /// a comment reworded in place leaves the package as it was (its
    /// baseline and map are reused); a line added, or any byte of a fixture
    /// or a manifest, does not.
    @Test func aCompiledFileCountsByItsCodeAFixtureByItsBytes() {
        let targets = [PackageTargets.Target(name: "S", c99name: "S", type: "library", moduleType: "SwiftTarget", path: "Sources/S",
                                             sources: ["S.swift", "Info.plist"])]
        let compiled = IncrementalRun.compiledSwiftFiles(targets)
        #expect(compiled == ["Sources/S/S.swift"])
        func digests(_ source: String, fixture: String = "// a fixture\n") -> [String: String] {
            let texts = ["Sources/S/S.swift": source, "Tests/Fixtures/F.swift": fixture]
            return IncrementalRun.digests(raw: texts.mapValues { SHA256.hex($0) }, compiled: compiled) { texts[$0].map { Array($0.utf8) } }
        }
        let base = digests(Self.original)
        #expect(digests(Self.original.replacingOccurrences(of: "let a = 1", with: "let a = 1 // one")) == base, "a comment in place")
        #expect(digests(Self.original.replacingOccurrences(of: "struct S {", with: "// S\nstruct S {")) != base, "a line added moves the code")
        #expect(digests(Self.original.replacingOccurrences(of: "let a = 1", with: "let a = 2")) != base)
        #expect(digests(Self.original, fixture: "// another fixture\n") != base, "a fixture's comment may be what a test reads")
    }
}

extension FunctionKeyTests {
    /// The lexer follows every Swift file of this package to its end, with
    /// one entry per line: a file it gave up on would count whole in every key.
    @Test func theLexerFollowsEverySwiftFileOfThisPackage() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var failed: [String] = []
        for folder in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift", !url.path.contains("/Fixtures/"), let data = FileManager.default.contents(atPath: url.path) else { continue }
                let bytes = [UInt8](data)
                let lines = SwiftSourceLines.lines(bytes)
                if lines?.count != bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count { failed.append(url.lastPathComponent) }
            }
        }
        #expect(failed.isEmpty, "\(failed)")
    }
}

extension FunctionKeyTests {
    /// SwiftPM's test runner is in the map (every test runs it) but it is a
    /// file the build writes, naming the copy's absolute path: no key holds
    /// it, so a verdict holds wherever the package is, whether or not its
    /// copy was built yet, and whichever build folder the map was made in.
    @Test func aFileTheBuildWritesIsInNoKey() throws {
        func keys(runner path: String, text: String?, tests: String = Self.tests) throws -> [String?] {
            var functions = map.functions
            functions.append(.init(name: "main", file: path, firstLine: 1, lastLine: 3, count: 2))
            let coverage = CoverageMap(functions: functions, reached: ["t1": [0, 2, 4], "t2": [1, 3, 4]], seconds: map.seconds)
            let files = ["S.swift": SHA256.hex(Self.original), "T.swift": SHA256.hex(tests), "Package.swift": "p"]
            var sources = ["S.swift": Array(Self.original.utf8), "T.swift": Array(tests.utf8)]
            sources[path] = text.map { Array($0.utf8) }
            let keys = VerdictKeys(files: files, common: "c", coverage: coverage, sources: sources)
            let mutant = try mutantInG(line: 9)
            return [keys.key(for: mutant, reach: .tests(["t2"])), keys.key(for: mutant, reach: .unknown("outside every function")),
                    keys.killKey(for: mutant, killer: "t2")]
        }
        func runner(in folder: String) -> String { "func main() {\n    run(\"\(folder)/.build/debug/testOutput.txt\")\n}\n" }
        let base = try keys(runner: ".build/debug/runner.swift", text: runner(in: "/work/pkg"))
        #expect(try keys(runner: ".build/debug/runner.swift", text: runner(in: "/ci/checkout")) == base, "another folder")
        #expect(try keys(runner: ".build/debug/runner.swift", text: nil) == base, "a copy not built yet")
        #expect(try keys(runner: ".build/x86_64-unknown-linux-gnu/debug/runner.swift", text: runner(in: "/work/pkg")) == base,
                "another build folder")
        let changed = try keys(runner: ".build/debug/runner.swift", text: runner(in: "/work/pkg"),
                               tests: Self.tests.replacingOccurrences(of: "check(g())", with: "check(g() + 1)"))
        #expect(zip(changed, base).allSatisfy { $0 != $1 }, "the tests' own files still count: \(changed) \(base)")
    }
}

extension FunctionKeyTests {
    /// Only what the build writes is left out: a local dependency inside
    /// the package's folder counts by its text like any file of the map,
    /// and a dependency's checkout does too unless `Package.resolved` pins it.
    @Test func aLocalDependencyCountsByItsTextACheckoutByItsPin() throws {
        func key(_ path: String, text: String, resolved: Bool = false) throws -> String {
            var functions = map.functions
            functions.append(.init(name: "core", file: path, firstLine: 1, lastLine: 3, count: 1))
            let coverage = CoverageMap(functions: functions, reached: ["t1": [0, 2], "t2": [1, 3, 4]], seconds: map.seconds)
            var files = ["S.swift": SHA256.hex(Self.original), "T.swift": SHA256.hex(Self.tests), "Package.swift": "p"]
            if resolved { files["Package.resolved"] = "pins" }
            let sources = ["S.swift": Array(Self.original.utf8), "T.swift": Array(Self.tests.utf8), path: Array(text.utf8)]
            return VerdictKeys(files: files, common: "c", coverage: coverage, sources: sources).key(for: try mutantInG(line: 9), reach: .tests(["t2"]))
        }
        let core = "func core() -> Int {\n    1\n}\n", edited = core.replacingOccurrences(of: "    1", with: "    2")
        #expect(try key("Packages/Core/Sources/Core/C.swift", text: core) != key("Packages/Core/Sources/Core/C.swift", text: edited),
                "a local dependency t2 runs")
        let checkout = ".build/checkouts/core/Sources/Core/C.swift"
        #expect(try key(checkout, text: core) != key(checkout, text: edited), "nothing pins the checkout")
        #expect(try key(checkout, text: core, resolved: true) == key(checkout, text: edited, resolved: true), "Package.resolved pins it")
        #expect(VerdictKeys.isBuildOutput(".build/debug/runner.swift", pinned: false) && !VerdictKeys.isBuildOutput("Sources/.build.swift", pinned: true))
    }
}

extension FunctionKeyTests {
    /// A patch of g's line 9 and of t2's line 5, its two files in the order of `paths`.
    private func mutantInGAndT2(_ paths: [String]) throws -> Mutant {
        let hunks = ["S.swift": "@@ -9 +9 @@\n-        return b * 2\n+        return b / 2\n",
                     "T.swift": "@@ -5 +5 @@\n-    check(g())\n+    check(g() + 1)\n"]
        return try MutantFileParser.parse("Mutant: m\nDescription: d\n\n" + paths.map { "--- a/\($0)\n+++ b/\($0)\n" + (hunks[$0] ?? "") }.joined(),
                                          file: "m.patch")
    }

    /// The tests that reach a mutant come fastest first, an order their times change: the key is of which tests they are.
    @Test func aKeyIsOfWhichTestsReachTheMutantNotTheirOrder() throws {
        #expect(try key(Self.original, reach: ["t1", "t2"]) == key(Self.original, reach: ["t2", "t1"]))
    }

    /// What a test reaches is keyed by the functions it ran, however the map numbers them.
    @Test func aTestsReachIsKeyedTheSameHoweverTheMapNumbersItsFunctions() throws {
        let files = ["S.swift": SHA256.hex(Self.original), "T.swift": SHA256.hex(Self.tests), "Package.swift": "p"]
        let sources = ["S.swift": Array(Self.original.utf8), "T.swift": Array(Self.tests.utf8)]
        // The same four functions listed last to first (t2, t1, g, f), so t2 reaches [0, 2] where it reached [1, 3].
        let renumbered = CoverageMap(functions: Array(map.functions.reversed()), reached: ["t1": [1, 3], "t2": [0, 2]], seconds: map.seconds)
        let mutant = try mutantInG(line: 9)
        let keys = VerdictKeys(files: files, common: "c", coverage: map, sources: sources)
        let other = VerdictKeys(files: files, common: "c", coverage: renumbered, sources: sources)
        #expect(other.key(for: mutant, reach: .tests(["t2"])) == keys.key(for: mutant, reach: .tests(["t2"])))
        #expect(other.killKey(for: mutant, killer: "t2") == keys.killKey(for: mutant, killer: "t2"))
    }

    /// A patch's key is of the files it changes, whatever order it lists them in.
    @Test func aKeyIsTheSameWhateverOrderThePatchListsItsFilesIn() throws {
        let files = ["S.swift": SHA256.hex(Self.original), "T.swift": SHA256.hex(Self.tests), "Package.swift": "p"]
        let keys = VerdictKeys(files: files, common: "c", coverage: map,
                               sources: ["S.swift": Array(Self.original.utf8), "T.swift": Array(Self.tests.utf8)])
        let sFirst = try mutantInGAndT2(["S.swift", "T.swift"]), tFirst = try mutantInGAndT2(["T.swift", "S.swift"])
        #expect(keys.key(for: sFirst, reach: .tests(["t2"])) == keys.key(for: tFirst, reach: .tests(["t2"])), "each hunk in its function")
        #expect(keys.key(for: sFirst, reach: nil) == keys.key(for: tFirst, reach: nil), "the whole files, for a run without coverage")
    }

    /// The files outside the map are keyed by path, not in the order a
    /// dictionary lists them (another in every process, so no verdict of
    /// such a mutant would ever be reused).
    @Test func theFilesOutsideTheMapAreKeyedWhateverOrderTheyAreListedIn() throws {
        let pairs = [("S.swift", SHA256.hex(Self.original)), ("T.swift", SHA256.hex(Self.tests)), ("Package.swift", "p")]
            + (1...24).map { ("Tests/Fixtures/f\($0).json", "d\($0)") }
        var roomy = [String: String](minimumCapacity: 4096)
        for (path, digest) in pairs { roomy[path] = digest }
        let tight = Dictionary(uniqueKeysWithValues: pairs)
        try #require(roomy == tight && Array(roomy.keys) != Array(tight.keys), "the same files, listed in another order")
        let sources = ["S.swift": Array(Self.original.utf8), "T.swift": Array(Self.tests.utf8)]
        let mutant = try mutantInG(line: 9)
        let one = VerdictKeys(files: roomy, common: "c", coverage: map, sources: sources)
        let other = VerdictKeys(files: tight, common: "c", coverage: map, sources: sources)
        #expect(one.key(for: mutant, reach: .tests(["t2"])) == other.key(for: mutant, reach: .tests(["t2"])))
        #expect(one.killKey(for: mutant, killer: "t2") == other.killKey(for: mutant, killer: "t2"))
    }
}
