import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Collector
import Foundation
import Testing
import TestSupport

/// The testing kit as an app team's tests use it: each helper does what its
/// documentation says, since a test that stands on a wrong helper passes for
/// the wrong reason.
struct TestingKitTests {
    // MARK: - UUIDGenerator.unique

    @Test func uniqueIDsAreThePrefixThenACounterWithVersionAndVariantBits() {
        let generate = UUIDGenerator.unique(prefix: 0x0123_4567_89AB_CDEF)
        #expect(generate().uuidString.lowercased() == "01234567-89ab-4def-8000-000000000001")
        #expect(generate().uuidString.lowercased() == "01234567-89ab-4def-8000-000000000002")
        for _ in 0..<253 { _ = generate() }
        #expect(generate().uuidString.lowercased() == "01234567-89ab-4def-8000-000000000100", "the counter's bytes in order")
        let full = UUIDGenerator.unique(prefix: .max)
        #expect(full().uuidString.lowercased() == "ffffffff-ffff-4fff-8000-000000000001", "version 4 and the RFC variant over any prefix")
        let late = UUIDGenerator.unique(prefix: 0x0123_4567_89AB_CDEF, start: 0x0102_0304_0506_0707)
        #expect(late().uuidString.lowercased() == "01234567-89ab-4def-8102-030405060708", "each of the counter's 8 bytes in its place")
    }

    @Test func twoGeneratorsNeverShareAnID() {
        let first = UUIDGenerator.unique(), second = UUIDGenerator.unique()
        let ids = (0..<100).map { _ in first() } + (0..<100).map { _ in second() }
        #expect(Set(ids).count == 200)
    }

    // MARK: - ManualClock

    @Test func aManualClockStartsWhereItsDocumentationSays() {
        let clock = ManualClock()
        #expect(clock.now() == Date(timeIntervalSince1970: 1_767_225_600), "2026-01-01T00:00:00Z")
        #expect(clock.uptime() == .seconds(1000))
    }

    @Test func timersFireSoonestFirstAndInTheOrderTheyWereSetWhenDue() {
        let clock = ManualClock()
        let fired = Locked<[String]>([])
        for (name, delay) in [("a", 5), ("b", 3), ("c", 3), ("d", 11)] {
            _ = clock.schedule(after: .seconds(delay)) { fired.withLock { $0.append(name) } }
        }
        clock.advance(by: .seconds(10))
        #expect(fired.withLock { $0 } == ["b", "c", "a"])
        #expect(clock.pendingTimers == [.seconds(1)])
    }

    @Test func settingTheWallClockLeavesUptimeAlone() {
        let clock = ManualClock()
        let changed = Date(timeIntervalSince1970: 1_700_000_000)
        clock.setWallClock(changed)
        #expect(clock.now() == changed)
        #expect(clock.uptime() == .seconds(1000))
        clock.advance(by: .seconds(2))
        #expect(clock.now() == changed.addingTimeInterval(2))
    }

    // MARK: - Transports

    private func batchRequest(events: Int) -> TransportRequest {
        let event = #"{"event_id":"e","name":"n","ts":1,"session_id":"s","props":{},"context":{}}"#
        let body = #"{"schema_version":1,"app_id":"a","install_id":"i","sent_at":1,"events":["#
            + Array(repeating: event, count: events).joined(separator: ",") + "]}"
        return TransportRequest(url: URL(string: "https://collector.example.com/v1/batch")!, body: Array(body.utf8))
    }

