extension CollectorUploader {
    /// The first-party provider as a configuration describes it: the install
    /// id (created once, kept in `storage`), the queue on disk (or in memory),
    /// the delivery policy and the seams. Reports what it could not keep.
    static func make(configuration: Configuration, storage: StorageFolder?) -> CollectorUploader {
        let report = configuration.onDiagnostic
        let installID = InstallIDStore(directory: storage?.url).loadOrCreate(using: configuration.installIDs)
        if let failure = installID.persistenceFailure { report(.installIDNotPersisted(reason: failure)) }
        if let replaced = installID.replacedUnreadable { report(.installIDReplaced(reason: replaced)) }
        let clock = configuration.clock
        let queue = ResilientQueue(
            disk: storage?.openQueueDatabase(capacity: configuration.queueCapacity, now: clock.now(), busyTimeout: configuration.storageBusyTimeout),
            capacity: configuration.queueCapacity, uptime: { clock.uptime() }, report: report
        )
        return CollectorUploader(
            url: configuration.batchURL,
            encoder: BatchEncoder(appID: configuration.appID, installID: installID.id.wireString),
            queue: queue,
            policy: DeliveryMachine.Policy(
                batchSize: configuration.batchSize, maximumAge: configuration.maximumBatchAge, backoff: configuration.backoff
            ),
            uploadsAllowed: configuration.connectivity.status.allowsUpload,
            dependencies: .init(
                transport: configuration.transport, clock: clock, scheduler: configuration.scheduler,
                jitter: configuration.jitter, report: report
            )
        )
    }
}
