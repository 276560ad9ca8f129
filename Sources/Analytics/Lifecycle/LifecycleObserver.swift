import Foundation

/// Subscribes to the lifecycle notifications on start and forwards them to
/// the dispatcher; unsubscribes on stop. The app wires nothing.
///
/// `@unchecked`: `tokens` is written in `init` and by `cancel()`, which the
/// pipeline calls on its serial scheduler (and `deinit`, when no one else
/// holds the observer); `NotificationCenter` is thread-safe.
final class LifecycleObserver: @unchecked Sendable {
    private let center: NotificationCenter
    private var tokens: [NSObjectProtocol] = []

    init(center: NotificationCenter, names: LifecycleNotifications, handle: @escaping @Sendable (LifecycleTransition) -> Void) {
        self.center = center
        let pairs = names.background.map { ($0, LifecycleTransition.background) }
            + names.terminate.map { ($0, .terminate) }
            + names.foreground.map { ($0, .foreground) }
        tokens = pairs.map { name, transition in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in handle(transition) }
        }
    }

    func cancel() {
        tokens.forEach(center.removeObserver)
        tokens.removeAll()
    }

    deinit { cancel() }
}
