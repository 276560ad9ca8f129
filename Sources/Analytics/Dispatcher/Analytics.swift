import AnalyticsSupport
import Foundation

/// The one facade apps talk to. It exists from launch (`Analytics.shared`),
/// is inert until `start(_:)`, and never makes the caller wait on disk or
/// network: `track` stamps the event and hands it to the SDK's worker.
///
/// ```swift
/// try Analytics.shared.start(Configuration(appID: "com.example.app",
///                                          endpoint: URL(string: "https://collector.example.com")!))
/// Analytics.shared.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
/// Analytics.shared.screens.enter("home")
/// ```
public final class Analytics: AnalyticsTracking, Sendable {
    /// The app-wide instance.
    public static let shared = Analytics()

    /// The screen tracker; safe to wire before `start(_:)`.
    public let screens: ScreenTracker

    private let state: Locked<State>

    struct State {
        var pipeline: Pipeline?
        /// An opt-out choice made while stopped, applied at the next start.
        var pendingOptOut: Bool?
    }

    /// A separate instance (tests, app extensions). Apps normally use `shared`.
    public init() {
        let state = Locked(State())
        self.state = state
        screens = ScreenTracker(state: state)
    }

    /// True between `start(_:)` and `stop()`.
    public var isStarted: Bool { state.withLock { $0.pipeline != nil } }

    /// Starts collecting with `configuration`. Storage is opened on the SDK's
    /// worker; problems there are reported as diagnostics, never thrown.
    /// - Throws: `AnalyticsError` for a configuration that cannot work.
    public func start(_ configuration: Configuration) throws(AnalyticsError) {
        try configuration.validate()
        let pipeline = Pipeline(configuration: configuration)
        let optOut: Bool?? = state.withLock { state in
            guard state.pipeline == nil else { return nil }
            state.pipeline = pipeline
            defer { state.pendingOptOut = nil }
            return .some(state.pendingOptOut)
        }
        guard let optOut else { throw .alreadyStarted }
        pipeline.submit { pipeline.open(optOut: optOut) }
    }

    /// Closes the open screen visit, flushes, empties the screen stack and
    /// stops collecting. Queued events stay on disk for the next start.
    /// Returns at once; `stopAndWait()` waits for the end.
    public func stop() {
        stop(completion: {})
    }

    /// `stop()`, then `completion` (on the SDK's worker) once every event
    /// tracked before the call is on disk and the last upload attempt has
    /// finished (delivered, or kept for the next start). Called at once when
    /// analytics was not started.
    public func stop(completion: @escaping @Sendable () -> Void) {
        guard let pipeline = state.withLock({ state in defer { state.pipeline = nil }; return state.pipeline }) else { return completion() }
        let stamp = Stamp(clock: pipeline.clock)
        pipeline.submit { pipeline.stop(at: stamp, then: completion) }
    }

    /// `stop()`, returning once every event tracked before the call is on
    /// disk and the last upload attempt has finished. A command-line tool
    /// calls this before it exits.
    ///
    /// Named apart from `stop()` on purpose: with an `async` overload of the
    /// same name, `await stop()` in a context the compiler takes as
    /// synchronous (top-level code of `main.swift`) silently calls the form
    /// that does not wait, with only a warning.
    public func stopAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            stop(completion: { continuation.resume() })
        }
    }

    /// Reports an event. Returns at once; invalid events are reported through
    /// `Configuration.onDiagnostic` and never queued.
    public func track(_ event: some AnalyticsEvent) {
        guard let pipeline = state.withLock({ $0.pipeline }) else { return }
        let stamp = Stamp(clock: pipeline.clock)
        let id = pipeline.configuration.ids()
        let name = event.name
        let properties = event.properties
        pipeline.submitTrack(name: name, properties: properties, id: id, at: stamp)
    }

    /// Sends everything queued now. Returns at once; `flushAndWait()` waits.
    public func flush() {
        guard let pipeline = state.withLock({ $0.pipeline }) else { return }
        pipeline.submit { pipeline.flush() }
    }

    /// Sends everything queued now, then calls `completion` (on the SDK's
    /// worker) once every event tracked before the call is on disk and the
    /// uploads this flush started have finished: delivered, or kept for
    /// retry (offline, or the collector failing). Called at once when
    /// analytics is not started.
    public func flush(completion: @escaping @Sendable () -> Void) {
        guard let pipeline = state.withLock({ $0.pipeline }) else { return completion() }
        pipeline.submit { pipeline.flush(then: completion) }
    }

    /// `flush()`, returning when every event tracked before the call is on
    /// disk and the uploads it started have finished (delivered, or kept for
    /// retry). `track` stays non-blocking; only the caller of this waits.
    /// (Named apart from `flush()` for the reason given at `stopAndWait()`.)
    public func flushAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flush(completion: { continuation.resume() })
        }
    }

    /// Opting out stops collection and purges every queued event; the choice
    /// is kept in the storage directory across launches.
    public func setOptOut(_ optOut: Bool) {
        guard let pipeline = state.withLock({ state -> Pipeline? in
            if state.pipeline == nil { state.pendingOptOut = optOut }
            return state.pipeline
        }) else { return }
        pipeline.submit { pipeline.setOptOut(optOut) }
    }

    /// Reports a lifecycle transition by hand, for apps whose lifecycle does
    /// not post the configured notifications.
    public func handle(_ transition: LifecycleTransition) {
        guard let pipeline = state.withLock({ $0.pipeline }) else { return }
        let stamp = Stamp(clock: pipeline.clock)
        pipeline.submit { pipeline.handle(transition, at: stamp) }
    }
}

extension ScreenTracker {
    convenience init(state: Locked<Analytics.State>) {
        self.init { operation in
            guard let pipeline = state.withLock({ $0.pipeline }) else { return }
            let stamp = Stamp(clock: pipeline.clock)
            pipeline.submit { pipeline.updateScreens(at: stamp, operation) }
        }
    }
}
