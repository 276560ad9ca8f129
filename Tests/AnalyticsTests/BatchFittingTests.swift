@testable import Analytics
import AnalyticsSupport
import Foundation
import Testing

struct BatchFittingTests {
    static func events(_ count: Int, payload: Int) -> [QueuedEvent] {
        (0..<count).map { QueuedEvent(id: "e\($0)", timestamp: 0, payload: [UInt8](repeating: UInt8(ascii: "x"), count: payload)) }
    }

    @Test func aBatchFitsItsBudgetCountingTheEnvelopeAndEveryComma() {
        // 512 bytes of envelope, then each event's bytes and its comma: four
        // events of 100 bytes need 916 bytes.
        #expect(CollectorUploader.fitting(Self.events(10, payload: 100), within: 916).count == 4)
        #expect(CollectorUploader.fitting(Self.events(10, payload: 100), within: 915).count == 3)
        #expect(CollectorUploader.fitting(Self.events(10, payload: 100), within: 100).count == 1, "never fewer than one")
        #expect(CollectorUploader.fitting(Self.events(2, payload: 100), within: 100_000).count == 2)
    }

    /// README: requests stay under 500 KiB (512,000 bytes; the collector
    /// answers 413 only above 512 KiB). By the rule above, eight events of
    /// 63,935 bytes need exactly 512,000 bytes; of 63,936, 512,008.
    @Test func aRequestStaysWithin500KiB() {
        let budget = WireContract.requestBudgetBytes
        #expect(CollectorUploader.fitting(Self.events(9, payload: 63_935), within: budget).count == 8)
        #expect(CollectorUploader.fitting(Self.events(9, payload: 63_936), within: budget).count == 7)
    }
}
