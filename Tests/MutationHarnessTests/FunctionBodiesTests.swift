import Foundation
import Testing
@testable import MutationHarness

/// The byte scanners behind the patch schema's bodies: where a lone
/// expression starts after comments, which compiler errors name a file,
/// which bodies are outermost, and a compiler that prints less than asked.
struct FunctionBodiesTests {
    private func firstCode(_ text: String) -> Int {
        FunctionBodies.firstCode(after: 0, in: Array(text.utf8))
    }

    /// A body's lone expression starts after blanks and comments, nested
    /// block comments included; text that ends inside a comment, or on a
    /// lone `/` or `*`, is read to its end and never past it.
    @Test(arguments: [
        ("{ \t\r\n x }", 6),
        ("{// a\n x }", 7),
        ("{/* a */x }", 8),
        ("{/* a /* b */ c */x }", 18),
        ("{/**/x }", 5),
        ("{/* a *//x }", 8),
        ("{ /x }", 2),
        ("{ *x }", 2),
        ("{ x }", 2),
        ("{", 1),
        ("{ ", 2),
        ("{ /", 2),
        ("{ // a", 6),
        ("{ /* a", 6),
        ("{ /* a *", 8),
        ("{ /* a /", 8),
        ("{ /* a /* b */", 14),
        ("{ /* a */", 9),
    ])
    func theFirstCodeIsAfterBlanksAndComments(text: String, expected: Int) {
        #expect(firstCode(text) == expected, "\(text)")
    }

    /// The compiler's error line names the file at a line's start, after a
    /// tree's `}` or after a blank; a warning, another file whose name ends
    /// the same, or a line without its number is not an error in the file.
    @Test(arguments: [
        ("A.swift:3:5: error: x", true),
        ("A.swift:12:345: error: x", true),
        ("A.swift:3: error: x", true),
        ("tree\nA.swift:3:5: error: x", true),
        ("{}A.swift:3:5: error: x", true),
        ("in A.swift:3:5: error: x", true),
        ("A.swift:3:5: warning: x", false),
        ("A.swift:3:5: note: x\nA.swift:4:1: warning: y", false),
        ("B.swift:3:5: error: x", false),
        ("XA.swift:3:5: error: x", false),
        ("/p/A.swift:3:5: error: x", false),
        ("A.swift:x:5: error: x", false),
        ("A.swift:: error: x", false),
        ("A.swift: error: x", false),
        ("A.swift:3:5", false),
        ("A.swift:3x5: error: x", false),
        ("A.swift:3:5: err", false),
        ("A.swift:", false),
        ("A.swift:3:5: warning: x\nA.swift:7:1: error: y", true),
    ])
    func anErrorIsFoundOnlyWhereTheCompilerPrintsOne(output: String, expected: Bool) {
        #expect(FunctionBodies.broken(["A.swift"], in: output) == (expected ? ["A.swift"] : []), "\(output)")
    }

    /// The byte matcher the scanners share: a pattern at an offset, never
    /// read before the start or past the end; a run of digits.
    @Test func bytesMatchOnlyInsideTheText() {
        let text = Array("ab12c".utf8)
        #expect(text.has(Array("ab".utf8), at: 0) && text.has(Array("c".utf8), at: 4) && text.has([], at: 5))
        #expect(!text.has(Array("ab".utf8), at: 1) && !text.has(Array("cd".utf8), at: 4) && !text.has(Array("c".utf8), at: 5))
        #expect(!text.has(Array("a".utf8), at: -1) && !text.has([], at: -1))
        #expect(text.digits(from: 2) == 4 && text.digits(from: 0) == 0 && text.digits(from: 5) == 5)
        #expect(text.digitsBefore(4) == 2 && text.digitsBefore(2) == 2 && text.digitsBefore(5) == 5 && text.digitsBefore(0) == 0)
        let digits = Array("12".utf8)
        #expect(digits.digitsBefore(2) == 0 && digits.digitsBefore(1) == 0 && digits.digitsBefore(9) == 9 && digits.digitsBefore(-1) == -1)
    }

    /// The files of a run are judged in one read of the output: of several,
    /// the ones its errors name (after trees, digits, warnings and other
    /// files' errors), and no other.
    @Test func theBrokenFilesAreTheOnesTheErrorsName() {
        let tree = #"{"_kind":"source_file","items":[1, 22, 333]}"#
        let output = tree + "A.swift:3:5: error: x\n" + tree + "B2.swift:12: error: y\nC.swift:1:1: warning: z\n12: error: w\n"
            + ":3: error: v\nSub/D.swift:4:4: error: u"
        let files = ["A.swift", "B2.swift", "C.swift", "D.swift", "Sub/D.swift", "E.swift"]
        #expect(FunctionBodies.broken(files, in: output) == ["A.swift", "B2.swift", "Sub/D.swift"])
        #expect(FunctionBodies.broken(files, in: tree).isEmpty && FunctionBodies.broken([], in: output).isEmpty)
    }

