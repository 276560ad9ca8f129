import AnalyticsSupport
import Foundation

/// Everything `Analytics.start(_:)` needs. Only the app id and the collector
/// endpoint are required; every seam has a live default.
///
/// ```swift
/// try Analytics.shared.start(Configuration(
///     appID: "com.example.app",
///     endpoint: URL(string: "https://collector.example.com")!
/// ))
/// ```
public struct Configuration: Sendable {
    /// The app's id on the collector's allow list.
    public var appID: String
    /// The collector's base URL; batches go to `{endpoint}/v1/batch`.
    public var endpoint: URL
    /// Where the queue, install id and opt-out flag live. Created if missing.
    /// Nil keeps everything in memory.
    public var storageDirectory: URL?
    /// Facts about the app and device added to every event.
    public var appInfo: AppInfo
    /// Keys stripped from every event on top of `ForbiddenKeys.defaults`.
    public var additionalForbiddenKeys: Set<String> = []
    /// Edits or drops (returns nil) each event after filtering, before any
    /// provider sees it. Forbidden keys it adds are stripped again.
    public var beforeSend: (@Sendable (TrackedEvent) -> TrackedEvent?)?
    /// Providers besides the first-party collector.
    public var providers: [any AnalyticsProvider] = []
    /// Set false to send only to `providers`.
    public var sendsToCollector = true
    /// Events per request and the size that triggers a send (1...500).
    public var batchSize = 25
    /// How long the oldest unsent event may wait.
    public var maximumBatchAge: Duration = .seconds(60)
    /// Most events kept; the oldest are dropped (and reported) beyond it.
    public var queueCapacity = 10_000
    /// Retry waits.
    public var backoff = Backoff()
    /// Called with everything the app should know; by default printed to
    /// standard error.
    public var onDiagnostic: @Sendable (AnalyticsDiagnostic) -> Void = { diagnostic in
        FileHandle.standardError.write(Data("[analytics] \(diagnostic)\n".utf8))
    }
    /// The notifications that mean background, terminate and foreground.
    public var lifecycle: LifecycleNotifications = .platformDefault
    /// The notification center the lifecycle adapter listens to.
    public var notificationCenter: NotificationCenter {
        get { center.value }
        set { center = UncheckedSendable(newValue) }
    }
    private var center = UncheckedSendable(NotificationCenter.default)
    /// The seams: time, timers, ids, jitter, network.
    public var transport: any Transport = URLSessionTransport()
    public var clock: any AnalyticsClock = SystemClock()
    /// Where the SDK's work runs: one serial queue. `package`, so only this
    /// package's testing kit replaces it (see `WorkScheduler`).
    package var scheduler: any WorkScheduler = DispatchWorkScheduler()
    /// How long a queue write waits for another process's lock on the
    /// database before the events go to memory (and the disk is tried again
    /// 5 s later). `package`: tests of a locked disk shorten it.
    package var storageBusyTimeout = SQLiteDatabase.defaultBusyTimeout
    /// The storage folder's file operations. `package`: tests make one fail.
    package var storageFiles: any StorageFiles = LocalStorageFiles()
    public var ids: UUIDGenerator = .timeOrdered()
    /// The install id's source: random, never a counter.
    public var installIDs: UUIDGenerator = .random
    public var jitter: Jitter = .live
    public var connectivity: any ConnectivitySource = Configuration.platformConnectivity()

    public init(appID: String, endpoint: URL, storageDirectory: URL? = Configuration.defaultStorageDirectory, appInfo: AppInfo = .current()) {
        self.appID = appID
        self.endpoint = endpoint
        self.storageDirectory = storageDirectory
        self.appInfo = appInfo
    }

    /// Application Support/analytics (on Linux, `~/.local/share/analytics`).
    public static var defaultStorageDirectory: URL? {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first?
            .appendingPathComponent("analytics", isDirectory: true)
    }

    /// `NWPathMonitor` where it exists, otherwise always online.
    public static func platformConnectivity() -> any ConnectivitySource {
        #if canImport(Network)
        PathMonitorConnectivity()
        #else
        AlwaysOnlineConnectivity()
        #endif
    }

    /// The batch URL: `{endpoint}/v1/batch`.
    var batchURL: URL { endpoint.appendingPathComponent("v1").appendingPathComponent("batch") }

    func validate() throws(AnalyticsError) {
        guard let scheme = endpoint.scheme?.lowercased(), ["http", "https"].contains(scheme), endpoint.host != nil else {
            throw .invalidEndpoint(endpoint.absoluteString)
        }
        guard !appID.isEmpty, !appID.contains(where: \.isWhitespace) else { throw .invalidAppID(appID) }
        guard (1...WireContract.maximumEventsPerBatch).contains(batchSize) else { throw .invalidBatchSize(batchSize) }
        guard queueCapacity >= 1 else { throw .invalidQueueCapacity(queueCapacity) }
    }
}

/// `Configuration` under a name that cannot clash: an app with a
/// `Configuration` type of its own cannot write `Analytics.Configuration`
/// (the module and its main class share the name `Analytics`, and the class
/// wins), so it writes `AnalyticsConfiguration` instead.
public typealias AnalyticsConfiguration = Configuration
