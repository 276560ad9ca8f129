import Foundation
import Testing
@testable import MutationHarness

/// The operators shaped like real bugs (issue 27): an update left out, a
/// branch removed, a fallback taken, an operand left out, and a call that
/// returns nothing removed with its `try` or `await`. Each where it fits,
/// and nowhere else.
@Suite(.ownThread)
struct ExploreOperatorTests {
    static let source = """
        var total = 0
        final class Box {
            static var made = 0
            var count: Int
            var items: [String: Int] = [:]
            init(count: Int) {
                self.count = count
                Box.made += 1
            }
            func clear() throws {}
            func wait() async {}
            func go(_ x: Double, _ flag: Bool, _ other: Int?) async throws -> Int {
                try? clear()
                try clear()
                await wait()
                count = 3
                count += 1
                items["a"] = nil
                Self.made = 2
                total -= 1
                var local = 1
                local = 2
                local += 1
                _ = local
                let y = other ?? count ?? 5
                if flag { count = 0 }
                if flag && count > 2 { count = 1 } else if count == 0 { count = 2 } else if let o = other { count = o }
                if x > 1 { count = 7 } else if x < 0 { count = 8 }
                let w = Int((x * 1000).rounded(.down)) + Int(x / 2) + local * 3
                return y + w
            }
            @discardableResult func mark() -> Int { 1 }
            func pick(_ n: Int) -> Int {
                var seen: [Int] = []
                switch n {
                case 0: mark(); seen[0] = 1
                case 1: fatalError("no")
                default: if n > 5 { seen.append(n) }
                }
                return seen.count
            }
        }

        """

