import AnalyticsSupport

/// Why `Analytics.start(_:)` refused a configuration. The message says what
/// to change.
///
/// New cases may come in a minor release: the enum is non-exhaustive (see
/// docs/api-evolution.md), so a `switch` over it outside this package
/// needs an `@unknown default:` branch (the `description` is written for
/// the developer).
#if hasAttribute(nonexhaustive)
@nonexhaustive // SE-0487: clients outside this package need `@unknown default:`
#endif
public enum AnalyticsError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidEndpoint(String)
    case invalidAppID(String)
    case invalidBatchSize(Int)
    case invalidQueueCapacity(Int)
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidEndpoint(let endpoint):
            "collector endpoint '\(endpoint)' must be an absolute http or https URL, such as https://collector.example.com"
        case .invalidAppID(let appID):
            "app id '\(appID)' must be non-empty and contain no white space, such as com.example.app"
        case .invalidBatchSize(let size):
            "batch size \(size) must be between 1 and \(WireContract.maximumEventsPerBatch) (the collector's limit)"
        case .invalidQueueCapacity(let capacity):
            "queue capacity \(capacity) must be at least 1"
        case .alreadyStarted:
            "analytics is already started; call stop() before starting again"
        }
    }
}
