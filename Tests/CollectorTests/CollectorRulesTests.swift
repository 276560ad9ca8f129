import AnalyticsSupport
import AnalyticsTesting
import Collector
import Foundation
import Testing
import TestSupport

/// The status table of docs/collector.md, rule by rule, with crafted bytes.
struct CollectorRulesTests {
    static let now: Int64 = 1_767_225_600_000 // 2026-01-01T00:00:00Z

    private func collector() throws -> Collector {
        try Collector(allowList: ["com.example.app"], now: { Self.now })
    }

    static func event(id: String = UUID().uuidString.lowercased(), name: String = "card_activated", ts: Int64 = now - 1000,
                      props: String = "{\"card_type\":\"Gold\"}") -> String
    {
        "{\"event_id\":\"\(id)\",\"name\":\"\(name)\",\"ts\":\(ts),\"session_id\":\"s-1\",\"props\":\(props),\"context\":{\"platform\":\"iOS\"}}"
    }

    static func batch(_ events: [String], app: String = "com.example.app", schema: String = "1") -> String {
        "{\"schema_version\":\(schema),\"app_id\":\"\(app)\",\"install_id\":\"8c1b6f1e-3f0c-4a57-9d43-2b7a4f0e9d11\",\"sent_at\":\(now),\"events\":[\(events.joined(separator: ","))]}"
    }

    private func post(_ collector: Collector, _ body: String) -> CollectorResponse {
        collector.handle(CollectorRequest(method: "POST", path: "/v1/batch", headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
    }

    @Test func preflightIsNoContentWithCORS() throws {
        let response = try collector().handle(CollectorRequest(method: "OPTIONS", path: "/v1/batch"))
        #expect(response.status == 204)
        #expect(response.headers == CORS.headers)
        #expect(response.body.isEmpty)
    }

    @Test func acceptsAndCountsAValidBatch() throws {
        let collector = try collector()
        let response = post(collector, Self.batch([Self.event(), Self.event()]))
        #expect(response.status == 200)
        #expect(response.bodyText == "{\"accepted\":2,\"duplicates\":0}")
        #expect(try collector.store.count == 2)
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
    }

    @Test(arguments: ["not json", "[1,2]", "{\"schema_version\":1,", ""])
    func badJSONIsRejected(body: String) throws {
        let response = post(try collector(), body)
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"bad_json\"}")
    }

    @Test(arguments: ["2", "\"1\"", "null"])
    func unsupportedSchemaIsRejected(schema: String) throws {
        let response = post(try collector(), Self.batch([Self.event()], schema: schema))
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"unsupported_schema\"}")
    }

