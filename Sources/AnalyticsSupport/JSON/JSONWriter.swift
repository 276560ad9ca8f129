/// Writes JSON bytes deterministically: object keys in byte order, integers
/// without a fraction, no insignificant white space. Two equal values always
/// give the same bytes, so tests can compare request bodies byte for byte.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: appendASCII("null")
        case .bool(let flag): appendASCII(flag ? "true" : "false")
        case .integer(let number): writeInteger(number)
        case .double(let number): writeDouble(number)
        case .string(let text): writeString(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends bytes that are already valid JSON (a stored event, say).
    package mutating func writeRaw(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    package mutating func appendASCII(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes an integer's decimal digits without building a `String`.
    package mutating func writeInteger(_ number: Int64) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// Non-finite numbers have no JSON form; they are written as `null`.
    /// The SDK rejects them before they get here.
    package mutating func writeDouble(_ number: Double) {
        guard number.isFinite else { return appendASCII("null") }
        if number == number.rounded(), abs(number) < 1e15 {
            if number.sign == .minus && number == 0 { bytes.append(UInt8(ascii: "-")) }
            writeInteger(Int64(number))
            appendASCII(".0")
        } else {
            appendASCII("\(number)")
        }
    }

    package mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them in one go.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): appendASCII("\\\"")
            case UInt8(ascii: "\\"): appendASCII("\\\\")
            case 0x0A: appendASCII("\\n")
            case 0x0D: appendASCII("\\r")
            case 0x09: appendASCII("\\t")
            case 0x08: appendASCII("\\b")
            case 0x0C: appendASCII("\\f")
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                appendASCII("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
