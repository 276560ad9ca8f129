/// Something the app should know about: data the SDK refused, changed or
/// could not keep. Delivered to `Configuration.onDiagnostic`.
///
/// New cases may come in a minor release (a new kind of trouble to report
/// is not a breaking change of this SDK): the enum is non-exhaustive (see
/// docs/api-evolution.md), so a `switch` over it outside this package
/// needs an `@unknown default:` branch, for example one that logs
/// `description`:
///
/// ```swift
/// switch diagnostic {
/// case .queueOverflow(let dropped): metrics.add(dropped)
/// @unknown default: logger.warning("\(diagnostic)")
/// }
/// ```
#if hasAttribute(nonexhaustive)
@nonexhaustive // SE-0487: clients outside this package need `@unknown default:`
#endif
public enum AnalyticsDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The event broke the wire contract and was not queued.
    case eventRejected(name: String, reason: ValidationFailure)
    /// Forbidden (personal) keys were removed before the event was queued.
    case keysStripped(event: String, keys: [String])
    /// The `beforeSend` scrubber dropped the event.
    case eventDroppedByScrubber(name: String)
    /// Events are kept in memory only, for the reason given.
    case storageUnavailable(reason: String)
    /// The install id could not be written and will change next launch.
    case installIDNotPersisted(reason: String)
    /// The queue was full; this many of the oldest events were dropped.
    case queueOverflow(dropped: Int)
    /// The collector refused a batch for good; its events were dropped.
    case batchDropped(events: Int, reason: String)
    /// The collector named invalid events; they were dropped and the rest resent.
    case eventsDroppedByCollector(count: Int)
    /// Events reach the disk again after `storageUnavailable`.
    case storageRecovered
    /// The queue's database file could not be read; it was moved aside
    /// (kept for inspection) and a fresh queue started.
    case storageRepaired(movedTo: String)
    /// The stored install id could not be read and a new one was made: this
    /// install's history is split in two at this point.
    case installIDReplaced(reason: String)
    /// Delivery fails (reported once per kind of failure); events are kept.
    case deliveryFailing(reason: String)
    /// Delivery works again after `deliveryFailing`.
    case deliveryRecovered

    public var description: String {
        switch self {
        case let .eventRejected(name, reason): "event '\(name)' rejected: \(reason)"
        case let .keysStripped(event, keys): "event '\(event)': removed personal keys \(keys.joined(separator: ", "))"
        case let .eventDroppedByScrubber(name): "event '\(name)' dropped by the beforeSend scrubber"
        case let .storageUnavailable(reason): "events are kept in memory only and will not survive a restart: \(reason)"
        case let .installIDNotPersisted(reason): "the install id could not be saved and will change on next launch: \(reason)"
        case let .queueOverflow(dropped): "the event queue is full; dropped the \(dropped) oldest event(s)"
        case let .batchDropped(events, reason): "the collector refused a batch of \(events) event(s), which were dropped: \(reason)"
        case let .eventsDroppedByCollector(count): "the collector rejected \(count) invalid event(s); the rest were resent"
        case .storageRecovered: "events are written to disk again"
        case let .storageRepaired(movedTo): "the event queue's database could not be read; it was moved to \(movedTo) and a new queue started"
        case let .installIDReplaced(reason): "the stored install id could not be read, so a new one was made (this install's history splits here): \(reason)"
        case let .deliveryFailing(reason): "delivery is failing: \(reason)"
        case .deliveryRecovered: "delivery works again"
        }
    }
}
