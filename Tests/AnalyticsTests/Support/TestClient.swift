import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Foundation
import TestSupport

/// A real `Analytics` client wired to a manual clock, a recording transport
/// and a storage folder of the test's own.
final class TestClient: Sendable {
    let analytics = Analytics()
    let clock: ManualClock
    let transport: RecordingTransport
    let connectivity: ManualConnectivity
    let center = NotificationCenter()
    let storage: URL?
    private let diagnosticsBox = Locked<[AnalyticsDiagnostic]>([])

    var diagnostics: [AnalyticsDiagnostic] { diagnosticsBox.withLock { $0 } }

    init(storage: URL?, clock: ManualClock = ManualClock(), network: NetworkType = .wifi,
         transport: RecordingTransport? = nil, configure: (inout Configuration) -> Void = { _ in }) throws
    {
        self.clock = clock
        self.storage = storage
        self.transport = transport ?? RecordingTransport(clock: clock)
        connectivity = ManualConnectivity(network)
        let box = diagnosticsBox
        var configuration = Configuration.testing(
            storage: storage, clock: clock, transport: self.transport, connectivity: connectivity,
            notificationCenter: center, onDiagnostic: { diagnostic in box.withLock { $0.append(diagnostic) } }
        )
        configure(&configuration)
        try analytics.start(configuration)
    }

    /// Posts one of the testing lifecycle notifications.
    func post(_ transition: LifecycleTransition) {
        let names = LifecycleNotifications.testing
        let name = switch transition {
        case .background: names.background[0]
        case .terminate: names.terminate[0]
        case .foreground: names.foreground[0]
        }
        center.post(name: name, object: nil)
    }

    func track(_ count: Int, startingAt first: Int = 0) {
        for index in first..<(first + count) {
            analytics.track(FinancialEvent.checkoutFailed(errorCode: index, reason: "declined"))
        }
    }
}

/// A storage folder for one test, removed when the test ends.
func withStorage<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = try TemporaryDirectory(in: TestScratch.root)
    defer { directory.remove() }
    return try body(directory.url)
}