    @Test func anAcceptedReplyCountsTheEventsItAccepts() throws {
        let transport = RecordingTransport()
        let answer = Locked<TransportResponse?>(nil)
        transport.send(batchRequest(events: 3)) { result in answer.withLock { $0 = try? result.get() } }
        let response = try #require(answer.withLock { $0 })
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"accepted":3,"duplicates":0}"#)
        let notABatch = TransportRequest(url: URL(string: "https://collector.example.com/v1/batch")!, body: Array("ping".utf8))
        transport.send(notABatch) { result in answer.withLock { $0 = try? result.get() } }
        #expect(answer.withLock { $0 }.map { String(decoding: $0.body, as: UTF8.self) } == #"{"accepted":0,"duplicates":0}"#,
                "a body that is no batch accepts nothing")
    }

    /// A client that sends a request again at once, whatever the answer,
    /// loops forever: the transport stops it at the limit's send of the
    /// same bytes while the clock stands still (said once, then a network
    /// failure each time, the script left as it was). Other requests at the
    /// same instant (a split batch, a `bad_field` resend), sends at moving
    /// instants, or sends without a clock never count as a loop.
    @Test func theSameRequestSentWhileTheClockStandsStillIsALoopStoppedAtTheLimit() {
        let clock = ManualClock()
        let told = Locked<[String]>([])
        let transport = RecordingTransport(clock: clock, onLoop: { message in told.withLock { $0.append(message) } })
        let delivered = Locked<[Int]>([])
        func send(_ request: TransportRequest, to transport: RecordingTransport) {
            transport.send(request) { result in delivered.withLock { $0.append((try? result.get())?.status ?? 0) } }
        }
        let limit = RecordingTransport.sameInstantLimit
        #expect(limit == 1_000, "the limit docs/sdk.md gives")
        let (one, two) = (batchRequest(events: 1), batchRequest(events: 2))
        for _ in 1..<limit {
            send(one, to: transport)
            send(two, to: transport)
        }
        #expect(told.withLock { $0 }.isEmpty && delivered.withLock { $0 }.allSatisfy { $0 == 200 }, "each request \(limit - 1) times")
        transport.enqueue(.status(503))
        send(one, to: transport)
        #expect(told.withLock { $0 } == ["RecordingTransport: the same request (its first event e) was sent \(limit) times while the clock stood still: "
            + "the client resends without waiting for a retry timer, and would loop forever"], "said at the limit's send")
        send(one, to: transport)
        #expect(delivered.withLock { $0.suffix(2) } == [0, 0], "network failures from the limit on")
        #expect(told.withLock { $0.count } == 1, "said once")
        #expect(transport.requests.count == 2 * limit, "every request is recorded")

        clock.advance(by: .seconds(1))
        send(one, to: transport)
        #expect(delivered.withLock { $0.last } == 503, "the clock moved: a retry, answered from the script the loop left alone")

        let unclocked = RecordingTransport(clock: nil, onLoop: { message in told.withLock { $0.append(message) } })
        for _ in 0...limit { send(one, to: unclocked) }
        #expect(told.withLock { $0.count } == 1, "without a clock nothing tells a loop from a retry")
    }

    @Test func lostResponsesAreLostOneEach() throws {
        let transport = CollectorTransport(collector: try Collector(allowList: ["a"], now: { 1 }))
        transport.loseResponses(2)
        let outcomes = Locked<[Bool]>([])
        for _ in 0..<3 {
            transport.send(batchRequest(events: 1)) { result in outcomes.withLock { $0.append((try? result.get()) != nil) } }
        }
        #expect(outcomes.withLock { $0 } == [false, false, true])
    }

    @Test func aBodyThatIsNotAJSONObjectIsNoBatch() {
        let request = TransportRequest(url: URL(string: "https://collector.example.com/v1/batch")!, body: Array("[1, 2]".utf8))
        #expect(request.batch == nil)
        #expect(batchRequest(events: 2).batch?.events.count == 2)
    }

    // MARK: - TemporaryDirectory

    @Test func aTemporaryDirectoryIsAFreshFolderInItsParentAndGoesWhenRemoved() throws {
        let scratch = try TemporaryDirectory(in: TestScratch.root)
        defer { scratch.remove() }
        let parent = scratch.appending("not/yet/made")
        let folder = try TemporaryDirectory(prefix: "kit", in: parent)
        #expect(folder.url.deletingLastPathComponent().standardizedFileURL.path == parent.standardizedFileURL.path)
        #expect(folder.url.lastPathComponent.hasPrefix("kit-"))
        #expect(folder.url.hasDirectoryPath)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        folder.remove()
        #expect(!FileManager.default.fileExists(atPath: folder.url.path))
        #expect(FileManager.default.fileExists(atPath: parent.path), "only the folder itself goes")
    }
}
