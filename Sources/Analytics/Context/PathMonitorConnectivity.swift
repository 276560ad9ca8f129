#if canImport(Network)
import AnalyticsSupport
import Foundation
import Network

/// Network status from `NWPathMonitor`, low power from `ProcessInfo`.
///
/// `@unchecked`: `NWPathMonitor` is not marked Sendable but is used only
/// from its own queue after `init`; `powerObserver` is written in `init` and
/// read in `deinit`; the status and handlers are in a `Locked` box.
public final class PathMonitorConnectivity: ConnectivitySource, @unchecked Sendable {
    private let monitor = NWPathMonitor()
    private let queue = DispatchQueue(label: "analytics.connectivity")
    private let state = Locked<(status: NetworkStatus, handlers: [@Sendable (NetworkStatus) -> Void])>(
        (NetworkStatus(network: .unknown), [])
    )
    private var powerObserver: NSObjectProtocol?

    public init() {
        monitor.pathUpdateHandler = { [weak self] path in self?.update(network: Self.network(of: path)) }
        monitor.start(queue: queue)
        powerObserver = NotificationCenter.default.addObserver(
            forName: Notification.Name.NSProcessInfoPowerStateDidChange, object: nil, queue: nil
        ) { [weak self] _ in self?.update(network: nil) }
    }

    deinit {
        monitor.cancel()
        if let powerObserver { NotificationCenter.default.removeObserver(powerObserver) }
    }

    public var status: NetworkStatus { state.withLock { $0.status } }

    public func observe(_ handler: @escaping @Sendable (NetworkStatus) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    private func update(network: NetworkType?) {
        let (status, handlers) = state.withLock { value -> (NetworkStatus, [@Sendable (NetworkStatus) -> Void]) in
            value.status = NetworkStatus(
                network: network ?? value.status.network,
                isLowPower: ProcessInfo.processInfo.isLowPowerModeEnabled
            )
            return (value.status, value.handlers)
        }
        handlers.forEach { $0(status) }
    }

    private static func network(of path: NWPath) -> NetworkType {
        guard path.status == .satisfied else { return .offline }
        if path.usesInterfaceType(.wifi) { return .wifi }
        if path.usesInterfaceType(.cellular) { return .cellular }
        if path.usesInterfaceType(.wiredEthernet) { return .ethernet }
        return .unknown
    }
}
#endif
