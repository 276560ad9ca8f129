import Testing
@testable import MutationHarness

/// The lexer behind `--incremental`'s keys, line by line: what it keeps of
/// each literal, what it takes out as a comment, which lines it marks as
/// inside a literal, and which files it gives up on (their keys then hold
/// the file's bytes). A wrong line here makes a reworded comment re-run
/// mutants, or a changed literal keep a stale verdict.
struct SwiftSourceLinesTests {
    private static func lines(_ text: String) -> [String]? {
        SwiftSourceLines.lines(Array(text.utf8))?.map { String(decoding: $0.text, as: UTF8.self) }
    }

    @Test(arguments: [
        // Block comments: nested, empty, holding a lone `/` or `*`, across lines.
        ("a /**/ b", ["a b"]),
        ("/* a/b */ x", [" x"]),
        ("/* /**/ */ y", [" y"]),
        ("/* a * b */ c", [" c"]),
        ("/*\n*/ x", ["", " x"]),
        // A string that ends the file, an empty raw string, an escaped quote in a raw string.
        ("let s = \"a\"", ["let s = \"a\""]),
        (##"let e = #""# // c"##, [##"let e = #""#"##]),
        (##"let s = #"a\#"#"# // c"##, [##"let s = #"a\#"#"#"##]),
        // Interpolations are code: their comments go, even right after `\(`.
        (##"let r = #"a \#(f(x) /* c */) b"#"##, [##"let r = #"a \#(f(x)) b"#"##]),
        (#"let s = "\(/* c */x)""#, [#"let s = "\(x)""#]),
        // A raw multi-line literal's line continuation (`\#` at a line's end) keeps the break.
        ("let s = #\"\"\"\na \\#\nb\n\"\"\"#", ["let s = #\"\"\"", "a \\#", "b", "\"\"\"#"]),
        // Regex literals end at their own `/#` only: a `/` or a `#` alone, or an escaped `/`, does not end them.
        ("let r = #/a#/#", ["let r = #/a#/#"]),
        ("let r = #/a# //b/#", ["let r = #/a# //b/#"]),
        (#"let r = #/\./# // c"#, [#"let r = #/\./#"#]),
        ("let r = #/a/ //b/#", ["let r = #/a/ //b/#"]),
        (#"let r = #/a\/# //c/#"#, [#"let r = #/a\/# //c/#"#]),
        ("let r = #/#a//b/# // c", ["let r = #/#a//b/#"]),
        ("let r = #/a/#// c", ["let r = #/a/#"]),
        ("let r = #/\n a\\\n b\n/#", ["let r = #/", " a\\", " b", "/#"]),
        ("let r = #/\n\tab\n/# // c", ["let r = #/", "\tab", "/#"]),
    ])
    func eachLiteralKeepsItsTextAndEachCommentGoes(source: String, expected: [String]) {
        #expect(Self.lines(source) == expected, "\(source)")
    }

    /// A line break inside a single-line string cannot be followed: the file
    /// is digested whole, even when a later quote would close the string.
    @Test func aLineBreakInASingleLineStringGivesNothing() {
        #expect(Self.lines("let s = \"a\nb\"") == nil)
        #expect(Self.lines("let s = #\"a\nb\"#") == nil)
    }

    /// Which lines start inside a literal (their blank lines are content):
    /// not the first, not a comment's, a regex literal's and a multi-line
    /// string's interpolation's are.
    @Test func theLinesInsideALiteralAreMarked() throws {
        func marks(_ text: String) throws -> [Bool] { try #require(SwiftSourceLines.lines(Array(text.utf8))).map(\.insideLiteral) }
        #expect(try marks("\nlet a = 1") == [false, false])
        #expect(try marks("/* a\n b */ x") == [false, false])
        #expect(try marks("let r = #/\na\n/#\nx") == [false, true, true, false])
        #expect(try marks("let s = \"\"\"\n\\(f(\n1))\n\"\"\"\nx") == [false, true, true, true, false])
    }

    /// A blank line is spaces, tabs and a carriage return at most, and
    /// never a line inside a literal; the text digest leaves blank lines out
    /// but keeps where each line ends.
    @Test func blankLinesAndTheTextDigest() {
        func line(_ text: String, inside: Bool = false) -> SwiftSourceLines.Line { .init(text: Array(text.utf8), insideLiteral: inside) }
        #expect(line("").isBlank && line(" ").isBlank && line("\t").isBlank && line("\r").isBlank && line(" \t\r").isBlank)
        #expect(!line("x").isBlank && !line(" x ").isBlank && !line("", inside: true).isBlank)
        #expect(SwiftSourceLines.textDigest([line("ab"), line("c")]) != SwiftSourceLines.textDigest([line("a"), line("bc")]))
        #expect(SwiftSourceLines.textDigest([line("a"), line(" \t"), line("b")]) == SwiftSourceLines.textDigest([line("a"), line("b")]))
    }
}
