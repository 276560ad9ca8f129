/// Makes a test runner's failure message readable in a report: the
/// `(error)` Swift Testing appends is dropped, and a byte array it prints
/// (`[123, 34, 97, ...]`) is shown as the text it holds.
enum FailureMessage {
    static func clean(_ message: String) -> String {
        var text = message.replacingOccurrences(of: " (error): ", with: ": ")
        if text.hasSuffix(" (error)") { text.removeLast(" (error)".count) }
        return decodeByteArrays(in: text)
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
