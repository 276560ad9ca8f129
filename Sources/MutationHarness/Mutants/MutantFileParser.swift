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
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let diffStart = lines.firstIndex(where: { $0.hasPrefix("diff ") || $0.hasPrefix("--- ") }) else {
            throw MutantFileError(file: file, reason: "no diff found: after the header lines, paste the output of `git diff`")
        }
        var headers: [(key: String, value: String)] = []
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
            headers.append((key, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        func header(_ key: String) -> String? {
            headers.first { $0.key.lowercased() == key.lowercased() }?.value
        }
        guard let name = header("Mutant"), !name.isEmpty else {
            throw MutantFileError(file: file, reason: "missing 'Mutant: <name>' header line")
        }
        guard isValidName(name) else {
            throw MutantFileError(file: file, reason: "mutant name '\(name)' must be lower-case letters, digits and dashes, such as retry-on-400")
        }
        guard let description = header("Description"), !description.isEmpty else {
            throw MutantFileError(file: file, reason: "missing 'Description: <what a user would see>' header line")
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

    /// Lower-case letters, digits and dashes, starting with a letter or digit.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
