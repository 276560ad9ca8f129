import Analytics
import Foundation

extension Configuration {
    /// A configuration whose seams are all under the test's control: the
    /// manual clock runs work inline and times everything, the transport
    /// records, ids never collide with another client's, jitter is fixed, and
    /// diagnostics go to `onDiagnostic`. The install id keeps its real
    /// random source.
    public static func testing(
        appID: String = "com.example.app",
        endpoint: URL = URL(string: "https://collector.example.com")!,
        storage: URL?,
        clock: ManualClock,
        transport: any Transport,
        connectivity: any ConnectivitySource = ManualConnectivity(),
        notificationCenter: NotificationCenter = NotificationCenter(),
        onDiagnostic: @escaping @Sendable (AnalyticsDiagnostic) -> Void = { _ in }
    ) -> Configuration {
        var configuration = Configuration(
            appID: appID, endpoint: endpoint, storageDirectory: storage,
            appInfo: .example
        )
        configuration.clock = clock
        configuration.scheduler = clock
        configuration.transport = transport
        configuration.ids = .unique()
        configuration.jitter = .constant(0.5)
        configuration.connectivity = connectivity
        configuration.notificationCenter = notificationCenter
        configuration.lifecycle = .testing
        configuration.onDiagnostic = onDiagnostic
        return configuration
    }
}

extension AppInfo {
    /// Fixed app and device facts, so a test's expected bytes do not depend
    /// on the machine: app 2.4.0 on an iPhone15,2 with iOS 18.1, pt-BR, production.
    public static let example = AppInfo(
        appVersion: "2.4.0", platform: "iOS", osVersion: "18.1", deviceModel: "iPhone15,2", locale: "pt-BR", environment: .production
    )
}

extension LifecycleNotifications {
    /// Names a test posts to its own `NotificationCenter`.
    public static let testing = LifecycleNotifications(
        background: [Notification.Name("test.didEnterBackground")],
        terminate: [Notification.Name("test.willTerminate")],
        foreground: [Notification.Name("test.willEnterForeground")]
    )
}
