import AnalyticsSupport

/// The global facts the dispatcher adds to every event.
///
/// The app and device facts are the `AppInfo` read at `start`; the network
/// is the one thing that changes while the app runs.
public struct EventContext: Sendable, Equatable {
    /// App version, platform, OS, device model, locale and environment.
    public var app: AppInfo
    public var network: NetworkType
    /// `name/version` of this SDK.
    public var sdk: String

    public init(app: AppInfo, network: NetworkType, sdk: String = SDKInfo.identifier) {
        self.app = app
        self.network = network
        self.sdk = sdk
    }

    /// The `context` object's JSON bytes.
    var wireBytes: [UInt8] {
        JSONWriter.encode(.object([
            "app_version": .string(app.appVersion),
            "platform": .string(app.platform),
            "os_version": .string(app.osVersion),
            "device_model": .string(app.deviceModel),
            "locale": .string(app.locale),
            "network": .string(network.rawValue),
            "environment": .string(app.environment.rawValue),
            "sdk": .string(sdk),
        ]))
    }
}

/// This SDK's name and version as sent in `context.sdk`.
public enum SDKInfo {
    public static let name = "swift-analytics"
    public static let version = "1.0.0"
    public static let identifier = "\(name)/\(version)"
}
