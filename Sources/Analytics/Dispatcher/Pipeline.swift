import AnalyticsSupport
import Foundation

/// One started run of the SDK: storage, session, screen stack and providers.
///
/// `@unchecked`: every `var` is read and written only from work handed to
/// `scheduler`, which is serial (the seam is `package` so no app can pass a
/// concurrent one); the `let`s are set in `init` and never change.
final class Pipeline: @unchecked Sendable {
    static let optOutFileName = "opted-out"

    let configuration: Configuration
    var scheduler: any WorkScheduler { configuration.scheduler }
    var clock: any AnalyticsClock { configuration.clock }

    private let validator: EventValidator
    private var encoder = EventEncoder()
    private var context: EventContext
    private var session: SessionClock?
    private var screens = ScreenStack()
    private var providers: [any AnalyticsProvider] = []
    private var uploader: CollectorUploader?
    private var lifecycle: LifecycleObserver?
    private var storage: URL?
    private var optedOut = false
    private var running = true
    /// Work from the app's threads, drained in order on the scheduler.
    private let inbox: Inbox

    init(configuration: Configuration) {
        self.configuration = configuration
        validator = EventValidator(additionalForbiddenKeys: configuration.additionalForbiddenKeys)
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
        storage = prepareStorage()
        if let optOut { persistOptOut(optOut) } else { optedOut = storage.map(Self.readOptOut) ?? false }
        providers = configuration.providers
        if configuration.sendsToCollector {
            let installID = InstallIDStore(directory: storage).loadOrCreate(using: configuration.installIDs)
            if let failure = installID.persistenceFailure { report(.installIDNotPersisted(reason: failure)) }
            if let replaced = installID.replacedUnreadable { report(.installIDReplaced(reason: replaced)) }
            let uploader = CollectorUploader(
                url: configuration.batchURL,
                encoder: BatchEncoder(appID: configuration.appID, installID: installID.id.wireString),
                queue: openQueue(),
                policy: DeliveryMachine.Policy(
                    batchSize: configuration.batchSize, maximumAge: configuration.maximumBatchAge, backoff: configuration.backoff
                ),
                uploadsAllowed: configuration.connectivity.status.allowsUpload,
                dependencies: .init(
                    transport: configuration.transport, clock: configuration.clock, scheduler: configuration.scheduler,
                    jitter: configuration.jitter, report: configuration.onDiagnostic
                )
            )
            self.uploader = uploader
            providers.insert(uploader, at: 0)
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
        for provider in providers where provider !== uploader { provider.flush() }
        if let uploader { uploader.stop(then: done) } else { done() }
        uploader = nil
        providers = []
    }

    // MARK: - Events

    func track(name: String, properties: EventProperties, id: UUID, at stamp: Stamp) {
        guard running, !optedOut, let kept = filter(name: name, properties: properties) else { return }
        var event = TrackedEvent(
            eventID: id, name: name, timestamp: stamp.timestamp, sessionID: sessionID(at: stamp.uptime),
            properties: kept, context: context
        )
        if let beforeSend = configuration.beforeSend {
            guard let edited = beforeSend(event) else { return report(.eventDroppedByScrubber(name: name)) }
            guard let rekept = filter(name: edited.name, properties: edited.properties) else { return }
            event = edited
            event.properties = rekept
        }
        // The size rule needs the final bytes: checked here, before any
        // provider, and the bytes go on to the collector provider.
        let encoded = encoder.encode(event)
        if let failure = EventValidator.checkSize(of: encoded) {
            return report(.eventRejected(name: event.name, reason: failure))
        }
        for provider in providers {
            if let uploader, provider === uploader { uploader.receive(event, encoded: encoded) } else { provider.receive(event) }
        }
    }

    /// The properties that may leave the device, reporting what was stripped;
    /// nil (reported) when the event breaks the contract.
    private func filter(name: String, properties: EventProperties) -> EventProperties? {
        switch validator.filter(name: name, properties: properties) {
        case .failure(let reason):
            report(.eventRejected(name: name, reason: reason))
            return nil
        case .success(let result):
            if !result.strippedKeys.isEmpty { report(.keysStripped(event: name, keys: result.strippedKeys)) }
            return result.properties
        }
    }

    func flush() {
        for provider in providers { provider.flush() }
    }

    /// Flushes; `done` runs once the uploads the flush started have finished.
    func flush(then done: @escaping () -> Void) {
        for provider in providers where provider !== uploader { provider.flush() }
        if let uploader { uploader.flush(then: done) } else { done() }
    }

    func setOptOut(_ optOut: Bool) {
        persistOptOut(optOut)
        if optOut { providers.forEach { $0.purge() } }
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
            switch emission {
            case let .enter(screen, visitID, modal):
                track(name: "screen_enter", properties: [
                    "screen": .string(screen), "visit_id": .string(visitID.wireString), "modal": .bool(modal),
                ], id: configuration.ids(), at: stamp)
            case let .exit(screen, visitID, durationMs, reason):
                track(name: "screen_exit", properties: [
                    "screen": .string(screen), "visit_id": .string(visitID.wireString),
                    "duration_ms": .integer(durationMs), "reason": .string(reason.rawValue),
                ], id: configuration.ids(), at: stamp)
            }
        }
    }

