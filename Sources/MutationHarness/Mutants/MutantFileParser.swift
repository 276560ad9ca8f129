/// Why a mutant file cannot be used. Each message names the file and says
/// what to write.
public struct MutantFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var reason: String
    public var description: String { "\(file): \(reason)" }
}

/// Reads `mutants/<name>.patch`: `Key: value` header lines (a line starting
/// with white space continues the previous value), then a unified diff.
public enum MutantFileParser {
    public static func parse(_ text: String, file: String) throws(MutantFileError) -> Mutant {
        if text.contains("\r\n") {
            throw MutantFileError(file: file, reason: "the file has CRLF (Windows) line endings: save it with LF line endings (git: `core.autocrlf false`, or `dos2unix`)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let diffStart = lines.firstIndex(where: { $0.hasPrefix("diff ") || $0.hasPrefix("--- ") }) else {
            throw MutantFileError(file: file, reason: "no diff found: after the header lines, paste the output of `git diff`")
        }
        var headers: [Mutant.Header] = []
        for (number, line) in lines[..<diffStart].enumerated() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            if line.first == " " || line.first == "\t" {
                guard !headers.isEmpty else {
                    throw MutantFileError(file: file, reason: "line \(number + 1): a continuation line comes before any header")
                }
                headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                throw MutantFileError(file: file, reason: "line \(number + 1): expected 'Key: value', found '\(line.prefix(60))'")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !key.contains(" ") else {
                throw MutantFileError(file: file, reason: "line \(number + 1): expected 'Key: value', found '\(line.prefix(60))'")
            }
            headers.append(Mutant.Header(key: key, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        func header(_ key: String) -> String? {
            headers.first { $0.key.lowercased() == key.lowercased() }?.value
        }
        guard let name = header("Mutant"), !name.isEmpty else {
            throw MutantFileError(file: file, reason: "missing 'Mutant: <name>' header line")
        }
        guard isValidName(name) else {
            throw MutantFileError(file: file, reason: nameRule(name))
        }
        guard let description = header("Description"), !description.isEmpty else {
            throw MutantFileError(file: file, reason: "missing 'Description: <what a user would see>' header line")
        }
        if headers.contains(where: { $0.key.lowercased() == "killed-by" && $0.value.isEmpty }) {
            throw MutantFileError(file: file, reason: "a 'Killed-By:' line names no test: write the ids of the tests that kill it "
                + "as the report names them (`Target.Suite/test()`), or drop the line")
        }
        let diffText = lines[diffStart...].joined(separator: "\n")
        let diff: UnifiedDiff
        do {
            diff = try DiffParser.parse(diffText, firstLineNumber: diffStart + 1)
        } catch {
            throw MutantFileError(file: file, reason: "the diff is malformed: \(error)")
        }
        return Mutant(name: name, description: description, bug: header("Bug"), headers: headers,
                      diff: diff, diffText: diffText, filePath: file)
    }

    /// The longest name: it becomes a file name (`logs/NAME.log`, results).
    public static let maximumNameLength = 100

    /// Lower-case letters, digits and dashes, starting with a letter or
    /// digit, at most `maximumNameLength` characters.
    public static func isValidName(_ name: String) -> Bool {
        guard name.count <= maximumNameLength, let first = name.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Why `name` is not a valid mutant name.
    static func nameRule(_ name: String) -> String {
        if name.count > maximumNameLength {
            return "mutant name '\(name.prefix(40))...' is \(name.count) characters long: at most \(maximumNameLength)"
        }
        return "mutant name '\(name)' must be lower-case letters, digits and dashes, such as retry-on-400"
    }
}
