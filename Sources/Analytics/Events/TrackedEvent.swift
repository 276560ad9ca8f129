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
    /// The event object exactly as it appears in a batch's `events` array:
    /// keys in byte order (`context`, `event_id`, `name`, `props`,
    /// `session_id`, `ts`), written straight to bytes. `contextBytes` is
    /// `context.wireBytes`, passed in so a run of events encodes it once.
    func wireBytes(contextBytes: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(capacity: contextBytes.count + 256)
        writer.appendASCII("{\"context\":")
        writer.writeRaw(contextBytes)
        writer.appendASCII(",\"event_id\":\"")
        writer.writeRaw(eventID.wireBytes)
        writer.appendASCII("\",\"name\":")
        writer.writeString(name)
        writer.appendASCII(",\"props\":{")
        for (index, property) in properties.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { writer.appendASCII(",") }
            writer.writeString(property.key)
            writer.appendASCII(":")
            property.value.write(to: &writer)
        }
        writer.appendASCII("},\"session_id\":\"")
        writer.writeRaw(sessionID.wireBytes)
        writer.appendASCII("\",\"ts\":")
        writer.writeInteger(timestamp)
        writer.appendASCII("}")
        return writer.bytes
    }
}

extension PropertyValue {
    func write(to writer: inout JSONWriter) {
        switch self {
        case .string(let value): writer.writeString(value)
        case .integer(let value): writer.writeInteger(value)
        case .double(let value): writer.writeDouble(value)
        case .bool(let value): writer.appendASCII(value ? "true" : "false")
        case .null: writer.appendASCII("null")
        }
    }
}
