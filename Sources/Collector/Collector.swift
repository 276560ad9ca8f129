import AnalyticsSupport
import Foundation

/// The collector's contract as a library (docs/wire-format.md, docs/collector.md): a
/// function from a request to a response, backed by a real SQLite store.
///
/// ```swift
/// let collector = try Collector(allowList: ["com.example.app"])
/// let response = collector.handle(CollectorRequest(method: "POST", path: "/v1/batch", body: bytes))
/// ```
public final class Collector: Sendable {
    /// Largest request body accepted, in bytes (413 above).
    public static let maximumBodyBytes = WireContract.maximumBodyBytes
    /// Most events in one batch (413 above).
    public static let maximumEvents = WireContract.maximumEventsPerBatch

    public let store: CollectorStore
    private let allowList: Set<String>
    private let forbiddenKeys: Set<String>
    private let now: @Sendable () -> Int64

    /// - Parameters:
    ///   - allowList: the app ids accepted; others get 403.
    ///   - forbiddenKeys: personal keys that make a batch invalid.
    ///   - now: the server clock in Unix milliseconds (for the 24 h future limit).
    public init(allowList: Set<String>, store: CollectorStore? = nil, forbiddenKeys: Set<String> = Collector.defaultForbiddenKeys,
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) throws
    {
        self.allowList = allowList
        self.store = try store ?? CollectorStore()
        self.forbiddenKeys = forbiddenKeys
        self.now = now
    }

    /// The contract's default forbidden keys.
    public static let defaultForbiddenKeys: Set<String> = WireContract.forbiddenKeys

    /// Answers one request, checking in the contract's order.
    public func handle(_ request: CollectorRequest) -> CollectorResponse {
        if let answer = answerBeforeBody(method: request.method, path: request.path, bodyLength: request.body.count) { return answer }
        let json: JSONValue
        do {
            json = try JSONParser.parse(request.body)
        } catch .duplicateKey(let path) {
            // Which of two values counts is not defined: refuse, naming the field.
            return respond(400, ["error": .string("bad_field"), "fields": .array([.string(path)])])
        } catch {
            return respond(400, ["error": .string("bad_json")])
        }
        guard let batch = json.objectValue else { return respond(400, ["error": .string("bad_json")]) }
        guard batch["schema_version"] == .integer(WireContract.schemaVersion) else { return respond(400, ["error": .string("unsupported_schema")]) }
        guard let appID = batch["app_id"]?.stringValue, !appID.isEmpty, allowList.contains(appID) else {
            return respond(403, ["error": .string("unknown_app")])
        }
        if let events = batch["events"]?.arrayValue, events.count > Self.maximumEvents {
            return respond(413, ["error": .string("too_large")])
        }
        let validator = BatchValidator(forbiddenKeys: forbiddenKeys, now: now())
        let fields = validator.failingFields(in: batch)
        guard fields.isEmpty else {
            return respond(400, ["error": .string("bad_field"), "fields": .array(fields.map(JSONValue.string))])
        }
        let events = validator.validEvents(batch["events"]?.arrayValue ?? [])
        do {
            let counts = try store.insert(events, appID: appID, installID: batch["install_id"]?.stringValue ?? "")
            return respond(200, ["accepted": .integer(Int64(counts.accepted)), "duplicates": .integer(Int64(counts.duplicates))])
        } catch {
            return respond(503, ["error": .string("store_unavailable")])
        }
    }

    /// The answer to a request that does not depend on its body's bytes: a
    /// preflight, a wrong path or method, a body over `maximumBodyBytes`;
    /// nil when the body must be read. `handle` starts with it; a server asks
    /// it with the declared `Content-Length` before reading, so an oversized
    /// body is refused unread and in the contract's order.
    public func answerBeforeBody(method: String, path: String, bodyLength: Int) -> CollectorResponse? {
        if method == "OPTIONS" { return respond(204) }
        // `{endpoint}/v1/batch`: the endpoint may carry a path of its own.
        guard path.hasSuffix("/v1/batch") else { return respond(404, ["error": .string("not_found")]) }
        guard method == "POST" else { return respond(405, ["error": .string("method_not_allowed")]) }
        guard bodyLength <= Self.maximumBodyBytes else { return respond(413, ["error": .string("too_large")]) }
        return nil
    }

    /// Visit statistics over everything stored. Throws when the store cannot
    /// be read.
    public func visitStatistics() throws -> VisitStatistics {
        VisitStatistics(rows: try store.screenRows())
    }

    private func respond(_ status: Int, _ body: [String: JSONValue]? = nil) -> CollectorResponse {
        var headers = CORS.headers
        var bytes: [UInt8] = []
        if let body {
            headers["Content-Type"] = "application/json"
            bytes = JSONWriter.encode(.object(body))
        }
        return CollectorResponse(status: status, headers: headers, body: bytes)
    }
}
