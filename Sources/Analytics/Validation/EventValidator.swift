import AnalyticsSupport

/// Why an event was refused at `track`. New cases may come in a minor
/// release: the enum is non-exhaustive (see docs/api-evolution.md).
#if hasAttribute(nonexhaustive)
@nonexhaustive // SE-0487: clients outside this package need `@unknown default:`
#endif
public enum ValidationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidName(String)
    case invalidKey(String)
    case nonFiniteNumber(key: String)
    case stringTooLong(key: String, bytes: Int)
    case eventTooLarge(bytes: Int)

    public var description: String {
        switch self {
        case .invalidName(let name):
            "event name '\(name)' must match ^[a-z][a-z0-9_]{0,63}$ (lower-case snake_case, at most 64 characters)"
        case .invalidKey(let key):
            "property key '\(key)' must match ^[a-z][a-z0-9_]{0,63}$ (lower-case snake_case, at most 64 characters)"
        case .nonFiniteNumber(let key):
            "property '\(key)' is NaN or infinite; send a finite number or null"
        case .stringTooLong(let key, let bytes):
            "property '\(key)' is \(bytes) UTF-8 bytes; the limit is \(EventValidator.maximumStringBytes)"
        case .eventTooLarge(let bytes):
            "the event encodes to \(bytes) bytes; the limit is \(EventValidator.maximumEventBytes): send fewer or shorter properties"
        }
    }
}

/// Checks names, keys and values against wire format v1 and strips
/// forbidden (personal) keys. A pure value: the same input, the same answer.
struct EventValidator: Sendable {
    static let maximumStringBytes = WireContract.maximumStringBytes
    static let maximumEventBytes = WireContract.maximumEventBytes

    /// The forbidden keys in force: the contract's defaults plus the app's.
    let forbiddenKeys: Set<String>

    init(additionalForbiddenKeys: Set<String> = []) {
        forbiddenKeys = ForbiddenKeys.defaults.union(additionalForbiddenKeys)
    }

    /// The outcome of filtering one event's properties.
    struct Filtered: Equatable {
        var properties: EventProperties
        var strippedKeys: [String]
    }

    /// Strips forbidden keys, then checks what is left.
    func filter(name: String, properties: EventProperties) -> Result<Filtered, ValidationFailure> {
        guard Self.isValidIdentifier(name) else { return .failure(.invalidName(name)) }
        var kept = properties
        var stripped: [String] = []
        // Sorted, so the first failure and the stripped keys are reported
        // the same way every time.
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
            if forbiddenKeys.contains(key) {
                stripped.append(key)
                kept[key] = nil
                continue
            }
            guard Self.isValidIdentifier(key) else { return .failure(.invalidKey(key)) }
            switch value {
            case .double(let number) where !number.isFinite:
                return .failure(.nonFiniteNumber(key: key))
            case .string(let text) where text.utf8.count > Self.maximumStringBytes:
                return .failure(.stringTooLong(key: key, bytes: text.utf8.count))
            default:
                continue
            }
        }
        return .success(Filtered(properties: kept, strippedKeys: stripped))
    }

    /// The size rule, checked on the event's wire bytes once it is final
    /// (after `beforeSend`), before any provider receives it.
    static func checkSize(of encoded: [UInt8]) -> ValidationFailure? {
        encoded.count > maximumEventBytes ? .eventTooLarge(bytes: encoded.count) : nil
    }

    /// `^[a-z][a-z0-9_]{0,63}$`.
    static func isValidIdentifier(_ text: String) -> Bool {
        WireContract.isIdentifier(text)
    }
}