    // MARK: - Helpers

    private func sessionID(at uptime: Duration) -> UUID {
        if session == nil { session = SessionClock(id: configuration.ids(), at: uptime) }
        return session!.touch(at: uptime, newID: { configuration.ids() })
    }

    private func connectivityChanged(_ status: NetworkStatus) {
        guard running else { return }
        context.network = status.network
        uploader?.uploadsAllowedChanged(status.allowsUpload)
    }

    private func prepareStorage() -> URL? {
        guard let directory = configuration.storageDirectory else { return nil }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory
        } catch {
            report(.storageUnavailable(reason: "cannot create \(directory.path): \(error.localizedDescription)"))
            return nil
        }
    }

    /// The queue on disk, or in memory when no database can be had. A file
    /// that is not a database (or a damaged one) is moved aside, kept for
    /// inspection, and a fresh queue started: it would fail every launch.
    private func openQueue() -> ResilientQueue {
        ResilientQueue(disk: openDiskQueue(), capacity: configuration.queueCapacity, uptime: { [clock] in clock.uptime() },
                       report: configuration.onDiagnostic)
    }

    private func openDiskQueue() -> SQLiteEventQueue? {
        guard let storage else { return nil }
        let file = storage.appendingPathComponent(SQLiteEventQueue.fileName)
        do {
            return try SQLiteEventQueue(path: file.path, capacity: configuration.queueCapacity)
        } catch where SQLiteDatabase.isCorruption(error) {
            let stamp = EpochMilliseconds.of(clock.now())
            let aside = storage.appendingPathComponent("\(SQLiteEventQueue.fileName).unreadable-\(stamp)")
            do {
                try FileManager.default.moveItem(at: file, to: aside)
                for suffix in ["-wal", "-shm"] {
                    try? FileManager.default.removeItem(at: URL(fileURLWithPath: file.path + suffix))
                }
                let fresh = try SQLiteEventQueue(path: file.path, capacity: configuration.queueCapacity)
                report(.storageRepaired(movedTo: aside.path))
                return fresh
            } catch {
                report(.storageUnavailable(reason: "\(file.path) cannot be read and cannot be moved aside: \(error)"))
                return nil
            }
        } catch {
            report(.storageUnavailable(reason: "\(error)"))
            return nil
        }
    }

    private static func readOptOut(in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(optOutFileName).path)
    }

    private func persistOptOut(_ optOut: Bool) {
        optedOut = optOut
        guard let storage else { return }
        let file = storage.appendingPathComponent(Self.optOutFileName)
        if optOut {
            if !FileManager.default.createFile(atPath: file.path, contents: Data()) {
                report(.storageUnavailable(reason: "cannot write \(file.path): the opt-out holds for this run only"))
            }
        } else if FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                report(.storageUnavailable(reason: "cannot delete \(file.path): the opt-in holds for this run only; the next launch starts opted out"))
            }
        }
    }
}
