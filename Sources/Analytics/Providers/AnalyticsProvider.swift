/// A destination for tracked events: the first-party collector, a console
/// logger, an adapter to a third-party SDK.
///
/// Providers are called on the SDK's worker, one call at a time, never on
/// the thread that called `track`.
///
/// ```swift
/// final class ConsoleProvider: AnalyticsProvider {
///     func receive(_ event: TrackedEvent) { print(event.name, event.properties) }
/// }
/// ```
public protocol AnalyticsProvider: AnyObject, Sendable {
    /// One validated, enriched, filtered event.
    func receive(_ event: TrackedEvent)
    /// Send anything buffered now (background, terminate, stop, `flush()`).
    func flush()
    /// The user opted out: forget everything buffered.
    func purge()
}

extension AnalyticsProvider {
    public func flush() {}
    public func purge() {}
}

/// What app code depends on: a presenter takes `any AnalyticsTracking`, the
/// app passes `Analytics.shared`, and a unit test passes a spy.
///
/// ```swift
/// final class CardPresenter {
///     let analytics: any AnalyticsTracking
///     func activate() { analytics.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true)) }
/// }
/// ```
public protocol AnalyticsTracking: Sendable {
    /// Reports an event; returns at once.
    func track(_ event: some AnalyticsEvent)
}
