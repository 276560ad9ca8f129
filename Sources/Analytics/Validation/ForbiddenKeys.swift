import AnalyticsSupport

/// Attribute keys that carry personal data and never leave the device.
public enum ForbiddenKeys {
    /// The contract's default list (docs/wire-format.md). Apps may add keys
    /// through `Configuration.additionalForbiddenKeys`.
    public static let defaults: Set<String> = WireContract.forbiddenKeys
}
