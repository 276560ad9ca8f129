import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Collector
import Foundation
import Testing
import TestSupport

/// The exact bytes the SDK puts on the wire, through the real client into
/// `RecordingTransport`, compared with checked-in golden bodies
/// (`Tests/AnalyticsTests/Golden/`), including the values a JSON encoder gets
/// wrong. The collector's strict parser reads every golden body back, and the
/// collector accepts it. `GOLDEN_RECORD=1 swift test --filter GoldenWireTests`
/// rewrites the files after a deliberate change of the wire format.
struct GoldenWireTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Every property type, and the values encoders get wrong.
    struct EveryValue: AnalyticsEvent {
        var name: String { "golden_values" }
        var properties: EventProperties {
            [
                "text": "Gold", "escapes": .string("quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7}"),
                "unicode": "pão de açúcar 🥖 \u{2028}", "empty": "",
                "zero": 0, "negative": -42, "large": .integer(9_007_199_254_740_993), "smallest": .integer(Int64.min),
                "tenth": 0.1, "third": .double(1.0 / 3.0), "tiny": 1e-7, "huge": 1.5e300, "whole_double": 2.0, "negative_zero": .double(-0.0),
                "yes": true, "no": false, "nothing": nil,
            ]
        }
    }

    private func client(_ transport: RecordingTransport, clock: ManualClock, storage: URL) throws -> Analytics {
        let counter = Locked(0)
        var configuration = Configuration.testing(storage: storage, clock: clock, transport: transport)
        configuration.ids = UUIDGenerator {
            let next = counter.withLock { value -> Int in
                value += 1
                return value
            }
            return UUID(uuidString: String(format: "0190c2a4-7e1f-7000-8000-%012d", next))!
        }
        configuration.installIDs = UUIDGenerator { UUID(uuidString: "8c1b6f1e-3f0c-4a57-9d43-2b7a4f0e9d11")! }
        configuration.onDiagnostic = { diagnostic in Issue.record("unexpected diagnostic: \(diagnostic)") }
        let analytics = Analytics()
        try analytics.start(configuration)
        return analytics
    }

    /// Compares with the golden file, byte offset first on a mismatch.
    private func expectGolden(_ body: [UInt8], _ name: String) throws {
        let file = Self.folder.appendingPathComponent("\(name).json")
        if ProcessInfo.processInfo.environment["GOLDEN_RECORD"] != nil {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(body).write(to: file)
        }
        let golden = try #require(FileManager.default.contents(atPath: file.path), "missing \(file.path): record it with GOLDEN_RECORD=1")
        let expected = [UInt8](golden)
        if body != expected {
            let offset = (0..<min(body.count, expected.count)).first { body[$0] != expected[$0] } ?? min(body.count, expected.count)
            let window = { (bytes: [UInt8]) in String(decoding: bytes[max(0, offset - 40)..<min(bytes.count, offset + 40)], as: UTF8.self) }
            Issue.record("""
                \(name): the body differs from the golden one at byte \(offset)
                  sent:   …\(window(body))…
                  golden: …\(window(expected))…
                sent body:   \(String(decoding: body, as: UTF8.self))
                golden body: \(String(decoding: expected, as: UTF8.self))
                """)
        }
        // The collector's strict parser reads it back, and the collector stores it.
        #expect(throws: Never.self) { try JSONParser.parse(expected) }
        let collector = try Collector(allowList: ["com.example.app"], now: { 1_767_225_600_000 })
        let response = collector.handle(CollectorRequest(method: "POST", path: "/v1/batch", headers: ["Content-Type": "application/json"], body: expected))
        #expect(response.status == 200, "\(name): \(String(decoding: response.body, as: UTF8.self))")
    }

    @Test func everyPropertyTypeAndTheContext() throws {
        let clock = ManualClock()
        let transport = RecordingTransport(clock: clock)
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let analytics = try client(transport, clock: clock, storage: folder.url)
        analytics.track(EveryValue())
        analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
        analytics.flush()
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://collector.example.com/v1/batch")
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        try expectGolden(request.body, "batch-every-value")
    }

    @Test func screenEnterAndExit() throws {
        let clock = ManualClock()
        let transport = RecordingTransport(clock: clock)
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let analytics = try client(transport, clock: clock, storage: folder.url)
        analytics.screens.enter("home")
        clock.advance(by: .milliseconds(1500))
        analytics.screens.push("paywall")
        clock.advance(by: .milliseconds(250))
        analytics.screens.pop()
        analytics.flush()
        try expectGolden(try #require(transport.requests.first).body, "batch-screens")
    }
}
