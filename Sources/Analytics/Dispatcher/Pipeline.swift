import Foundation

/// One started run of the SDK: storage, session, screen stack and providers.
/// Everything but the `let` seams is confined to the work scheduler.
final class Pipeline: @unchecked Sendable {
    static let optOutFileName = "opted-out"

    let configuration: Configuration
    var scheduler: any WorkScheduler { configuration.scheduler }
    var clock: any AnalyticsClock { configuration.clock }

    private let validator: EventValidator
    private var context: EventContext
    private var session: SessionClock?
    private var screens = ScreenStack()
    private var providers: [any AnalyticsProvider] = []
    private var uploader: CollectorUploader?
    private var lifecycle: LifecycleObserver?
    private var storage: URL?
    private var optedOut = false
    private var running = true

    init(configuration: Configuration) {
        self.configuration = configuration
        validator = EventValidator(additionalForbiddenKeys: configuration.additionalForbiddenKeys)
        let info = configuration.appInfo
        context = EventContext(
            appVersion: info.appVersion, platform: info.platform, osVersion: info.osVersion,
            deviceModel: info.deviceModel, locale: info.locale,
            network: configuration.connectivity.status.network, environment: info.environment
        )
    }

    private func report(_ diagnostic: AnalyticsDiagnostic) { configuration.onDiagnostic(diagnostic) }

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
            let uploader = CollectorUploader(
                url: configuration.batchURL,
                encoder: BatchEncoder(appID: configuration.appID, installID: installID.id.wireString),
                queue: openQueue(),
                capacity: configuration.queueCapacity,
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
        let scheduler = scheduler
        configuration.connectivity.observe { [weak self] status in
            guard let self else { return }
            scheduler.execute { self.connectivityChanged(status) }
        }
        lifecycle = LifecycleObserver(center: configuration.notificationCenter, names: configuration.lifecycle) { [self] transition in
            let stamp = Stamp(clock: clock)
            scheduler.execute { [self] in handle(transition, at: stamp) }
        }
    }

    func stop(at stamp: Stamp) {
        emit(screens.stop(at: stamp.uptime), at: stamp)
        lifecycle?.cancel()
        lifecycle = nil
        running = false
        for provider in providers where provider !== uploader { provider.flush() }
        uploader?.stop()
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
        for provider in providers { provider.receive(event) }
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

    private func openQueue() -> any EventQueue {
        guard let storage else { return MemoryEventQueue(capacity: configuration.queueCapacity) }
        let path = storage.appendingPathComponent(SQLiteEventQueue.fileName).path
        do {
            return try SQLiteEventQueue(path: path, capacity: configuration.queueCapacity)
        } catch {
            report(.storageUnavailable(reason: "\(error)"))
            return MemoryEventQueue(capacity: configuration.queueCapacity)
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
        } else {
            try? FileManager.default.removeItem(at: file)
        }
    }
}
