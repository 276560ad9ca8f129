/// The kind of network the device is on, as reported in `context.network`.
public enum NetworkType: String, Sendable, Equatable {
    case wifi
    case cellular
    case ethernet
    case offline
    case unknown
}

/// What the device allows right now.
public struct NetworkStatus: Sendable, Equatable {
    public var network: NetworkType
    /// Low-power (battery saver) mode: events wait on disk.
    public var isLowPower: Bool

    public init(network: NetworkType, isLowPower: Bool = false) {
        self.network = network
        self.isLowPower = isLowPower
    }

    /// True when a batch may go out.
    public var allowsUpload: Bool { network != .offline && !isLowPower }
}

/// Tells the SDK the network status and every change to it.
///
/// On Apple platforms `PathMonitorConnectivity` reads `NWPathMonitor` and the
/// low-power state; elsewhere, and in tests, inject your own.
public protocol ConnectivitySource: AnyObject, Sendable {
    /// The status now.
    var status: NetworkStatus { get }
    /// Calls `handler` on every later change. The SDK calls this once.
    func observe(_ handler: @escaping @Sendable (NetworkStatus) -> Void)
}

/// A source that always reports an online network of unknown type: the
/// default where the platform offers no monitor (Linux).
public final class AlwaysOnlineConnectivity: ConnectivitySource {
    public init() {}
    public var status: NetworkStatus { NetworkStatus(network: .unknown) }
    public func observe(_ handler: @escaping @Sendable (NetworkStatus) -> Void) {}
}
