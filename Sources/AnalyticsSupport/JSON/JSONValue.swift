/// A JSON document as a value: the one representation the SDK, the testing
/// support and the collector share, so every side encodes and parses alike.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}
