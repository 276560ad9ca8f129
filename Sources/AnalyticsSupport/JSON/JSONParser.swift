/// Why a byte sequence is not a JSON document.
package enum JSONParseError: Error, Equatable, Sendable {
    case unexpectedEnd
    case unexpectedByte(UInt8, offset: Int)
    case invalidNumber(offset: Int)
    case invalidEscape(offset: Int)
    case invalidUTF8
    case trailingBytes(offset: Int)
    case tooDeep
    /// An object names the same key twice; `path` is where (`events[0].app_id`).
    case duplicateKey(path: String)
}

/// A strict RFC 8259 parser. Numbers without a fraction or exponent that fit
/// in `Int64` parse as `.integer`, all others as `.double`, so the collector
/// can tell a millisecond integer from `1.5e12`.
package struct JSONParser {
    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0
    /// Where the parser is, for a duplicate key's path: keys and `[index]`.
    private var path: [String] = []
    private static let maximumDepth = 64

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw .trailingBytes(offset: parser.offset) }
        return value
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard offset < bytes.count else { throw .unexpectedEnd }
        return bytes[offset]
    }

    private mutating func expect(_ literal: String, value: JSONValue) throws(JSONParseError) -> JSONValue {
        for byte in literal.utf8 {
            guard offset < bytes.count else { throw .unexpectedEnd }
            guard bytes[offset] == byte else { throw .unexpectedByte(bytes[offset], offset: offset) }
            offset += 1
        }
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw .unexpectedByte(byte, offset: offset)
        }
    }

    /// `["events", "[0]", "app_id"]` -> `events[0].app_id`.
    private static func render(_ path: [String]) -> String {
        var text = ""
        for part in path {
            if part.hasPrefix("[") || text.isEmpty { text += part } else { text += "." + part }
        }
        return text
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw .tooDeep }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        offset += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { offset += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw .unexpectedByte(bytes[offset], offset: offset) }
            let key = try parseString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw .unexpectedByte(bytes[offset], offset: offset) }
            offset += 1
            skipWhitespace()
            path.append(key)
            guard members[key] == nil else { throw .duplicateKey(path: Self.render(path)) }
            members[key] = try parseValue()
            path.removeLast()
            skipWhitespace()
            let next = try peek()
            offset += 1
            if next == UInt8(ascii: "}") { return .object(members) }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: offset - 1) }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { offset += 1; return .array(elements) }
        while true {
            skipWhitespace()
            path.append("[\(elements.count)]")
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            let next = try peek()
            offset += 1
            if next == UInt8(ascii: "]") { return .array(elements) }
            guard next == UInt8(ascii: ",") else { throw .unexpectedByte(next, offset: offset - 1) }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        offset += 1
        var scalars: [UInt8] = []
        while true {
            guard offset < bytes.count else { throw .unexpectedEnd }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scalars, as: UTF8.self) else { throw .invalidUTF8 }
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &scalars)
            case 0x00..<0x20:
                throw .unexpectedByte(byte, offset: offset - 1)
            default:
                scalars.append(byte)
            }
        }
    }

    private mutating func parseEscape(into scalars: inout [UInt8]) throws(JSONParseError) {
        guard offset < bytes.count else { throw .unexpectedEnd }
        let escape = bytes[offset]
        offset += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
            var code = try parseHex4()
            if (0xD800..<0xDC00).contains(code) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                else { throw .invalidEscape(offset: offset) }
                offset += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw .invalidEscape(offset: offset) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(code) {
                throw .invalidEscape(offset: offset)
            }
            guard let scalar = Unicode.Scalar(code) else { throw .invalidEscape(offset: offset) }
            scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw .invalidEscape(offset: offset - 1)
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw .unexpectedEnd }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .invalidEscape(offset: offset)
            }
            value = value * 16 + digit
            offset += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count else { throw .invalidNumber(offset: start) }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else if isDigit(bytes[offset]) {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        } else {
            throw .invalidNumber(offset: start)
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw .invalidNumber(offset: start) }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw .invalidNumber(offset: start) }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        // `Int64` reads only digits with an optional sign: a fraction or an exponent makes it a double.
        if let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw .invalidNumber(offset: start) }
        return .double(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
