import AnalyticsSupport
import Analytics

/// Records what app code tracked, for a presenter's unit test.
///
/// A spy proves the app *asked* for an event. It cannot prove the event
/// reaches the wire: emptying the real adapter leaves a spy test green. The
/// SDK's own tests therefore run the real client into `RecordingTransport`
/// and read the bytes.
///
/// ```swift
/// let spy = AnalyticsSpy()
/// CardPresenter(analytics: spy).activate()
/// #expect(spy.tracked.map(\.name) == ["financial_card_activated"])
/// ```
public final class AnalyticsSpy: AnalyticsTracking, AnalyticsProvider, Sendable {
    /// One recorded call.
    public struct Record: Sendable, Equatable {
        public var name: String
        public var properties: EventProperties

        public init(name: String, properties: EventProperties) {
            self.name = name
            self.properties = properties
        }
    }

    private let state = Locked<(tracked: [Record], received: [TrackedEvent], flushes: Int)>(([], [], 0))

    public init() {}

    /// Events app code passed to `track`.
    public var tracked: [Record] { state.withLock { $0.tracked } }
    /// Events the dispatcher delivered when the spy is registered as a provider.
    public var received: [TrackedEvent] { state.withLock { $0.received } }
    /// How many times the dispatcher asked providers to flush.
    public var flushCount: Int { state.withLock { $0.flushes } }

    public func track(_ event: some AnalyticsEvent) {
        let record = Record(name: event.name, properties: event.properties)
        state.withLock { $0.tracked.append(record) }
    }

    public func receive(_ event: TrackedEvent) {
        state.withLock { $0.received.append(event) }
    }

    public func flush() {
        state.withLock { $0.flushes += 1 }
    }
}
