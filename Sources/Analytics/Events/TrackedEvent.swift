import AnalyticsSupport
import Foundation

/// An event as providers receive it: stamped once at `track`, enriched with
/// the global context, validated and stripped of forbidden keys.
public struct TrackedEvent: Sendable, Equatable {
    /// Created once at `track`; every retry carries the same id.
    public let eventID: UUID
    /// The event name.
    public var name: String
    /// Unix epoch milliseconds at `track`.
    public let timestamp: Int64
    /// The session the event belongs to.
    public let sessionID: UUID
    /// The event's own properties, after filtering.
    public var properties: EventProperties
    /// App, device and SDK facts added by the dispatcher.
    public let context: EventContext
}

extension TrackedEvent {
    /// The event object exactly as it appears in a batch's `events` array.
    var wireJSON: JSONValue {
        .object([
            "event_id": .string(eventID.wireString),
            "name": .string(name),
            "ts": .integer(timestamp),
            "session_id": .string(sessionID.wireString),
            "props": .object(properties.mapValues(\.json)),
            "context": context.json,
        ])
    }
}

extension PropertyValue {
    var json: JSONValue {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .integer(value)
        case .double(let value): .double(value)
        case .bool(let value): .bool(value)
        case .null: .null
        }
    }
}
