import Foundation

/// The `{ ... }` of a function, initializer, deinitializer or accessor, as
/// the compiler's parser sees it.
struct FunctionBody: Equatable, Sendable {
    /// Byte offset of the opening `{`.
    var start: Int
    /// Byte offset of the closing `}`.
    var end: Int
    /// A function with a result type, or a getter: a body that is one
    /// expression returns it, so once behind a switch its `return` is spelled.
    var returnsValue: Bool
    /// Where the body's only element starts when that element is an
    /// expression (an implicit return, or a lone call); nil otherwise.
    var expressionStart: Int?
}

/// The adapter to the compiler's parse of a file, without type-checking
/// (`swiftc -dump-parse -dump-ast-format json`): the outermost function
/// bodies of each file, for `PatchSchema`. A parse needs no built module and
/// takes a fraction of a second.
enum FunctionBodies {
    /// Accessors whose body is plain code (read and modify coroutines and
    /// the like are left out: a change there runs as a patch).
    static let plainAccessors: Set<String> = ["get", "set", "didSet", "willSet"]

    /// Parses `files` (paths relative to `directory`); the outermost bodies
    /// by path as given. A file with a syntax error is left out of the
    /// result. The compiler stops printing trees at such a file, so the
    /// files after it are parsed again, in as few runs as there are broken
    /// files. A first run that prints no tree at all (no compiler) throws.
    ///
    /// The compiler refuses two files of one name in a run, and allows
    /// top-level code only in a file named `main.swift` (an executable's),
    /// so such copies keep their name in folders of their own: files whose
    /// names repeat are parsed in runs of their own, one of each name a run.
    static func parse(swiftc: String, files: [String], in directory: URL, environment: [String: String]? = nil) throws -> [String: [FunctionBody]] {
        var bodies: [String: [FunctionBody]] = [:]
        var runs: [[String]] = []
        for file in files {
            let name = (file as NSString).lastPathComponent
            if let free = runs.firstIndex(where: { !$0.contains { ($0 as NSString).lastPathComponent == name } }) {
                runs[free].append(file)
            } else {
                runs.append([file])
            }
        }
        for (index, run) in runs.enumerated() {
            // A file is in one run only: no path is found twice.
            bodies.merge(try parse(swiftc: swiftc, run: run, in: directory, environment: environment, first: index == 0)) { kept, _ in kept }
        }
        return bodies
    }

