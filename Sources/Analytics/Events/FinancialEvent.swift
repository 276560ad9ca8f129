/// An example domain: the card and checkout events of a banking app.
///
/// ```swift
/// Analytics.shared.track(FinancialEvent.cardActivated(cardType: "Gold", isVirtual: true))
/// ```
public enum FinancialEvent: AnalyticsEvent, Equatable {
    /// The user activated a card.
    case cardActivated(cardType: String, isVirtual: Bool)
    /// A transfer or payment was started.
    case transactionInitiated(amount: Double, currency: String)
    /// Checkout ended in an error.
    case checkoutFailed(errorCode: Int, reason: String)

    public var name: String {
        switch self {
        case .cardActivated: "financial_card_activated"
        case .transactionInitiated: "financial_transaction_initiated"
        case .checkoutFailed: "financial_checkout_failed"
        }
    }

    public var properties: EventProperties {
        switch self {
        case let .cardActivated(cardType, isVirtual):
            ["card_type": .string(cardType), "is_virtual": .bool(isVirtual)]
        case let .transactionInitiated(amount, currency):
            ["transaction_amount": .double(amount), "currency": .string(currency)]
        case let .checkoutFailed(errorCode, reason):
            ["error_code": .int(errorCode), "failure_reason": .string(reason)]
        }
    }
}
