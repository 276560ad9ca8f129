import AnalyticsSupport

/// Builds the request body of wire format v1 from queued event bytes, with
/// keys in byte order: `app_id`, `events`, `install_id`, `schema_version`, `sent_at`.
struct BatchEncoder {
    static let schemaVersion = WireContract.schemaVersion

    let appID: String
    let installID: String

    func body(events: [QueuedEvent], sentAt: Int64) -> [UInt8] {
        var writer = JSONWriter()
        writer.appendASCII("{")
        writer.writeString("app_id")
        writer.appendASCII(":")
        writer.writeString(appID)
        writer.appendASCII(",")
        writer.writeString("events")
        writer.appendASCII(":[")
        for (index, event) in events.enumerated() {
            if index > 0 { writer.appendASCII(",") }
            writer.writeRaw(event.payload)
        }
        writer.appendASCII("],")
        writer.writeString("install_id")
        writer.appendASCII(":")
        writer.writeString(installID)
        writer.appendASCII(",")
        writer.writeString("schema_version")
        writer.appendASCII(":\(Self.schemaVersion),")
        writer.writeString("sent_at")
        writer.appendASCII(":\(sentAt)}")
        return writer.bytes
    }
}
