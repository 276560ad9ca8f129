import Foundation

/// Names a failed delivery attempt for the app's diagnostics: its kind (so
/// the same trouble is reported once, not once per retry) and a sentence
/// that says what to check.
enum DeliveryTrouble {
    /// `network`, `status-404`, ...; nil unless `ResponsePolicy` decided to
    /// retry (delivered, split, or refused for good: reported apart).
    static func kind(of result: Result<TransportResponse, NetworkFailure>, outcome: DeliveryOutcome) -> String? {
        guard case .retry = outcome else { return nil }
        switch result {
        case .failure: return "network"
        case .success(let response): return "status-\(response.status)"
        }
    }

    static func explanation(of result: Result<TransportResponse, NetworkFailure>, url: URL) -> String {
        switch result {
        case .failure(let failure):
            return "no response from \(url.absoluteString) (\(failure)); events are kept and retried"
        case .success(let response):
            switch response.status {
            case 429, 500..<600:
                return "\(url.absoluteString) answered \(response.status) (overloaded or failing); events are kept and retried"
            default:
                return "\(url.absoluteString) answered \(response.status), which a collector never does: is the endpoint URL right? "
                    + "(the SDK posts to {endpoint}/v1/batch); events are kept and retried"
            }
        }
    }
}
