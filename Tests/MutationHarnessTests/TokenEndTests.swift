import Testing
@testable import MutationHarness

/// Where a token ends, for the finder's byte ranges: a node's range ends at
/// the start of its last token, and a mutation must take that token whole
/// (`x > 0.5` made `true` is not `true.5`).
struct TokenEndTests {
    @Test(arguments: [
        ("0.5 ", "0.5"), ("1_000.25)", "1_000.25"), ("1e-3,", "1e-3"), ("2E+10 ", "2E+10"), ("0x1p-4]", "0x1p-4"), ("0xe-1", "0xe"),
        ("2-1", "2"), ("1.description", "1"), ("$0.count", "$0"), ("name)", "name"),
        ("\"a\\\"b\" + c", "\"a\\\"b\""), ("\"a\\(f(\"b)\"))c\" + d", "\"a\\(f(\"b)\"))c\""), ("#\"a\"b\"# x", "#\"a\"b\"#"),
        ("##\"x\"#y\"## z", "##\"x\"#y\"##"), ("#\"a\\#(\"q\")b\"# z", "#\"a\\#(\"q\")b\"#"), ("\"\"\"\nx \" y\n\"\"\" z", "\"\"\"\nx \" y\n\"\"\""),
        ("\"open\nnext", "\"open"), ("#selector", "#"), (") + 1", ")"),
        // A name is no number (`t.0`); a number, a string or a `#` that ends the file; a string inside an interpolation,
        // raw or not, with a parenthesis or a quote in it.
        ("t.0 + 1", "t"), ("0.5", "0.5"), ("#", "#"), ("\"open", "\"open"), ("\"a\\", "\"a\\"), ("\"a\\(b", "\"a\\(b"),
        ("\"a\\(f(\"(\"))b\" + c", "\"a\\(f(\"(\"))b\""), ("\"x\\(f(#\"a\"(\"#))y\" + z", "\"x\\(f(#\"a\"(\"#))y\""),
    ])
    func aTokenEndsWhereSwiftEndsIt(text: String, token: String) {
        let finder = MutationFinder(path: "A.swift", source: Array(text.utf8))
        #expect(String(decoding: Array(text.utf8)[..<finder.tokenEnd(at: 0)], as: UTF8.self) == token)
    }

    /// A number after a `.` is a tuple index, never the start of a fraction.
    @Test func aTupleIndexIsNotAFraction() {
        let finder = MutationFinder(path: "A.swift", source: Array("t.0.1".utf8))
        #expect(finder.tokenEnd(at: 2) == 3)
    }
}
