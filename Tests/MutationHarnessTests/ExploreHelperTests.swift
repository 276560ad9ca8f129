import Foundation
import Testing
@testable import MutationHarness

/// The small rules explore is made of, as plain values: which files a path
/// selects, which targets it reads, how a mutant is named and summarised,
/// the patch it writes, and which `true` the schema must leave alone.
struct ExploreHelperTests {
    private func point(_ original: String, _ replacement: String, in source: String, operator kind: MutationOperator,
                       occurrence: Int = 0) throws -> MutationPoint {
        let ranges = source.ranges(of: original)
        let range = try #require(ranges.count > occurrence ? ranges[occurrence] : nil, "\(original) is in the source")
        let start = source.utf8.distance(from: source.startIndex, to: range.lowerBound)
        return MutationPoint(file: "Sources/A.swift", start: start, end: start + original.utf8.count, line: 1, column: start + 1,
                             mutationOperator: kind, original: original, replacement: replacement)
    }

    @Test(arguments: [
        ("Sources/A/x.swift", "Sources/A", true),
        ("Sources/A/x.swift", "Sources/A/", true),
        ("Sources/A/B/x.swift", "Sources", true),
        ("Sources/A/x.swift", "Sources/A/x.swift", true),
        ("Sources/A/x.swift", ".", true),
        ("Sources/AB/x.swift", "Sources/A", false),
        ("Sources/A.swift", "Sources/A", false),
        ("Sources/A/x.swift", "Sources/A/x", false),
        ("Tests/A/x.swift", "Sources", false),
    ])
    func aPathSelectsItselfAndWhatIsInsideItNotANameThatStartsTheSame(file: String, path: String, selected: Bool) {
        #expect(Explorer.isWithin(file, path) == selected)
    }

    @Test(arguments: [
        ("SwiftTarget", "library", true),
        ("SwiftTarget", "executable", true),
        ("SwiftTarget", "test", false),
        ("SwiftTarget", "macro", false),
        ("ClangTarget", "library", false),
    ])
    func onlySwiftTargetsThatShipAreExplored(moduleType: String, type: String, explored: Bool) {
        let target = PackageTargets.Target(name: "A", c99name: "A", type: type, moduleType: moduleType, path: "Sources/A", sources: [])
        #expect(target.isSwiftSource == explored)
    }

    @Test func onlyTargetsHoldingAChosenFileAreReadAndEachWhole() {
        func target(_ name: String, type: String = "library", _ sources: [String]) -> PackageTargets.Target {
            PackageTargets.Target(name: name, c99name: name, type: type, moduleType: "SwiftTarget", path: "Sources/\(name)", sources: sources)
        }
        let targets = [target("A", ["x.swift", "Sub/y.swift"]), target("B", ["z.swift"]), target("ATests", type: "test", ["t.swift"])]
        let chosen = Explorer.targetsToRead(targets, paths: ["Sources/A/Sub"])
        #expect(chosen.map(\.target.name) == ["A"], "B holds no chosen file and is not read")
        #expect(chosen.first?.files == ["Sources/A/x.swift", "Sources/A/Sub/y.swift"], "the compiler reads the whole module")
        #expect(chosen.first?.wanted == ["Sources/A/Sub/y.swift"])
        #expect(Explorer.targetsToRead(targets, paths: ["Sources"]).map(\.target.name) == ["A", "B"], "never a test target")
        #expect(Explorer.targetsToRead(targets, paths: ["Sources/C"]).isEmpty)
    }

    @Test func mutantsAreListedOnceByFilePositionOperatorAndReplacement() {
        func point(_ file: String, _ start: Int, _ kind: MutationOperator, _ replacement: String) -> MutationPoint {
            MutationPoint(file: file, start: start, end: start + 1, line: 1, column: start + 1, mutationOperator: kind, original: "<",
                          replacement: replacement)
        }
        let b = point("Sources/B.swift", 1, .relationalBoundary, "<=")
        let a9 = point("Sources/A.swift", 9, .arithmetic, "-")
        let negation = point("Sources/A.swift", 3, .relationalNegation, ">=")
        let boundary = point("Sources/A.swift", 3, .relationalBoundary, "<=")
        let listed = Explorer.listed([b, a9, negation, boundary, a9, b])
        #expect(listed == [boundary, negation, a9, b])
    }

