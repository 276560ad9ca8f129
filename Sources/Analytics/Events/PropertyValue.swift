/// The value of one event property: the only kinds the wire format carries.
///
/// Literals work directly: `["card_type": "Gold", "attempts": 3, "is_virtual": true]`.
public enum PropertyValue: Sendable, Equatable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case null
}

extension PropertyValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension PropertyValue {
    /// An integer property from any `Int`.
    public static func int(_ value: Int) -> PropertyValue { .integer(Int64(value)) }
}

/// An event's properties, keyed by snake_case name.
public typealias EventProperties = [String: PropertyValue]
