import Foundation

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

    /// UIKit's names (iOS, tvOS, visionOS, Mac Catalyst) or AppKit's
    /// (macOS: hidden and unhidden stand for background and foreground);
    /// none elsewhere. The names are spelled out, so the SDK needs neither
    /// framework nor the main actor to know them; the same adapter runs on
    /// Linux with names a test posts.
    public static var platformDefault: LifecycleNotifications {
        #if os(iOS) || os(tvOS) || os(visionOS) || targetEnvironment(macCatalyst)
        .uiKit
        #elseif os(macOS)
        .appKit
        #else
        LifecycleNotifications(background: [], terminate: [], foreground: [])
        #endif
    }

    /// `UIApplication.didEnterBackgroundNotification` and friends.
    public static let uiKit = LifecycleNotifications(
        background: [Notification.Name("UIApplicationDidEnterBackgroundNotification")],
        terminate: [Notification.Name("UIApplicationWillTerminateNotification")],
        foreground: [Notification.Name("UIApplicationWillEnterForegroundNotification")]
    )

    /// `NSApplication.didHideNotification` and friends.
    public static let appKit = LifecycleNotifications(
        background: [Notification.Name("NSApplicationDidHideNotification")],
        terminate: [Notification.Name("NSApplicationWillTerminateNotification")],
        foreground: [Notification.Name("NSApplicationDidUnhideNotification")]
    )
}