    /// Which declarations have a body the schema may swap, whether it
    /// returns a value, and where its lone expression starts: read from the
    /// parse's nodes (the shape `swiftc -dump-parse` prints).
    @Test func eachDeclarationKindGivesItsBodyOrNone() {
        // Offsets:       0         1         2         3
        //                0123456789012345678901234567890123456
        let source = Array("{ f() }{ return 1 }{ 2 }{ }{ x }{ y }".utf8)
        func body(_ start: Int, _ end: Int, _ elements: [String], kind: String = "brace_stmt") -> [String: Any] {
            ["_kind": kind, "range": ["start": start, "end": end], "elements": elements.map { ["_kind": $0] }]
        }
        let tree: [String: Any] = ["_kind": "source_file", "items": [
            ["_kind": "func_decl", "body": body(0, 6, ["call_expr"])],
            ["_kind": "func_decl", "result": ["_kind": "type"], "body": body(7, 18, ["return_stmt"])],
            ["_kind": "accessor_decl", "get": true, "body": body(19, 23, ["integer_literal_expr"])],
            ["_kind": "constructor_decl", "body": body(24, 26, [])],
            ["_kind": "accessor_decl", "_read": true, "body": body(27, 31, ["declref_expr"])],
            ["_kind": "closure_expr", "body": body(32, 36, ["declref_expr"])],
            ["_kind": "func_decl", "body": body(32, 36, ["declref_expr"], kind: "other_stmt")],
        ]]
        let found = FunctionBodies.outermost(in: tree, source: source)
        #expect(found == [
            FunctionBody(start: 0, end: 6, returnsValue: false, expressionStart: 2),
            FunctionBody(start: 7, end: 18, returnsValue: true, expressionStart: nil),
            FunctionBody(start: 19, end: 23, returnsValue: true, expressionStart: 21),
            FunctionBody(start: 24, end: 26, returnsValue: false, expressionStart: nil),
        ])
    }

    /// A body inside another (a local function) is not outermost, and of
    /// two bodies that start together the longer one is kept.
    @Test func onlyTheOutermostBodiesAreKept() {
        let source = Array(String(repeating: " ", count: 40).utf8)
        func function(_ start: Int, _ end: Int) -> [String: Any] {
            ["_kind": "func_decl", "body": ["_kind": "brace_stmt", "range": ["start": start, "end": end]]]
        }
        let tree: [String: Any] = ["items": [function(10, 20), function(0, 30), function(0, 5), function(31, 39), function(35, 36)]]
        #expect(FunctionBodies.outermost(in: tree, source: source).map { [$0.start, $0.end] } == [[0, 30], [31, 39]])
    }

    /// A compiler that prints a tree for some files and nothing for another
    /// (no tree, no error) parses what it printed and leaves the other out,
    /// instead of failing the run or asking forever; one that prints no tree
    /// at first is refused, unless it named a broken file.
    @Test func aCompilerThatPrintsLessThanAskedLeavesFilesOut() throws {
        try withScratch { scratch in
            try scratch.write("parse/A.swift", "func a() -> Int { 1 }\n")
            try scratch.write("parse/B.swift", "func b() -> Int { 2 }\n")
            try scratch.write("parse/Broken.swift", "func f(\n")
            // Each run's arguments are kept; A gets a tree, B nothing, Broken an error and,
            // as from the real compiler, nothing for the files after it.
            try scratch.writeExecutable("swiftc", """
                #!/bin/sh
                echo "$*" >> "\(scratch.url.path)/runs"
                for file in "$@"; do
                    case "$file" in
                    A.swift) printf '{"_kind":"source_file","filename":"A.swift","items":[]}' >&2 ;;
                    Broken.swift) echo "Broken.swift:1:8: error: expected parameter" >&2; exit 1 ;;
                    esac
                done
                exit 1
                """)
            let swiftc = scratch.url.appendingPathComponent("swiftc").path
            let folder = scratch.url.appendingPathComponent("parse")
            let runs = scratch.url.appendingPathComponent("runs")
            #expect(try FunctionBodies.parse(swiftc: swiftc, files: ["A.swift", "B.swift"], in: folder) == ["A.swift": []])
            #expect(try String(contentsOf: runs, encoding: .utf8) == "-dump-parse -dump-ast-format json A.swift B.swift\n"
                + "-dump-parse -dump-ast-format json B.swift\n")
            try FileManager.default.removeItem(at: runs)
            #expect(try FunctionBodies.parse(swiftc: swiftc, files: ["Broken.swift", "B.swift", "A.swift"], in: folder) == ["A.swift": []])
            #expect(try String(contentsOf: runs, encoding: .utf8) == "-dump-parse -dump-ast-format json Broken.swift B.swift A.swift\n"
                + "-dump-parse -dump-ast-format json B.swift A.swift\n" + "-dump-parse -dump-ast-format json B.swift\n")
            let error = #expect(throws: ASTDumpError.self) { try FunctionBodies.parse(swiftc: swiftc, files: ["B.swift"], in: folder) }
            #expect(error?.reason.contains("printed no syntax tree (exit 1)") == true, "\(String(describing: error?.reason))")
        }
    }
}
