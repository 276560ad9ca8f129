@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

/// Each delivery policy as a plain value.
struct ResponsePolicyTests {
    private func outcome(_ status: Int, body: String = "", headers: [String: String] = [:], batch: Int = 10) -> DeliveryOutcome {
        ResponsePolicy.outcome(of: .success(TransportResponse(status: status, headers: headers, body: Array(body.utf8))), batchSize: batch)
    }

    @Test func successIsDelivered() {
        #expect(outcome(200, body: "{\"accepted\":3,\"duplicates\":0}") == .delivered)
    }

    @Test func contractRejectionsAreDroppedNeverRetried() {
        #expect(outcome(400, body: "{\"error\":\"bad_json\"}") == .dropBatch(reason: "400 bad_json"))
        #expect(outcome(400, body: "{\"error\":\"unsupported_schema\"}") == .dropBatch(reason: "400 unsupported_schema"))
        #expect(outcome(400, body: "not json") == .dropBatch(reason: "400 bad_request"))
        if case .dropBatch = outcome(403, body: "{\"error\":\"unknown_app\"}") {} else { Issue.record("403 must drop") }
        if case .dropBatch = outcome(413, batch: 1) {} else { Issue.record("413 of one event must drop") }
    }

    @Test func badFieldNamesTheEventsToDrop() {
        let body = "{\"error\":\"bad_field\",\"fields\":[\"events[3].ts\",\"events[0].name\",\"events[3].props.a\",\"events[99].ts\"]}"
        #expect(outcome(400, body: body) == .dropEvents(indices: [0, 3]))
        #expect(outcome(400, body: "{\"error\":\"bad_field\",\"fields\":[\"app_id\"]}") == .dropBatch(reason: "400 bad_field naming no event"))
    }

    @Test func tooLargeSplits() {
        #expect(outcome(413, batch: 2) == .split)
    }

    @Test func overloadFaultsAndSilenceAreRetried() {
        #expect(outcome(429) == .retry(retryAfterSeconds: nil))
        #expect(outcome(429, headers: ["retry-after": " 30"]) == .retry(retryAfterSeconds: 30))
        #expect(outcome(500) == .retry(retryAfterSeconds: nil))
        #expect(outcome(503) == .retry(retryAfterSeconds: nil))
        #expect(outcome(404) == .retry(retryAfterSeconds: nil))
        #expect(ResponsePolicy.outcome(of: .failure(NetworkFailure("refused")), batchSize: 3) == .retry(retryAfterSeconds: nil))
    }

    @Test func eventIndexIsReadFromAFieldPath() {
        #expect(ResponsePolicy.eventIndex(inPath: "events[12].props.card") == 12)
        #expect(ResponsePolicy.eventIndex(inPath: "app_id") == nil)
        #expect(ResponsePolicy.eventIndex(inPath: "events[x].ts") == nil)
        #expect(ResponsePolicy.eventIndex(inPath: "extras[12].x") == nil, "a field outside the events")
    }
}