    @Test func unknownAppIsForbiddenWithCORSHeaders() throws {
        let collector = try collector()
        // The event is invalid too: the allow list answers first.
        let response = post(collector, Self.batch([Self.event(name: "Bad Name")], app: "com.other.app"))
        #expect(response.status == 403)
        #expect(response.bodyText == "{\"error\":\"unknown_app\"}")
        for (name, value) in CORS.headers { #expect(response.headers[name] == value) }
        #expect(try collector.store.count == 0)
    }

    @Test func moreThanFiveHundredEventsIsTooLarge() throws {
        let collector = try collector()
        let response = post(collector, Self.batch((0..<501).map { _ in Self.event() }))
        #expect(response.status == 413)
        #expect(response.bodyText == "{\"error\":\"too_large\"}")
        #expect(try collector.store.count == 0)
        #expect(post(collector, Self.batch((0..<500).map { _ in Self.event() })).status == 200)
    }

    @Test func aBodyOver512KiBIsTooLargeBeforeParsing() throws {
        let body = "{" + String(repeating: " ", count: 600 * 1024) // not even JSON: never parsed
        let response = post(try collector(), body)
        #expect(response.status == 413)
        #expect(response.bodyText == "{\"error\":\"too_large\"}")
    }

    @Test func aBodyOfExactly512KiBIsRead() throws {
        let batch = Self.batch([Self.event()])
        // The contract's number, not the constant: a wrong constant must fail here.
        let padding = String(repeating: " ", count: 524_288 - batch.utf8.count)
        #expect(post(try collector(), batch + padding).status == 200, "524,288 bytes: the limit itself")
        #expect(post(try collector(), batch + padding + " ").status == 413, "one byte more")
    }

    /// What a server asks before it reads a body: answered in the
    /// contract's order from the method, the path and the declared length.
    @Test func whatDoesNotDependOnTheBodyIsAnsweredBeforeItIsRead() throws {
        let collector = try collector()
        #expect(collector.answerBeforeBody(method: "POST", path: "/v1/batch", bodyLength: 524_288) == nil, "the limit itself: read it")
        #expect(collector.answerBeforeBody(method: "POST", path: "/api/v1/batch", bodyLength: 0) == nil)
        let tooLarge = try #require(collector.answerBeforeBody(method: "POST", path: "/v1/batch", bodyLength: 524_289))
        #expect(tooLarge.status == 413)
        #expect(tooLarge.bodyText == "{\"error\":\"too_large\"}")
        for (name, value) in CORS.headers { #expect(tooLarge.headers[name] == value) }
        #expect(collector.answerBeforeBody(method: "POST", path: "/v2/batch", bodyLength: 700_000)?.status == 404, "the path first")
        #expect(collector.answerBeforeBody(method: "PUT", path: "/v1/batch", bodyLength: 700_000)?.status == 405, "then the method")
        #expect(collector.answerBeforeBody(method: "OPTIONS", path: "/v1/batch", bodyLength: 700_000)?.status == 204)
        #expect(try collector.store.count == 0)
    }

    @Test func theDefaultClockIsTheRealTimeInMilliseconds() throws {
        let collector = try Collector(allowList: ["com.example.app"])
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(post(collector, Self.batch([Self.event(ts: now - 60_000)])).status == 200)
        let response = post(collector, Self.batch([Self.event(ts: now + 2 * 24 * 60 * 60 * 1000)]))
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"events[0].ts\"]}", "two days ahead of the server's clock")
    }

    @Test func timestampsInSecondsAreBelowTheFloor() throws {
        let collector = try collector()
        let response = post(collector, Self.batch([Self.event(), Self.event(ts: Self.now / 1000)]))
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"events[1].ts\"]}")
        #expect(try collector.store.count == 0, "nothing from a rejected batch is stored")
    }

    @Test func timestampsMoreThanADayAheadAreRejected() throws {
        let collector = try collector()
        #expect(post(collector, Self.batch([Self.event(ts: Self.now + 24 * 3_600_000 + 1)])).status == 400)
        #expect(post(collector, Self.batch([Self.event(ts: Self.now + 24 * 3_600_000)])).status == 200)
        #expect(post(collector, Self.batch([Self.event(ts: 1_577_836_800_000)])).status == 200)
        #expect(post(collector, Self.batch([Self.event(ts: 1_577_836_799_999)])).status == 400)
    }

