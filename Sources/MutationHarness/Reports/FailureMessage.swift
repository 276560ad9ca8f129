/// Makes a test runner's failure message readable in a report: the
/// `(error)` Swift Testing appends is dropped, a byte array it prints
/// (`[123, 34, 97, ...]`) is shown as the text it holds, and a message past
/// `longest` characters is cut there (an expectation on a 10,000-element
/// array once made one cell of report.md 160 KB long); the mutant's log
/// keeps it whole.
enum FailureMessage {
    static let longest = 1_000

    static func clean(_ message: String) -> String {
        var text = message.replacingOccurrences(of: " (error): ", with: ": ")
        if text.hasSuffix(" (error)") { text.removeLast(" (error)".count) }
        return cut(decodeByteArrays(in: text))
    }

    /// The first `longest` characters, and how many more there were.
    static func cut(_ text: String) -> String {
        let more = text.count - longest
        guard more > 0 else { return text }
        return text.prefix(longest) + " … (\(more) more \(more == 1 ? "character" : "characters"); the whole message is in the mutant's log)"
    }

    /// Each `[n, n, ...]` of eight or more numbers 0...255 that decodes as
    /// UTF-8 text becomes that text, quoted.
    static func decodeByteArrays(in text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "]") else {
                out += rest[open...]
                return out
            }
            let inside = rest[rest.index(after: open)..<close]
            let numbers = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let bytes = numbers.compactMap { UInt8($0) }
            if bytes.count >= 8, bytes.count == numbers.count, let decoded = String(validating: bytes, as: UTF8.self),
               decoded.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" || $0 == "\t" })
            {
                out += "\"" + decoded + "\""
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
