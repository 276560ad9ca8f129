import AnalyticsSupport
import Foundation

/// One event that passed validation, ready to store.
struct ValidEvent: Equatable {
    var eventID: String
    var name: String
    var timestamp: Int64
    var sessionID: String
    var properties: [String: JSONValue]
    var raw: [UInt8]
}

/// The per-field rules of wire format v1 (docs/wire-format.md), as the server
/// applies them. Returns every failing path (`events[3].ts`), at most 100.
struct BatchValidator {
    static let timestampFloor = WireContract.timestampFloor
    static let futureAllowance: Int64 = 24 * 60 * 60 * 1000
    static let maximumFieldsReported = 100

    let forbiddenKeys: Set<String>
    let now: Int64

    func failingFields(in batch: [String: JSONValue]) -> [String] {
        var fields: [String] = []
        func fail(_ path: String) { if fields.count < Self.maximumFieldsReported { fields.append(path) } }

        // `app_id` needs no rule here: the allow list answered first.
        if !isUUID(batch["install_id"]?.stringValue) { fail("install_id") }
        if batch["sent_at"]?.integerValue == nil { fail("sent_at") }
        guard let events = batch["events"]?.arrayValue else {
            fail("events")
            return fields
        }
        for (index, event) in events.enumerated() {
            let path = "events[\(index)]"
            guard let object = event.objectValue else {
                fail(path)
                continue
            }
            if !isUUID(object["event_id"]?.stringValue) { fail("\(path).event_id") }
            if !isIdentifier(object["name"]?.stringValue) { fail("\(path).name") }
            if let ts = object["ts"]?.integerValue, ts >= Self.timestampFloor, ts <= now + Self.futureAllowance {} else { fail("\(path).ts") }
            if object["session_id"]?.stringValue?.isEmpty ?? true { fail("\(path).session_id") }
            if let props = object["props"] {
                guard let properties = props.objectValue else {
                    fail("\(path).props")
                    continue
                }
                for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
                    if forbiddenKeys.contains(key) || !isIdentifier(key) || !isValidValue(value) { fail("\(path).props.\(key)") }
                }
            }
            if let context = object["context"], context.objectValue == nil { fail("\(path).context") }
        }
        return fields
    }

    func validEvents(_ events: [JSONValue]) -> [ValidEvent] {
        events.compactMap { event in
            guard let object = event.objectValue,
                  let id = object["event_id"]?.stringValue, let name = object["name"]?.stringValue,
                  let ts = object["ts"]?.integerValue, let session = object["session_id"]?.stringValue
            else { return nil }
            return ValidEvent(eventID: id.lowercased(), name: name, timestamp: ts, sessionID: session,
                              properties: object["props"]?.objectValue ?? [:], raw: JSONWriter.encode(event))
        }
    }

    private func isValidValue(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.utf8.count <= WireContract.maximumStringBytes
        case .integer, .bool, .null: true
        case .double(let number): number.isFinite
        case .array, .object: false
        }
    }

    func isIdentifier(_ text: String?) -> Bool {
        text.map(WireContract.isIdentifier) ?? false
    }

    /// Only the canonical form, `8-4-4-4-12` hex digits: Foundation's
    /// `UUID(uuidString:)` on Linux also takes spaces, `+` and `0x`, so three
    /// spellings of one id would be stored as three events.
    func isUUID(_ text: String?) -> Bool {
        guard let text else { return false }
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let hex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                guard hex else { return false }
            }
        }
        return true
    }
}
