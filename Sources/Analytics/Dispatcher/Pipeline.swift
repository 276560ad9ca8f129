import AnalyticsSupport
import Foundation

/// One started run of the SDK. It only wires the parts, each a small type
/// of its own: `StorageFolder` (folder, queue database, opt-out flag),
/// `CollectorUploader.make` (install id, queue, delivery), `EventFilter`
/// (contract, forbidden keys, `beforeSend`, size), `Sessions`, `ScreenStack`
/// and its emissions, `LifecycleObserver`, and the connectivity source.
///
/// `@unchecked`: every `var` is read and written only from work handed to
/// `scheduler`, which is serial (the seam is `package` so no app can pass a
/// concurrent one); the `let`s are set in `init` and never change.
final class Pipeline: @unchecked Sendable {
    let configuration: Configuration
    var scheduler: any WorkScheduler { configuration.scheduler }
    var clock: any AnalyticsClock { configuration.clock }

    private var filter: EventFilter
    private var context: EventContext
    private var sessions = Sessions()
    private var screens = ScreenStack()
    /// The app's providers; the first-party uploader has its own slot.
    private var providers: [any AnalyticsProvider] = []
    private var uploader: CollectorUploader?
    private var lifecycle: LifecycleObserver?
    private var storage: StorageFolder?
    private var optedOut = false
    private var running = true
    /// Work from the app's threads, drained in order on the scheduler.
    private let inbox: Inbox

    init(configuration: Configuration) {
        self.configuration = configuration
        filter = EventFilter(configuration: configuration)
        inbox = Inbox(capacity: configuration.queueCapacity)
        context = EventContext(app: configuration.appInfo, network: configuration.connectivity.status.network)
    }

    private func report(_ diagnostic: AnalyticsDiagnostic) { configuration.onDiagnostic(diagnostic) }

    // MARK: - Hand-off from the app's threads

    /// Queues an event for the worker; never waits.
    func submitTrack(name: String, properties: EventProperties, id: UUID, at stamp: Stamp) {
        if inbox.add(.track(name: name, properties: properties, id: id, stamp: stamp)) { scheduleDrain() }
    }

    /// Queues other work for the worker, in order with the events.
    func submit(_ work: @escaping @Sendable () -> Void) {
        if inbox.add(.other(work)) { scheduleDrain() }
    }

    private func scheduleDrain() {
        scheduler.execute { [self] in drain() }
    }

    /// Runs everything the app handed over, in call order.
    private func drain() {
        while true {
            let (work, dropped) = inbox.take()
            if dropped > 0 { report(.queueOverflow(dropped: dropped)) }
            guard !work.isEmpty else { return }
            for item in work {
                switch item {
                case let .track(name, properties, id, stamp): track(name: name, properties: properties, id: id, at: stamp)
                case .other(let body): body()
                }
            }
        }
    }

    // MARK: - Start and stop

    /// Opens storage and wires providers, connectivity and lifecycle. Runs on
    /// the scheduler before any tracked event.
    func open(optOut: Bool?) {
        storage = StorageFolder(configuration.storageDirectory, files: configuration.storageFiles, report: configuration.onDiagnostic)
        if let optOut { setOptOutFlag(optOut) } else { optedOut = storage?.isOptedOut ?? false }
        providers = configuration.providers
        if configuration.sendsToCollector {
            let uploader = CollectorUploader.make(configuration: configuration, storage: storage)
            self.uploader = uploader
            if optedOut { uploader.purge() }
            uploader.resume()
        }
        configuration.connectivity.observe { [weak self] status in
            guard let self else { return }
            self.submit { self.connectivityChanged(status) }
        }
        lifecycle = LifecycleObserver(center: configuration.notificationCenter, names: configuration.lifecycle) { [self] transition in
            let stamp = Stamp(clock: clock)
            submit { [self] in handle(transition, at: stamp) }
        }
    }

    /// Closes the visit, flushes every provider and lets go of storage,
    /// observers and providers; `done` runs once the last upload attempt
    /// has finished.
    func stop(at stamp: Stamp, then done: @escaping () -> Void = {}) {
        emit(screens.stop(at: stamp.uptime), at: stamp)
        lifecycle?.cancel()
        lifecycle = nil
        running = false
        for provider in providers { provider.flush() }
        if let uploader { uploader.stop(then: done) } else { done() }
        uploader = nil
        providers = []
    }

    // MARK: - Events

    func track(name: String, properties: EventProperties, id: UUID, at stamp: Stamp) {
        guard running, !optedOut, let kept = filter.properties(name: name, properties) else { return }
        let stamped = TrackedEvent(
            eventID: id, name: name, timestamp: stamp.timestamp,
            sessionID: sessions.id(at: stamp.uptime, newID: { configuration.ids() }), properties: kept, context: context
        )
        guard let (event, encoded) = filter.finish(stamped) else { return }
        // The uploader takes the bytes the size rule was checked on.
        uploader?.receive(event, encoded: encoded)
        for provider in providers { provider.receive(event) }
    }

    func flush() {
        uploader?.flush()
        for provider in providers { provider.flush() }
    }

    /// Flushes; `done` runs once the uploads the flush started have finished.
    func flush(then done: @escaping () -> Void) {
        for provider in providers { provider.flush() }
        if let uploader { uploader.flush(then: done) } else { done() }
    }

    func setOptOut(_ optOut: Bool) {
        setOptOutFlag(optOut)
        guard optOut else { return }
        uploader?.purge()
        providers.forEach { $0.purge() }
    }

    // MARK: - Screens and lifecycle

    func updateScreens(at stamp: Stamp, _ operation: (inout ScreenStack, Duration, () -> UUID) -> [ScreenStack.Emission]) {
        guard running, !optedOut else { return }
        emit(operation(&screens, stamp.uptime, { configuration.ids() }), at: stamp)
    }

    func handle(_ transition: LifecycleTransition, at stamp: Stamp) {
        guard running else { return }
        switch transition {
        case .background:
            emit(screens.leaveForeground(.background, at: stamp.uptime), at: stamp)
            flush()
        case .terminate:
            emit(screens.leaveForeground(.terminate, at: stamp.uptime), at: stamp)
            flush()
        case .foreground:
            emit(screens.returnToForeground(at: stamp.uptime, newID: { configuration.ids() }), at: stamp)
        }
    }

    private func emit(_ emissions: [ScreenStack.Emission], at stamp: Stamp) {
        for emission in emissions {
            let (name, properties) = emission.event
            track(name: name, properties: properties, id: configuration.ids(), at: stamp)
        }
    }

    // MARK: - Helpers

    private func connectivityChanged(_ status: NetworkStatus) {
        guard running else { return }
        context.network = status.network
        uploader?.uploadsAllowedChanged(status.allowsUpload)
    }

    private func setOptOutFlag(_ optOut: Bool) {
        optedOut = optOut
        storage?.persistOptOut(optOut)
    }
}
