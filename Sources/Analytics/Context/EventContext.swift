import AnalyticsSupport

/// The global facts the dispatcher adds to every event.
public struct EventContext: Sendable, Equatable {
    public var appVersion: String
    public var platform: String
    public var osVersion: String
    public var deviceModel: String
    public var locale: String
    public var network: NetworkType
    public var environment: AppEnvironment
    /// `name/version` of this SDK.
    public var sdk: String

    public init(
        appVersion: String, platform: String, osVersion: String, deviceModel: String,
        locale: String, network: NetworkType, environment: AppEnvironment, sdk: String = SDKInfo.identifier
    ) {
        self.appVersion = appVersion
        self.platform = platform
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.locale = locale
        self.network = network
        self.environment = environment
        self.sdk = sdk
    }

    /// The `context` object's JSON bytes.
    var wireBytes: [UInt8] {
        JSONWriter.encode(.object([
            "app_version": .string(appVersion),
            "platform": .string(platform),
            "os_version": .string(osVersion),
            "device_model": .string(deviceModel),
            "locale": .string(locale),
            "network": .string(network.rawValue),
            "environment": .string(environment.rawValue),
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
