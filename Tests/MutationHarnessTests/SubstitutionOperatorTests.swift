import Foundation
import Testing
@testable import MutationHarness

/// The operators that put another value of the same type in place of one
/// (issue 27): a ternary that takes one side whatever its condition, and a
/// call replaced by its receiver. Each only where the copy means what it
/// meant, and never on wording.
@Suite(.ownThread)
struct SubstitutionOperatorTests {
    static let source = """
        enum Light { case on, off }
        struct Box {
            var names: [String] = []
            var light: Light? = nil
            init() {}
            init(size: Int) { self.init() }
            func check(_ s: String) throws -> String { s }
            @discardableResult func tidy() -> Box { self }
            mutating func f(_ flag: Bool, _ n: Int, _ other: Int?) throws -> Int {
                let a = flag ? names.sorted() : names
                let b = flag ? n : 3
                let c = flag ? other : nil
                let e: Int? = flag ? n : other
                let g: Light? = flag ? light : .off
                let h = flag ? "on" : "off"
                let i = flag ? ("a", n) : ("b", n)
                let j = flag ? ("a", "\\(n)") : ("b", "")
                names = names.map { $0.lowercased() }
                names.sort()
                self.tidy()
                let k = self.tidy()
                let l = names.filter { !$0.isEmpty }.count
                let m = try names.map { try check($0) }
                let o = (names + ["x"]).sorted()
                let p = names.first?.uppercased()
                let q = flag ? Double(n) : 1 / 4
                let r = names.reduce("") { $0.with($1) }
                let t = [n, n].reduce(0) { flag ? $0 : $1 }
                let u = names.sorted { flag ? $0 < $1 : $1 < $0 }
                let v = names.count > 1 ? names[1] : "\\(n)"
                let w = names.map { $0.with("\\(n)") }
                let x = flag ? Light.on : .off
                let y: () -> Int = flag ? { n } : { 0 }
                let z = flag ? names.filter { $0.count > 1 } : names
                _ = (a, b, c, e, g, h, i, j, k, l, m, o, p, q, r, t, u, v, w, x, y, z)
                return flag ? n : n
            }
        }
        extension String { func with(_ tail: String) -> String { self + tail } }
        class Base { func adjusted() -> Base { self } }
        final class Derived: Base {
            override func adjusted() -> Base { super.adjusted() }
        }

        """

    private func found() throws -> Set<String> {
        Set(try ExploreOperatorTests().points(Self.source).filter { [.ternarySide, .identity].contains($0.mutationOperator) }.map {
            "\($0.line):\($0.column) \($0.mutationOperator.rawValue) \($0.original) -> \($0.replacement)"
        })
    }

    @Test func eachAtItsPlaceAndNothingElse() throws {
        let found = try found()
        let expected: Set<String> = [
            // Both sides of a ternary; the one the other side also makes is made once.
            "10:24 identity names.sorted() -> names", "10:41 ternary-side names -> names.sorted()",
            // Not a side that takes its type from the context (`nil`, `.member`, a number of another type than its
            // default) or is converted to the ternary's type; an `Int` literal is an `Int` wherever it goes.
            "11:24 ternary-side n -> 3", "11:28 ternary-side 3 -> n", "12:32 ternary-side nil -> other", "13:30 ternary-side n -> other", "14:40 ternary-side .off -> light",
            // Not a choice between texts, but a tuple of text and a value is a value.
            "16:24 ternary-side (\"a\", n) -> (\"b\", n)", "16:35 ternary-side (\"b\", n) -> (\"a\", n)",
            // A call whose result has its receiver's type and is used: with `try`, on a property, on `$0`, on `self`;
            // not `self.init()`, a call that is a statement, a receiver that is not a path of names, an optional chain.
            "18:17 identity names.map { $0.lowercased() } -> names", "18:29 identity $0.lowercased() -> $0", "21:17 identity self.tidy() -> self",
            "22:17 identity names.filter { !$0.isEmpty } -> names", "23:21 identity names.map { try check($0) } -> names",
            // Not a side with a literal the context types (`1 / 4` alone is an Int), nor one that leaves a closure's `$1`
            // unused (nor a receiver that does: `$0.appending($1)`), but one whose closure keeps every argument used;
            // a call on `super` is left alone.
            "26:36 ternary-side 1 / 4 -> Double(n)", "29:17 identity names.sorted { flag ? $0 < $1 : $1 < $0 } -> names",
            "29:39 ternary-side $0 < $1 -> $1 < $0", "29:49 ternary-side $1 < $0 -> $0 < $1",
            // A literal of its default type (the index 1) copies as it is; a string's interpolation is no closure argument.
            "30:35 ternary-side names[1] -> \"\\(n)\"", "30:46 ternary-side \"\\(n)\" -> names[1]",
            "31:17 identity names.map { $0.with(\"\\(n)\") } -> names", "31:29 identity $0.with(\"\\(n)\") -> $0",
            // `.off` alone names no type; a closure is no side to copy, but a closure inside a side is its own.
            "32:35 ternary-side .off -> Light.on",
            "34:24 identity names.filter { $0.count > 1 } -> names", "34:56 ternary-side names -> names.filter { $0.count > 1 }",
        ]
        #expect(found.subtracting(expected).isEmpty, "unexpected: \(found.subtracting(expected).sorted())")
        #expect(expected.subtracting(found).isEmpty, "missing: \(expected.subtracting(found).sorted())")
    }

