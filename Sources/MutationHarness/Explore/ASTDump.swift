import Foundation

/// Why the compiler's syntax tree could not be read.
struct ASTDumpError: Error, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// The adapter to the compiler's own parse: `swiftc -dump-ast
/// -dump-ast-format json` type-checks a module's files and prints one JSON
/// document per file (on standard error, back to back), each node with a
/// `_kind`, a `type` and a byte `range` whose `end` is the *start* of the
/// node's last token.
///
/// The format is not promised stable across compiler versions: the compiler
/// version is read from the dump (for the report), and a document whose shape
/// is not the one known here fails with a message that says so.
enum ASTDump {
    /// One file's tree.
    struct File {
        var path: String
        var compilerVersion: String
        var root: [String: Any]
    }

    /// Finds each `{"_kind":"source_file"...}` document in `data` (other text,
    /// such as warnings, is passed over) and parses it.
    static func parse(_ data: Data) throws -> [File] {
        var files: [File] = []
        for chunk in documents(in: data) {
            guard let object = try? JSONSerialization.jsonObject(with: chunk) as? [String: Any] else {
                throw ASTDumpError(reason: "the compiler printed a syntax tree that is not valid JSON")
            }
            // A file whose code is all in inactive `#if` blocks has no `items`.
            guard let path = object["filename"] as? String, object["items"] == nil || object["items"] is [Any] else {
                throw ASTDumpError(reason: "unknown shape of the compiler's AST dump (a source_file without a filename, or with items that are not a list): "
                    + "this compiler version is not supported by mutate explore")
            }
            let version = (object["compiler_version"] as? [String: Any])?["full"] as? String ?? "unknown"
            files.append(File(path: path, compilerVersion: version, root: object))
        }
        return files
    }

    static let documentStart = Array("{\"_kind\":\"source_file\"".utf8)

    /// Each document that starts with `documentStart`, to its matching brace.
    static func documents(in data: Data) -> [Data] {
        let bytes = [UInt8](data)
        var result: [Data] = []
        var index = 0
        while index + documentStart.count <= bytes.count {
            guard bytes.has(documentStart, at: index) else {
                index += 1
                continue
            }
            var depth = 0
            var inString = false
            var escaped = false
            var end = index
            scan: while end < bytes.count {
                let byte = bytes[end]
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") {
                    depth -= 1
                    if depth == 0 { break scan }
                }
                end += 1
            }
            guard end < bytes.count else { break }
            result.append(Data(bytes[index...end]))
            index = end + 1
        }
        return result
    }

    /// Runs the compiler on one module's files in `directory` (the built
    /// scratch copy) and returns the trees.
    static func run(swiftc: String, module: String, packageName: String, files: [String], in directory: URL,
                    searchPaths: [String], moduleMaps: [String], environment: [String: String]? = nil) throws -> [File]
    {
        var arguments = [swiftc, "-dump-ast", "-dump-ast-format", "json", "-module-name", module, "-package-name", packageName]
        for path in searchPaths { arguments += ["-I", path] }
        for map in moduleMaps { arguments += ["-Xcc", "-fmodule-map-file=\(map)"] }
        // The dump goes to standard output for one file and to standard
        // error for several.
        let result = try CapturedCommand.run(arguments + files, in: directory, environment: environment)
        let data = result.output + result.errors
        let trees = try parse(data)
        guard !trees.isEmpty else {
            let text = String(decoding: data.prefix(2000), as: UTF8.self)
            throw ASTDumpError(reason: "the compiler printed no syntax tree for module \(module): \(text)")
        }
        return trees
    }
}
