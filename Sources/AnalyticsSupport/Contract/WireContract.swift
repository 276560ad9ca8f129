/// The rules of wire format v1 (docs/wire-format.md) that the SDK and the
/// collector both enforce, kept in one place so the two cannot drift apart.
package enum WireContract {
    /// The batch schema version.
    package static let schemaVersion: Int64 = 1
    /// Longest string property value, in UTF-8 bytes.
    package static let maximumStringBytes = 1024
    /// Largest event, as encoded in a batch's `events` array (context
    /// included), in bytes: a batch of one must fit the collector's body cap.
    package static let maximumEventBytes = 64 * 1024
    /// Largest request body the collector accepts, in bytes; above it the
    /// answer is 413 (`too_large`).
    package static let maximumBodyBytes = 512 * 1024
    /// Most events in one batch; above it the answer is 413 (`too_large`).
    package static let maximumEventsPerBatch = 500
    /// The body size the SDK fills a request up to: the collector's limit
    /// less 12 KiB of headroom, so a request never meets the 413.
    package static let requestBudgetBytes = maximumBodyBytes - 12 * 1024
    /// What the SDK counts for a batch's envelope (schema version, app id,
    /// install id, `sent_at`) when it fills a request.
    package static let envelopeAllowanceBytes = 512
    /// The earliest acceptable `ts`: 2020-01-01T00:00:00Z in milliseconds.
    package static let timestampFloor: Int64 = 1_577_836_800_000

    /// Personal attribute keys that never leave the device.
    package static let forbiddenKeys: Set<String> = [
        "email", "phone", "phone_number", "name", "full_name", "first_name", "last_name",
        "address", "ip", "ip_address", "password", "card_number", "cvv", "ssn",
        "idfa", "advertising_id", "latitude", "longitude",
    ]

    /// `^[a-z][a-z0-9_]{0,63}$`, checked byte by byte: event names and property keys.
    package static func isIdentifier(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= 64, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}
