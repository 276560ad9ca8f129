import Analytics
import AnalyticsTesting
import Foundation
import Testing
import TestSupport

/// The example of `Sources/AnalyticsTesting/AnalyticsTesting.docc`, kept
/// here so the article cannot drift from the code (only the folder differs:
/// this suite never writes to the shared temporary directory).
struct DocumentationExampleTests {
    @Test func activationReachesTheWire() async throws {
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let clock = ManualClock()
        let transport = RecordingTransport(clock: clock)
        transport.enqueue(.status(503), .accepted)

        let analytics = Analytics()
        try analytics.start(.testing(storage: folder.url, clock: clock, transport: transport))
        analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
        analytics.flush()
        clock.advance(by: .seconds(60))

        let sent = transport.batches.map(\.events)
        #expect(sent.count == 2)
        #expect(sent[0][0].eventID == sent[1][0].eventID)
        #expect(sent[1][0].string("card_type") == "Gold")
        #expect(sent[1][0].bool("is_virtual") == true)
        analytics.stop()
    }
}
