import Analytics
import AnalyticsSupport
import Foundation

/// A request body of wire format v1, decoded for assertions.
public struct WireBatch: Sendable, Equatable {
    public var schemaVersion: Int64?
    public var appID: String?
    public var installID: String?
    public var sentAt: Int64?
    public var events: [WireEvent]
}

/// One event of a decoded batch.
public struct WireEvent: Sendable, Equatable {
    public var eventID: String
    public var name: String
    /// The `ts` field exactly as sent (an integer, or nil if it was not one).
    public var timestamp: Int64?
    public var sessionID: String
    public var properties: EventProperties
    public var context: [String: String]

    /// A string property.
    public func string(_ key: String) -> String? {
        if case .string(let value) = properties[key] { return value }
        return nil
    }

    /// An integer property.
    public func integer(_ key: String) -> Int64? {
        if case .integer(let value) = properties[key] { return value }
        return nil
    }

    /// A bool property.
    public func bool(_ key: String) -> Bool? {
        if case .bool(let value) = properties[key] { return value }
        return nil
    }
}

extension TransportRequest {
    /// The body decoded as a batch, or nil when it is not one.
    public var batch: WireBatch? {
        guard let json = try? JSONParser.parse(body), json.objectValue != nil else { return nil }
        return WireBatch(
            schemaVersion: json["schema_version"]?.integerValue,
            appID: json["app_id"]?.stringValue,
            installID: json["install_id"]?.stringValue,
            sentAt: json["sent_at"]?.integerValue,
            events: (json["events"]?.arrayValue ?? []).map(WireEvent.init(json:))
        )
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

extension WireEvent {
    init(json: JSONValue) {
        eventID = json["event_id"]?.stringValue ?? ""
        name = json["name"]?.stringValue ?? ""
        timestamp = json["ts"]?.integerValue
        sessionID = json["session_id"]?.stringValue ?? ""
        properties = (json["props"]?.objectValue ?? [:]).mapValues(PropertyValue.init(json:))
        context = (json["context"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
    }
}

extension PropertyValue {
    init(json: JSONValue) {
        switch json {
        case .string(let value): self = .string(value)
        case .integer(let value): self = .integer(value)
        case .double(let value): self = .double(value)
        case .bool(let value): self = .bool(value)
        default: self = .null
        }
    }
}