    @Test func failingPropertiesAreNamedInKeyOrder() throws {
        let response = post(try collector(), Self.batch([Self.event(props: "{\"phone\":\"1\",\"email\":\"a@b.c\",\"Bad\":1}")]))
        #expect(response.bodyText
            == "{\"error\":\"bad_field\",\"fields\":[\"events[0].props.Bad\",\"events[0].props.email\",\"events[0].props.phone\"]}")
    }

    @Test func aForbiddenKeyRejectsTheBatch() throws {
        let response = post(try collector(), Self.batch([Self.event(props: "{\"email\":\"a@b.c\",\"plan\":\"pro\"}")]))
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"events[0].props.email\"]}")
    }

    @Test func everyFailingFieldIsNamed() throws {
        let events = [
            Self.event(id: "not-a-uuid"),
            Self.event(name: "Bad"),
            "{\"event_id\":\"\(UUID().uuidString)\",\"name\":\"x\",\"ts\":\"1767225599000\",\"session_id\":\"s\",\"props\":{\"n\":[1]}}",
            "{\"name\":\"x\"}",
            "42",
        ]
        let response = post(try collector(), Self.batch(events))
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"events[0].event_id\",\"events[1].name\",\"events[2].ts\",\"events[2].props.n\",\"events[3].event_id\",\"events[3].ts\",\"events[3].session_id\",\"events[4]\"]}")
    }

    static let envelope = (
        app: "\"schema_version\":1,\"app_id\":\"com.example.app\"",
        install: "\"install_id\":\"8c1b6f1e-3f0c-4a57-9d43-2b7a4f0e9d11\"",
        sent: "\"sent_at\":\(now)"
    )

    /// Each envelope and event field rule, alone: the batch is refused and
    /// the answer names exactly that field.
    @Test(arguments: [
        ("{\(envelope.app),\(envelope.sent),\"events\":[]}", "install_id"),
        ("{\(envelope.app),\"install_id\":\"8c1b6f1e-3f0c-4a57-9d43-2b7a4f0e9d1\",\(envelope.sent),\"events\":[]}", "install_id"),
        ("{\(envelope.app),\"install_id\":\"8c1b6f1e-3f0c-4a57-9d43-2b7a4f0e9d11a\",\(envelope.sent),\"events\":[]}", "install_id"),
        ("{\(envelope.app),\(envelope.install),\"events\":[]}", "sent_at"),
        ("{\(envelope.app),\(envelope.install),\"sent_at\":\"\(now)\",\"events\":[]}", "sent_at"),
        ("{\(envelope.app),\(envelope.install),\(envelope.sent)}", "events"),
        ("{\(envelope.app),\(envelope.install),\(envelope.sent),\"events\":{}}", "events"),
        ("{\(envelope.app),\(envelope.install),\(envelope.sent),\"events\":[\(event(props: "[1]"))]}", "events[0].props"),
        ("{\(envelope.app),\(envelope.install),\(envelope.sent),\"events\":[\(event().replacingOccurrences(of: "{\"platform\":\"iOS\"}", with: "\"iOS\""))]}",
         "events[0].context"),
        ("{\(envelope.app),\(envelope.install),\(envelope.sent),\"events\":[\(event().replacingOccurrences(of: "\"name\":\"card_activated\",", with: ""))]}",
         "events[0].name"),
        ("{\(envelope.app),\(envelope.install),\(envelope.sent),\"events\":[\(event(props: "{\"note\":\"\(String(repeating: "é", count: 512))x\"}"))]}",
         "events[0].props.note"),
    ])
    func eachFieldRuleNamesItsField(body: String, field: String) throws {
        let response = post(try collector(), body)
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"\(field)\"]}")
    }

    @Test func aStringOfExactly1024BytesIsAccepted() throws {
        // 512 two-byte characters: 1,024 UTF-8 bytes, the limit itself.
        let response = post(try collector(), Self.batch([Self.event(props: "{\"note\":\"\(String(repeating: "é", count: 512))\"}")]))
        #expect(response.status == 200)
    }

    @Test func anEmptyAppIDIsUnknownEvenIfTheAllowListHoldsAnEmptyString() throws {
        let collector = try Collector(allowList: [""], now: { Self.now })
        let response = post(collector, Self.batch([Self.event()], app: ""))
        #expect(response.status == 403)
    }

    @Test func namesAtMostOneHundredFields() throws {
        let response = post(try collector(), Self.batch((0..<150).map { _ in Self.event(ts: 5) }))
        #expect(response.status == 400)
        #expect(response.bodyText.components(separatedBy: "events[").count - 1 == 100)
    }

    @Test func duplicatesInsideOneBatchAndAcrossBatchesCountOnce() throws {
        let collector = try collector()
        let id = UUID().uuidString.lowercased()
        let first = post(collector, Self.batch([Self.event(id: id), Self.event(id: id), Self.event()]))
        #expect(first.bodyText == "{\"accepted\":2,\"duplicates\":1}")
        let second = post(collector, Self.batch([Self.event(id: id)]))
        #expect(second.bodyText == "{\"accepted\":0,\"duplicates\":1}")
        #expect(try collector.store.count == 2)
    }

    @Test func rawEventsAreKept() throws {
        let collector = try collector()
        _ = post(collector, Self.batch([Self.event(props: "{\"card_type\":\"Gold\",\"is_virtual\":true}")]))
        let stored = try #require(try collector.store.events().first)
        #expect(stored.raw.contains("\"props\":{\"card_type\":\"Gold\",\"is_virtual\":true}"))
        #expect(stored.appID == "com.example.app")
    }

    @Test func everyStoredFieldComesBackAsSent() throws {
        let collector = try collector()
        let id = "0d9e3c6a-1b2c-4d5e-8f90-a1b2c3d4e5f6"
        _ = post(collector, Self.batch([Self.event(id: id, name: "plan_chosen", ts: Self.now - 1234)]))
        let stored = try #require(try collector.store.events().first)
        #expect(stored.eventID == id)
        #expect(stored.appID == "com.example.app")
        #expect(stored.installID == "8c1b6f1e-3f0c-4a57-9d43-2b7a4f0e9d11")
        #expect(stored.sessionID == "s-1")
        #expect(stored.name == "plan_chosen")
        #expect(stored.timestamp == Self.now - 1234)
    }

    @Test func aStoreThatCannotWriteAnswers503AndKeepsNothing() throws {
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let path = folder.appending("collector.sqlite").path
        let collector = try Collector(allowList: ["com.example.app"], store: try CollectorStore(path: path), now: { Self.now })
        try SQLiteDatabase(path: path).execute("DROP TABLE events")
        let response = post(collector, Self.batch([Self.event()]))
        #expect(response.status == 503, "the client keeps the batch and retries")
        #expect(response.bodyText == "{\"error\":\"store_unavailable\"}")
    }

    @Test func concurrentBatchesAndReadsShareOneStoreSafely() throws {
        let collector = try collector()
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<25 {
                let events = (0..<4).map { index in
                    Self.event(id: String(format: "0d9e3c6a-1b2c-4d5e-8f90-%012x", worker * 1000 + round * 10 + index))
                }
                let status = post(collector, Self.batch(events)).status
                let readable = (try? collector.store.count) != nil && (try? collector.store.events()) != nil
                    && (try? collector.visitStatistics()) != nil
                if status != 200 || !readable { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try collector.store.count == 8 * 25 * 4)
    }

    @Test func otherPathsAndMethodsAreRefusedWithCORS() throws {
        let collector = try collector()
        let notFound = collector.handle(CollectorRequest(method: "POST", path: "/v2/batch", body: []))
        #expect(notFound.status == 404)
        #expect(notFound.headers["Access-Control-Allow-Origin"] == "*")
        #expect(collector.handle(CollectorRequest(method: "GET", path: "/v1/batch")).status == 405)
        let prefixed = collector.handle(CollectorRequest(method: "POST", path: "/analytics/v1/batch", body: Array(Self.batch([Self.event()]).utf8)))
        #expect(prefixed.status == 200, "an endpoint with a path of its own")
    }

    @Test(arguments: [
        "0d9e3c6a-1b2c-4d5e-8f90-a1b2c3d4e5 6",
        "+d9e3c6a-1b2c-4d5e-8f90-a1b2c3d4e5f6",
        "0x9e3c6a-1b2c-4d5e-8f90-a1b2c3d4e5f6",
        "0d9e3c6a-1b2c-4d5e-8f90-a1b2c3d4e5fg",
        "0d9e3c6a1b2c-4d5e-8f90-a1b2c3d4e5f6-",
        "0d9e3c6a01b2c04d5e08f900a1b2c3d4e5f6",   // 36 hex digits: the dashes are part of the form
    ])
    func onlyTheCanonicalUUIDSpellingIsAnEventID(id: String) throws {
        let collector = try collector()
        let response = post(collector, Self.batch([Self.event(id: id)]))
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"events[0].event_id\"]}")
        #expect(try collector.store.count == 0)
    }

    @Test func oneUUIDInTwoCasesIsStoredOnce() throws {
        let collector = try collector()
        let id = "0d9e3c6a-1b2c-4d5e-8f90-a1b2c3d4e5f6"
        #expect(post(collector, Self.batch([Self.event(id: id)])).status == 200)
        #expect(post(collector, Self.batch([Self.event(id: id.uppercased())])).bodyText == "{\"accepted\":0,\"duplicates\":1}")
        #expect(try collector.store.count == 1)
    }

    @Test func aNULInsideAStringIsStoredWhole() throws {
        let collector = try collector()
        let body = Self.batch([Self.event()]).replacingOccurrences(of: "\"session_id\":\"s-1\"", with: "\"session_id\":\"abc\\u0000def\"")
        #expect(post(collector, body).status == 200)
        let stored = try #require(try collector.store.events().first)
        #expect(stored.sessionID == "abc\u{0}def", "the column keeps the bytes after the NUL")
    }

    @Test func aKeyGivenTwiceIsABadFieldNamedByItsPath() throws {
        let collector = try collector()
        let twice = Self.batch([Self.event()]).replacingOccurrences(of: "\"app_id\":\"com.example.app\"",
                                                                     with: "\"app_id\":\"evil\",\"app_id\":\"com.example.app\"")
        var response = post(collector, twice)
        #expect(response.status == 400)
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"app_id\"]}")
        let inEvent = Self.batch([Self.event(), Self.event(props: "{\"a\":1,\"a\":2}")])
        response = post(collector, inEvent)
        #expect(response.bodyText == "{\"error\":\"bad_field\",\"fields\":[\"events[1].props.a\"]}")
        #expect(try collector.store.count == 0)
    }
}
