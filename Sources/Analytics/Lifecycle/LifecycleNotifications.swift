import Foundation
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// App lifecycle moments the SDK reacts to by itself.
public enum LifecycleTransition: Sendable, Equatable {
    /// Close the open visit (`background`) and flush.
    case background
    /// Close the open visit (`terminate`) and flush.
    case terminate
    /// Re-enter the top screen on a fresh clock.
    case foreground
}

/// The notification names that mean each transition. Transient states
/// (resign active, inactive) are deliberately absent: they change nothing.
public struct LifecycleNotifications: Sendable, Equatable {
    public var background: [Notification.Name]
    public var terminate: [Notification.Name]
    public var foreground: [Notification.Name]

    public init(background: [Notification.Name], terminate: [Notification.Name], foreground: [Notification.Name]) {
        self.background = background
        self.terminate = terminate
        self.foreground = foreground
    }

    /// UIKit's or AppKit's names; none on platforms without either.
    public static var platformDefault: LifecycleNotifications {
        #if canImport(UIKit) && !os(watchOS)
        LifecycleNotifications(
            background: [UIApplication.didEnterBackgroundNotification],
            terminate: [UIApplication.willTerminateNotification],
            foreground: [UIApplication.willEnterForegroundNotification]
        )
        #elseif canImport(AppKit)
        LifecycleNotifications(
            background: [NSApplication.didHideNotification],
            terminate: [NSApplication.willTerminateNotification],
            foreground: [NSApplication.didUnhideNotification]
        )
        #else
        LifecycleNotifications(background: [], terminate: [], foreground: [])
        #endif
    }
}
