/// What stands between `track` and the providers: the contract's checks,
/// the forbidden keys, the app's `beforeSend`, then the size of the final
/// bytes. Every refusal is reported; nothing is refused silently.
struct EventFilter {
    private let validator: EventValidator
    private let beforeSend: (@Sendable (TrackedEvent) -> TrackedEvent?)?
    private let report: @Sendable (AnalyticsDiagnostic) -> Void
    private var encoder = EventEncoder()

    init(configuration: Configuration) {
        validator = EventValidator(additionalForbiddenKeys: configuration.additionalForbiddenKeys)
        beforeSend = configuration.beforeSend
        report = configuration.onDiagnostic
    }

    /// The event's properties that may leave the device, reporting what was
    /// stripped; nil (reported) when the event breaks the contract.
    func properties(name: String, _ properties: EventProperties) -> EventProperties? {
        switch validator.filter(name: name, properties: properties) {
        case .failure(let reason):
            report(.eventRejected(name: name, reason: reason))
            return nil
        case .success(let result):
            if !result.strippedKeys.isEmpty { report(.keysStripped(event: name, keys: result.strippedKeys)) }
            return result.properties
        }
    }

    /// The event as providers receive it and its wire bytes, after
    /// `beforeSend` (whose additions are filtered again) and the size rule.
    mutating func finish(_ event: TrackedEvent) -> (event: TrackedEvent, encoded: [UInt8])? {
        var event = event
        if let beforeSend {
            guard let edited = beforeSend(event) else {
                report(.eventDroppedByScrubber(name: event.name))
                return nil
            }
            guard let kept = properties(name: edited.name, edited.properties) else { return nil }
            event = edited
            event.properties = kept
        }
        // The size rule needs the final bytes, so it comes last.
        let encoded = encoder.encode(event)
        if let failure = EventValidator.checkSize(of: encoded) {
            report(.eventRejected(name: event.name, reason: failure))
            return nil
        }
        return (event, encoded)
    }
}
