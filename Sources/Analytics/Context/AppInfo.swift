import Foundation

/// The static facts about the app and device, read once at `start`.
///
/// ```swift
/// let info = AppInfo.current(environment: .production)
/// ```
public struct AppInfo: Sendable, Equatable {
    public var appVersion: String
    public var platform: String
    public var osVersion: String
    public var deviceModel: String
    public var locale: String
    public var environment: AppEnvironment

    public init(appVersion: String, platform: String, osVersion: String, deviceModel: String, locale: String, environment: AppEnvironment) {
        self.appVersion = appVersion
        self.platform = platform
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.locale = locale
        self.environment = environment
    }

    /// Reads the running process: bundle version, OS, device model, locale,
    /// and the environment from `EnvironmentClassifier` unless given.
    public static func current(environment: AppEnvironment? = nil) -> AppInfo {
        let bundle = Bundle.main
        let version = bundle.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "unknown"
        let os = ProcessInfo.processInfo.operatingSystemVersion
        return AppInfo(
            appVersion: version,
            platform: platformName,
            osVersion: osVersion(os),
            deviceModel: deviceModel,
            locale: wireLocale(Locale.current.identifier),
            environment: environment ?? EnvironmentClassifier.classify(.current(bundle: bundle))
        )
    }

    /// `pt-BR`: the locale as the wire format writes it (BCP 47, a hyphen),
    /// from Foundation's identifier (`pt_BR`).
    static func wireLocale(_ identifier: String) -> String {
        identifier.replacingOccurrences(of: "_", with: "-")
    }

    /// `18.1` or `17.4.1`: the patch only when there is one, as the OS shows it.
    static func osVersion(_ os: OperatingSystemVersion) -> String {
        "\(os.majorVersion).\(os.minorVersion)" + (os.patchVersion > 0 ? ".\(os.patchVersion)" : "")
    }

    static var platformName: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Linux)
        "Linux"
        #else
        "unknown"
        #endif
    }

    static var deviceModel: String {
        var system = utsname()
        uname(&system)
        return withUnsafeBytes(of: &system.machine) { buffer in
            String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