    func points(_ text: String = source) throws -> [MutationPoint] {
        try withScratch { scratch in
            try scratch.write("A.swift", text)
            let trees = try ASTDump.run(swiftc: "swiftc", module: "M", packageName: "m", files: ["A.swift"], in: scratch.url,
                                        searchPaths: [], moduleMaps: [], environment: scratch.toolEnvironment())
            return MutationFinder(path: "A.swift", source: Array(text.utf8)).points(in: try #require(trees.first).root)
        }
    }

    private static let new: Set<MutationOperator> = [.droppedUpdate, .removeBranch, .nilFallback, .droppedOperand, .removeVoidCall]

    /// `(x * 2)` -> `x` takes the parentheses with it only when they hold
    /// exactly the expression and its left operand is a name: not around a
    /// larger expression, not for a call or a number, and `try` is none.
    @Test func onlyParenthesesAroundTheWholeExpressionOfANameGo() throws {
        let text = """
            func thr() throws -> Int { 2 }
            func scaled(_ x: Int, _ y: Int) -> [Int] {
                [(y + x * 2), (x * 2 + y), (abs(x) * 2), (2 * x), (x * 2)]
            }
            func tried(_ x: Int) throws -> Int { try x * thr() }

            """
        let dropped = try points(text).filter { $0.mutationOperator == .droppedOperand }.map { "\($0.original) -> \($0.replacement)" }
        #expect(dropped == ["x * 2 -> x", "x * 2 -> x", "abs(x) * 2 -> abs(x)", "2 * x -> 2", "(x * 2) -> x", "x * thr() -> x"], "\(dropped)")
    }

    /// Not an update: the whole of `self` replaced, a comparison whose
    /// result is unused, a tuple of locals. A labeled `if` stays. A `;`
    /// after a space goes with the call it ends.
    @Test func statementsTheNewOperatorsLeaveAlone() throws {
        let text = """
            func lg() {}
            enum Light {
                case on, off
                mutating func flip() { self = .off }
            }
            final class Box {
                var count = 0
                func f(_ a: Bool) {
                    count == 3
                    check: if a { lg() }
                    lg() ;
                    var x = 1, y = 2
                    (x, y) = (y, x)
                    _ = x + y
                }
            }

            """
        let found = Set(try points(text).filter { Self.new.contains($0.mutationOperator) }.map {
            "\($0.line):\($0.column) \($0.mutationOperator.rawValue) \($0.original)"
        })
        #expect(found == ["10:23 remove-void-call lg()", "11:9 remove-void-call lg() ;"], "\(found.sorted())")
    }

    /// No mutation takes the last use of a closure's `$0` or `$1` away:
    /// `forEach { }` and `{ $0 }` for two arguments do not compile as a
    /// patch, though the schema's switch would. A use left elsewhere in the
    /// closure, or in the text kept, is enough; a nested closure's `$0` is
    /// its own.
    @Test func noMutationTakesAClosuresLastUseOfAnArgument() throws {
        let text = """
            func use(_ x: Int) {}
            func f(_ a: [Int], _ b: [Int?], _ flag: Bool) -> [Int] {
                a.forEach { use($0) }
                a.forEach { use($0); use($0 + 1) }
                let c = b.map { $0 ?? 0 } + b.map { $0 ?? $0! }
                let d = zip(a, a).map { $0 > 0 && $1 > 0 ? $0 : $1 }
                let e = zip(a, a).map { pair in flag ? pair.0 : pair.1 } + zip(a, a).map { flag ? $0 : $1 }
                a.forEach { x in if x > 0 { use(x) } }
                a.forEach { if $0 > 0 { a.forEach { use($0) } } }
                if a.map(\\.bitWidth).isEmpty { use(0) }
                let k = 2
                let g = zip(a, a).map { $0 > 0 && $1 > 0 } + a.map { (k * $0) > 1 }
                a.forEach { if flag { use(1) } else if $0 > 0 { use(2) } }
                a.forEach { x in if a.map(\\.bitWidth).isEmpty { use(x) } }
                _ = g
                return c + d + e
            }

            """
        let kinds: Set<MutationOperator> = [.removeVoidCall, .nilFallback, .droppedOperand, .ternarySide, .removeCondition, .removeBranch]
        let found = Set(try points(text).filter { kinds.contains($0.mutationOperator) }.map {
            "\($0.line):\($0.column) \($0.mutationOperator.rawValue) \($0.original.oneLine) -> \($0.replacement)"
        })
        let expected: Set<String> = [
            // A whole statement goes with its closure, uses and all.
            "3:5 remove-void-call a.forEach { use($0) } -> ", "4:5 remove-void-call a.forEach { use($0); use($0 + 1) } -> ",
            "8:5 remove-void-call a.forEach { x in if x > 0 { use(x) } } -> ", "9:5 remove-void-call a.forEach { if $0 > 0 { a.forEach { use($0) } } } -> ",
            // Two uses: either call may go; one use (line 3): it stays.
            "4:17 remove-void-call use($0); -> ", "4:26 remove-void-call use($0 + 1) -> ",
            // A fallback that drops the only `$0` (line 5's first), not one that keeps another.
            "5:41 nil-fallback $0 ?? $0! -> $0!",
            // Each argument is used again in the ternary: both operands of `&&` and both sides may go.
            "6:29 dropped-operand $0 > 0 && $1 > 0 -> $0 > 0", "6:29 dropped-operand $0 > 0 && $1 > 0 -> $1 > 0",
            "6:48 ternary-side $0 -> $1", "6:53 ternary-side $1 -> $0",
            // Named arguments may lose their uses; a ternary between `$0` and `$1` may not.
            "7:44 ternary-side pair.0 -> pair.1", "7:53 ternary-side pair.1 -> pair.0",
            "8:22 remove-branch if x > 0 { use(x) } -> ", "8:25 remove-condition x > 0 -> true", "8:33 remove-void-call use(x) -> ",
            // A nested closure's `$0` is its own: the inner `forEach` may go, its `use($0)` may not, nor the outer `if`.
            "9:29 remove-void-call a.forEach { use($0) } -> ",
            // A key path used as a function is no closure of the source's.
            "10:5 remove-branch if a.map(\\.bitWidth).isEmpty { use(0) } -> ", "10:8 remove-condition a.map(\\.bitWidth).isEmpty -> true",
            "10:36 remove-void-call use(0) -> ",
            // Line 12: neither operand of `&&` goes, nor `k` for `(k * $0)`: each takes an argument's only use.
            // An `else if` that holds the only `$0` stays, and so does its condition.
            "13:5 remove-void-call a.forEach { if flag { use(1) } else if $0 > 0 { use(2) } } -> ", "13:20 remove-condition flag -> true",
            "13:27 remove-void-call use(1) -> ", "13:53 remove-void-call use(2) -> ",
            // In a closure too: a key path's own `$0` (and the compiler's other `$` names) are no use of the closure's argument.
            "14:5 remove-void-call a.forEach { x in if a.map(\\.bitWidth).isEmpty { use(x) } } -> ",
            "14:22 remove-branch if a.map(\\.bitWidth).isEmpty { use(x) } -> ", "14:25 remove-condition a.map(\\.bitWidth).isEmpty -> true",
            "14:53 remove-void-call use(x) -> ",
        ]
        #expect(found.subtracting(expected).isEmpty, "unexpected: \(found.subtracting(expected).sorted())")
        #expect(expected.subtracting(found).isEmpty, "missing: \(expected.subtracting(found).sorted())")
    }

    /// An `else if`'s switch is an empty range right after its `if` (the
    /// schema writes ` !on,` there).
    @Test func anElseIfSwitchIsAnEmptyRangeRightAfterItsIf() throws {
        let bytes = Array(Self.source.utf8)
        let sites = try points().filter { $0.mutationOperator == .removeBranch }.compactMap(\.switchSite)
        #expect(sites.count == 3)
        for site in sites {
            #expect(site.end == site.start && String(decoding: bytes[(site.start - 2)..<site.start], as: UTF8.self) == "if", "\(site)")
        }
    }

    @Test func eachNewOperatorAtItsPlaceAndNothingElse() throws {
        let found = Set(try points().filter { Self.new.contains($0.mutationOperator) }.map {
            "\($0.line):\($0.column) \($0.mutationOperator.rawValue) \($0.original.oneLine) -> \($0.replacement)"
        })
        let expected: Set<String> = [
            // A call that returns nothing, with its `try?`, `try` or `await`.
            "13:9 remove-void-call try? clear() -> ", "14:9 remove-void-call try clear() -> ", "15:9 remove-void-call await wait() -> ",
            // Properties, a subscript of one, a static one and a global; not in the initializer.
            "16:9 dropped-update count = 3 -> ", "17:9 dropped-update count += 1 -> ", "18:9 dropped-update items[\"a\"] = nil -> ",
            "19:9 dropped-update Self.made = 2 -> ", "20:9 dropped-update total -= 1 -> ", "26:19 dropped-update count = 0 -> ",
            "27:32 dropped-update count = 1 -> ", "27:65 dropped-update count = 2 -> ", "27:101 dropped-update count = o -> ",
            "28:20 dropped-update count = 7 -> ", "28:48 dropped-update count = 8 -> ",
            // An element of a local collection; not the local itself (`local = 2`, `local += 1`).
            "36:25 dropped-update seen[0] = 1 -> ",
            // In a `case` body too: a call with a discardable result, and not one that never returns.
            "36:17 remove-void-call mark(); -> ", "38:29 remove-void-call seen.append(n) -> ", "38:18 remove-branch if n > 5 { seen.append(n) } -> ",
            // The fallback taken, for each `??` of a chain.
            "25:17 nil-fallback other ?? count ?? 5 -> count ?? 5", "25:26 nil-fallback count ?? 5 -> 5",
            // An `if` without `else`, and each `else if` branch; not an `if` with an `else`.
            "26:9 remove-branch if flag { count = 0 } -> ",
            "27:49 remove-branch if count == 0 { count = 2 } else -> ", "27:76 remove-branch else if let o = other { count = o } -> ",
            "28:31 remove-branch else if x < 0 { count = 8 } -> ",
            // Each side of `&&`; the left of `*` and `/`, without the parentheses around a name.
            "27:12 dropped-operand flag && count > 2 -> flag", "27:12 dropped-operand flag && count > 2 -> count > 2",
            "29:21 dropped-operand (x * 1000) -> x", "29:54 dropped-operand x / 2 -> x", "29:63 dropped-operand local * 3 -> local",
        ]
        #expect(found.subtracting(expected).isEmpty, "unexpected: \(found.subtracting(expected).sorted())")
        #expect(expected.subtracting(found).isEmpty, "missing: \(expected.subtracting(found).sorted())")
    }

    /// The patch of each: the line as the bug would have written it.
    @Test func eachPatchReadsAsTheBug() throws {
        let bytes = Array(Self.source.utf8)
        let lines = Self.source.split(separator: "\n", omittingEmptySubsequences: false)
        let mutated = try points().filter { Self.new.contains($0.mutationOperator) && [25, 27, 29].contains($0.line) }.map { point in
            let text = String(decoding: GeneratedMutant.mutatedSource(for: point, source: bytes), as: UTF8.self)
            return text.split(separator: "\n", omittingEmptySubsequences: false)[point.line - 1].trimmingCharacters(in: .whitespaces)
        }
        #expect(Set(mutated) == [
            "let y = count ?? 5", "let y = other ?? 5",
            "if flag && count > 2 {  } else if count == 0 { count = 2 } else if let o = other { count = o }",
            "if flag && count > 2 { count = 1 } else if count == 0 {  } else if let o = other { count = o }",
            "if flag && count > 2 { count = 1 } else if count == 0 { count = 2 } else if let o = other {  }",
            "if flag && count > 2 { count = 1 } else if let o = other { count = o }",
            "if flag && count > 2 { count = 1 } else if count == 0 { count = 2 }",
            "if flag { count = 1 } else if count == 0 { count = 2 } else if let o = other { count = o }",
            "if count > 2 { count = 1 } else if count == 0 { count = 2 } else if let o = other { count = o }",
            "let w = Int(x.rounded(.down)) + Int(x / 2) + local * 3", "let w = Int((x * 1000).rounded(.down)) + Int(x) + local * 3",
            "let w = Int((x * 1000).rounded(.down)) + Int(x / 2) + local",
        ] as Set<String>, "\(mutated)")
        #expect(lines.count > 29)
    }
}

extension ExploreOperatorTests {
    /// A node the compiler's tree holds twice (a stored property's or a
    /// global's initialiser, printed as written and as checked) gives one
    /// mutant: each edit once, each id once.
    @Test func aNodeTheTreeHoldsTwiceGivesOneMutant() throws {
        let text = """
            let limit = 2 + 3
            struct S {
                var flag = false
                var ok = true && limit > 4
                lazy var sum: Int = limit * 2
            }

            """
        let found = try points(text)
        let edits = found.map { "\($0.start)|\($0.end)|\($0.replacement)" }
        #expect(Set(edits).count == edits.count, "\(found.map(\.summary))")
        #expect(Set(found.map(\.id)).count == found.count)
        #expect(found.filter { $0.mutationOperator == .logical }.count == 1, "\(found.map(\.summary))")
        #expect(found.filter { $0.original == "+" }.count == 1, "\(found.map(\.summary))")
    }
}