    /// One run's files, of distinct names.
    private static func parse(swiftc: String, run files: [String], in directory: URL, environment: [String: String]?, first: Bool)
        throws -> [String: [FunctionBody]]
    {
        var bodies: [String: [FunctionBody]] = [:]
        var remaining = files
        var first = first
        while !remaining.isEmpty {
            let result = try CapturedCommand.run([swiftc, "-dump-parse", "-dump-ast-format", "json"] + remaining, in: directory, environment: environment)
            // One file's tree goes to standard output, several to standard error.
            let trees = try ASTDump.parse(result.output + result.errors)
            let said = String(decoding: result.errors, as: UTF8.self)
            let broken = Self.broken(remaining, in: said)
            if first, trees.isEmpty, broken.isEmpty {
                throw ASTDumpError(reason: "`\(swiftc) -dump-parse` printed no syntax tree (exit \(result.status)): \(result.errorText.prefix(500))")
            }
            first = false
            for tree in trees where !broken.contains(tree.path) {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(tree.path).path) else { continue }
                bodies[tree.path] = outermost(in: tree.root, source: [UInt8](data))
            }
            let done = broken.union(trees.map(\.path))
            guard remaining.contains(where: done.contains) else { break }
            remaining.removeAll(where: done.contains)
        }
        return bodies
    }

    /// The files of `files` the compiler's output reports an error in:
    /// `FILE:LINE:COLUMN: error:` (or `FILE:LINE: error:`), at a line's start
    /// or right after a tree's closing brace or a blank (where the compiler
    /// prints it). The output holds the trees of every file, megabytes: it
    /// is read once, and only its errors are compared with each file's name.
    static func broken(_ files: [String], in output: String) -> Set<String> {
        let bytes = Array(output.utf8), error = Array(": error:".utf8)
        let before: Set<UInt8> = [UInt8(ascii: "\n"), UInt8(ascii: "}"), UInt8(ascii: " ")]
        // Where a `FILE:` before an error can end: where the digits before
        // it start (`LINE`), or the digits before those (`LINE:COLUMN`).
        // Only a pre-filter: each is checked in full below.
        var nameEnds: [Int] = []
        for index in bytes.indices where bytes.has(error, at: index) {
            let last = bytes.digitsBefore(index)
            nameEnds += [last, bytes.digitsBefore(last - 1)]
        }
        return Set(files.filter { file in
            let name = Array((file + ":").utf8)
            return nameEnds.contains { end in
                let index = end - name.count
                guard bytes.has(name, at: index), index == 0 || before.contains(bytes[index - 1]) else { return false }
                var at = bytes.digits(from: end)
                guard at > end else { return false }
                let column = bytes.digits(from: at + 1)
                if bytes.has([UInt8(ascii: ":")], at: at), column > at + 1 { at = column }
                return bytes.has(error, at: at)
            }
        })
    }

    /// Every function body in `tree` (parsed from `source`) that no other
    /// lies within, in order.
    static func outermost(in tree: [String: Any], source: [UInt8]) -> [FunctionBody] {
        var all: [FunctionBody] = []
        collect(tree, into: &all)
        // The parse gives expressions no range: a lone expression starts at
        // the body's first code after its `{`.
        for index in all.indices where all[index].expressionStart != nil {
            all[index].expressionStart = firstCode(after: all[index].start, in: source)
        }
        var result: [FunctionBody] = []
        for body in all.sorted(by: { ($0.start, -$0.end) < ($1.start, -$1.end) }) {
            if let last = result.last, body.start <= last.end { continue }
            result.append(body)
        }
        return result
    }

    private static func collect(_ node: Any, into bodies: inout [FunctionBody]) {
        if let list = node as? [Any] {
            for item in list { collect(item, into: &bodies) }
            return
        }
        guard let object = node as? [String: Any] else { return }
        if let body = body(of: object) { bodies.append(body) }
        for (key, value) in object where key != "range" { collect(value, into: &bodies) }
    }

    /// The body of a declaration node, if it is one this file knows.
    private static func body(of node: [String: Any]) -> FunctionBody? {
        guard let kind = node["_kind"] as? String, let body = node["body"] as? [String: Any],
              body["_kind"] as? String == "brace_stmt",
              let range = body["range"] as? [String: Any], let start = range["start"] as? Int, let end = range["end"] as? Int
        else { return nil }
        let returnsValue: Bool
        switch kind {
        case "func_decl":
            returnsValue = node["result"] != nil
        case "constructor_decl", "destructor_decl":
            returnsValue = false
        case "accessor_decl":
            guard let accessor = plainAccessors.first(where: { node[$0] as? Bool == true }) else { return nil }
            returnsValue = accessor == "get"
        default:
            return nil
        }
        // Where the lone expression starts is found in the text (`outermost`).
        var expressionStart: Int?
        if let elements = body["elements"] as? [[String: Any]], elements.count == 1,
           let elementKind = elements[0]["_kind"] as? String, elementKind.hasSuffix("_expr")
        {
            expressionStart = start
        }
        return FunctionBody(start: start, end: end, returnsValue: returnsValue, expressionStart: expressionStart)
    }

    /// The offset of the first byte after `index` that is neither blank nor
    /// in a comment (`//` to the line's end, `/* */` nested); the end of
    /// `source` when there is none.
    static func firstCode(after index: Int, in source: [UInt8]) -> Int {
        let blanks: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
        let lineComment = Array("//".utf8), opening = Array("/*".utf8), closing = Array("*/".utf8)
        var at = index + 1
        while at < source.count {
            if blanks.contains(source[at]) {
                at += 1
            } else if source.has(lineComment, at: at) {
                at = source[at...].firstIndex(of: UInt8(ascii: "\n")) ?? source.count
            } else if source.has(opening, at: at) {
                var depth = 0
                repeat {
                    if source.has(opening, at: at) { depth += 1; at += 2 }
                    else if source.has(closing, at: at) { depth -= 1; at += 2 }
                    else { at += 1 }
                } while depth > 0 && at < source.count
            } else {
                return at
            }
        }
        return source.count
    }
}