    /// The patch of each: the line as the bug would have written it.
    @Test func eachPatchReadsAsTheBug() throws {
        let bytes = Array(Self.source.utf8)
        let lines = try ExploreOperatorTests().points(Self.source).filter { [10, 16, 23].contains($0.line) && [.ternarySide, .identity].contains($0.mutationOperator) }
            .map { point in
                let text = String(decoding: GeneratedMutant.mutatedSource(for: point, source: bytes), as: UTF8.self)
                return text.split(separator: "\n", omittingEmptySubsequences: false)[point.line - 1].trimmingCharacters(in: .whitespaces)
            }
        #expect(Set(lines) == [
            "let a = flag ? names : names", "let a = flag ? names.sorted() : names.sorted()",
            "let i = flag ? (\"b\", n) : (\"b\", n)", "let i = flag ? (\"a\", n) : (\"a\", n)", "let m = try names",
        ] as Set<String>, "\(lines)")
        #expect(lines.count == 5)
    }

    /// The rules' edges: a text in parentheses is still text; a text against
    /// a value is no choice between texts, whichever side the text is on; a
    /// call used in a tuple is replaced by its receiver, a call that is a
    /// statement is not, under `try` too; a call of a call's result has no
    /// receiver; a tuple that holds a value is no text, `()` included.
    @Test func aParenthesizedTextATextAgainstAValueATupleATriedStatementAndACallOfACall() throws {
        let text = """
            func adder(_ n: Int) -> (Int) -> Int { { $0 + n } }
            struct Box {
                var names: [String] = []
                @discardableResult func tidied() throws -> Box { self }
                func f(_ flag: Bool, _ n: Int) throws -> Int {
                    try self.tidied()
                    let a = (names.sorted(), n)
                    let b = flag ? ("on") : "off"
                    let c = flag ? "none" : names[0]
                    let d = adder(n)(n)
                    let e = flag ? ("a", ()) : ("b", ())
                    _ = (a, b, c, e)
                    return d
                }
            }

            """
        let found = Set(try ExploreOperatorTests().points(text).filter { [.ternarySide, .identity].contains($0.mutationOperator) }.map {
            "\($0.line):\($0.column) \($0.mutationOperator.rawValue) \($0.original) -> \($0.replacement)"
        })
        #expect(found == [
            "7:18 identity names.sorted() -> names",
            "9:24 ternary-side \"none\" -> names[0]", "9:33 ternary-side names[0] -> \"none\"",
            "11:24 ternary-side (\"a\", ()) -> (\"b\", ())", "11:36 ternary-side (\"b\", ()) -> (\"a\", ())",
        ], "\(found.sorted())")
    }
}
