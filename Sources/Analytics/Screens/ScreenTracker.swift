import Foundation

/// Counts time on screen with a stack (docs/screen-stack.md). It exists from app
/// launch, so navigation observers can be wired before `start()`; while
/// analytics is off every call does nothing.
///
/// ```swift
/// Analytics.shared.screens.enter("home")      // tab or ordinary navigation
/// Analytics.shared.screens.push("paywall")    // a sheet covers home
/// Analytics.shared.screens.pop()              // dismissed: home starts a new visit
/// ```
public final class ScreenTracker: Sendable {
    typealias Operation = @Sendable (inout ScreenStack, Duration, () -> UUID) -> [ScreenStack.Emission]

    private let perform: @Sendable (@escaping Operation) -> Void

    init(perform: @escaping @Sendable (@escaping Operation) -> Void) { self.perform = perform }

    /// The screen replaces the top: a tab switch or ordinary navigation.
    /// Entering the screen already on top does nothing, so an `onAppear` that
    /// fires again does not open a new visit. A nil or empty name is ignored.
    public func enter(_ screen: String?) {
        guard let screen, !screen.isEmpty else { return }
        perform { stack, now, newID in stack.enter(screen, at: now, newID: newID) }
    }

    /// The screen covers the top: a sheet, a modal, a pushed page.
    public func push(_ screen: String?) {
        guard let screen, !screen.isEmpty else { return }
        perform { stack, now, newID in stack.push(screen, at: now, newID: newID) }
    }

    /// The top is dismissed; the screen below starts a new visit.
    public func pop() {
        perform { stack, now, newID in stack.pop(at: now, newID: newID) }
    }

    /// The screen and everything above it are dismissed.
    public func pop(named screen: String) {
        perform { stack, now, newID in stack.pop(named: screen, at: now, newID: newID) }
    }

    /// A navigator replaced one route with another (Flutter's `didReplace`).
    public func replace(_ old: String, with new: String?) {
        guard let new, !new.isEmpty else { return }
        perform { stack, now, newID in stack.replace(old, with: new, at: now, newID: newID) }
    }

    /// A navigator removed a route (Flutter's `didRemove`).
    public func remove(_ screen: String) {
        perform { stack, now, newID in stack.remove(screen, at: now, newID: newID) }
    }
}
