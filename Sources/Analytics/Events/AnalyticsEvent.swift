/// Something an app reports. Apps model their events as enums, so every name
/// and property is typed once and checked by the compiler, never retyped as a
/// loose string at the call site.
///
/// ```swift
/// enum OnboardingEvent: AnalyticsEvent {
///     case stepCompleted(step: Int)
///     var name: String { "onboarding_step_completed" }
///     var properties: EventProperties {
///         switch self { case .stepCompleted(let step): ["step": .int(step)] }
///     }
/// }
/// ```
public protocol AnalyticsEvent: Sendable {
    /// The event name on the wire: `^[a-z][a-z0-9_]{0,63}$`.
    var name: String { get }
    /// The event's own properties; keys follow the same pattern as names.
    var properties: EventProperties { get }
}