    @Test func anIdIsTheSameOnEveryMachineAndChangesWithEachPartOfTheMutation() throws {
        let base = MutationPoint(file: "Sources/A.swift", start: 10, end: 11, line: 2, column: 3,
                                 mutationOperator: .arithmetic, original: "+", replacement: "-")
        // A golden value: ids are in mutants/explore-ignore and in reports, so the hash may not drift.
        #expect(base.id == "faed33ec", "got \(base.id)")
        var moved = base
        moved.start = 11
        var longer = base
        longer.end = 12
        var renamed = base
        renamed.file = "Sources/B.swift"
        var other = base
        other.replacement = "*"
        var kind = base
        kind.mutationOperator = .integerLiteral
        var relined = base
        relined.line = 9
        relined.column = 9
        let ids = [base, moved, longer, renamed, other, kind].map(\.id)
        #expect(Set(ids).count == ids.count, "each part of the mutation changes the id: \(ids)")
        #expect(relined.id == base.id, "the line and column are derived from the offset and do not change it")
        #expect(ids.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func aSummaryIsOneLineOfAtMostSixtyCharactersPerSide() {
        #expect("a\n    b\n\tc".oneLine == "a b c")
        let sixty = String(repeating: "x", count: 60)
        #expect(sixty.oneLine == sixty, "sixty characters stay whole")
        let sixtyOne = String(repeating: "y", count: 61)
        #expect(sixtyOne.oneLine == String(repeating: "y", count: 57) + "...", "longer is cut to 57 and an ellipsis")
        #expect(sixtyOne.oneLine.count == 60)
    }

    @Test func aMutantOfAFileWithoutAFinalNewlineAppliesToIt() throws {
        let source = "let a = 1\nlet b = a + 2"
        let point = try point("+", "-", in: source, operator: .arithmetic)
        let diff = GeneratedMutant.diff(for: point, source: Array(source.utf8))
        #expect(diff.contains("@@ -1,2 +1,2 @@\n let a = 1\n-let b = a + 2\n+let b = a - 2\n"), "\(diff)")
        let mutant = try #require(GeneratedMutant.mutant(for: point, source: Array(source.utf8)))
        let patched = try #require(try PatchApplier.apply(mutant.diff.files[0], to: source))
        #expect(patched.hasPrefix("let a = 1\nlet b = a - 2"), "\(patched)")
    }

    @Test func blankLinesAroundAChangeAreContextLinesOfTheirOwn() throws {
        let source = "let a = 1\n\nlet b = a + 2\n\n\nlet c = 3\n"
        let point = try point("+", "-", in: source, operator: .arithmetic)
        let diff = GeneratedMutant.diff(for: point, source: Array(source.utf8))
        #expect(diff.hasSuffix("@@ -1,6 +1,6 @@\n let a = 1\n \n-let b = a + 2\n+let b = a - 2\n \n \n let c = 3\n"), "\(diff)")
        let mutant = try #require(GeneratedMutant.mutant(for: point, source: Array(source.utf8)))
        #expect(try PatchApplier.apply(mutant.diff.files[0], to: source) == source.replacingOccurrences(of: "a + 2", with: "a - 2"))
    }

    @Test func aChangeOnTheFirstLineHasNoContextBeforeIt() throws {
        let source = (1...6).map { "let v\($0) = \($0) + 1" }.joined(separator: "\n") + "\n"
        let point = try point("+", "-", in: source, operator: .arithmetic)
        let diff = GeneratedMutant.diff(for: point, source: Array(source.utf8))
        #expect(diff.hasSuffix("@@ -1,4 +1,4 @@\n-let v1 = 1 + 1\n+let v1 = 1 - 1\n let v2 = 2 + 1\n let v3 = 3 + 1\n let v4 = 4 + 1\n"), "\(diff)")
    }

    @Test(arguments: [
        ("while true { step() }", true),
        ("while\n\t true { step() }", true),
        ("repeat { step() } while true", true),
        ("x = 1; while true {}", true),
        ("if true { step() }", false),
        ("let awhile = true", false),
        ("f(xwhile true)", false),
        ("f(Xwhile true)", false),
        ("f(_while true)", false),
        ("f(9while true)", false),
        ("f(while true)", true),
        ("f(zwhile true)", false),
        ("f(Zwhile true)", false),
        (" \n true", false),
    ])
    func onlyTheTrueOfAWhileLoopIsLeftToAPatch(source: String, forever: Bool) throws {
        let point = try point("true", "false", in: source, operator: .booleanLiteral)
        #expect(Schema.isLoopForever(point, in: Array(source.utf8)) == forever, "\(source)")
    }

    @Test func onlyTheLiteralTrueMakesALoopForever() throws {
        let source = "while false {}; while true {}"
        let falsePoint = try point("false", "true", in: source, operator: .booleanLiteral)
        #expect(!Schema.isLoopForever(falsePoint, in: Array(source.utf8)))
        var condition = try point("true", "false", in: source, operator: .booleanLiteral)
        condition.mutationOperator = .removeCondition
        #expect(!Schema.isLoopForever(condition, in: Array(source.utf8)), "another operator at the same place is schematised")
    }
}

extension ExploreHelperTests {
    /// A receiver the identity operator may copy is a path of names, each
    /// maybe called without arguments; a call with arguments, an operator,
    /// a number, an empty name or nothing at all is not.
    @Test(arguments: [
        ("names", true), ("self.items", true), ("tests.sorted()", true), ("Self.shared.all()", true), ("$0", true), ("f()", true), ("a.b()", true),
        ("names.prefix(2)", false), ("(a + b)", false), ("a..b", false), ("1.x", false), ("", false), ("a.", false),
    ])
    func aPlainPathIsNamesEachMaybeCalledWithoutArguments(text: String, plain: Bool) {
        #expect(MutationFinder.isPlainPath(text) == plain)
    }
}
