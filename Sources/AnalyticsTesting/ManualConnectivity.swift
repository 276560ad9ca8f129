import AnalyticsSupport
import Analytics

/// A connectivity source a test switches by hand.
///
/// ```swift
/// let network = ManualConnectivity(.offline)
/// network.set(NetworkStatus(network: .wifi))   // the SDK sends what waited
/// ```
public final class ManualConnectivity: ConnectivitySource, Sendable {
    private let state: Locked<(status: NetworkStatus, handlers: [@Sendable (NetworkStatus) -> Void])>

    public init(_ network: NetworkType = .wifi, isLowPower: Bool = false) {
        state = Locked((NetworkStatus(network: network, isLowPower: isLowPower), []))
    }

    public var status: NetworkStatus { state.withLock { $0.status } }

    public func observe(_ handler: @escaping @Sendable (NetworkStatus) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    /// Changes the status and tells every observer.
    public func set(_ status: NetworkStatus) {
        let handlers = state.withLock { state -> [@Sendable (NetworkStatus) -> Void] in
            state.status = status
            return state.handlers
        }
        handlers.forEach { $0(status) }
    }
}
