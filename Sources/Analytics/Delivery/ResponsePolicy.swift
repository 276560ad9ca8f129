import AnalyticsSupport

/// What the uploader does with a batch after an attempt.
enum DeliveryOutcome: Equatable, Sendable {
    /// Stored by the collector: remove the batch from the queue.
    case delivered
    /// The collector will never accept this batch: remove it, do not retry.
    case dropBatch(reason: String)
    /// The collector named bad events: remove those (indices into the
    /// batch) and resend the rest at once.
    case dropEvents(indices: [Int])
    /// Too large: send the batch again in halves.
    case split
    /// Overload, server fault or no response: keep the batch and retry on
    /// the timer, with a server-given wait if any.
    case retry(retryAfterSeconds: Int?)
}

/// Maps a response (or a network failure) to an outcome, per docs/collector.md.
/// A pure function of its inputs.
enum ResponsePolicy {
    static func outcome(of result: Result<TransportResponse, NetworkFailure>, batchSize: Int) -> DeliveryOutcome {
        guard case .success(let response) = result else { return .retry(retryAfterSeconds: nil) }
        switch response.status {
        case 200..<300:
            return .delivered
        case 400:
            return outcomeOfBadRequest(body: response.body, batchSize: batchSize)
        case 403:
            return .dropBatch(reason: "403 \(errorCode(in: response.body) ?? "forbidden"): is app_id on the collector's allow list?")
        case 413:
            return batchSize > 1 ? .split : .dropBatch(reason: "413: a single event is too large for the collector")
        case 429:
            return .retry(retryAfterSeconds: response.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        default:
            // 5xx, and anything the contract does not name (3xx, 401, 404,
            // 408, ...): keep the events and retry on the capped timer, so a
            // misconfigured endpoint loses nothing once it is fixed.
            return .retry(retryAfterSeconds: nil)
        }
    }

    private static func outcomeOfBadRequest(body: [UInt8], batchSize: Int) -> DeliveryOutcome {
        let json = try? JSONParser.parse(body)
        let code = json?["error"]?.stringValue ?? "bad_request"
        guard code == "bad_field" else { return .dropBatch(reason: "400 \(code)") }
        let indices = Set((json?["fields"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(eventIndex(inPath:)) })
            .filter { $0 < batchSize }
            .sorted()
        return indices.isEmpty ? .dropBatch(reason: "400 bad_field naming no event") : .dropEvents(indices: indices)
    }

    /// `events[3].ts` -> 3.
    static func eventIndex(inPath path: String) -> Int? {
        guard path.hasPrefix("events["), let close = path.firstIndex(of: "]") else { return nil }
        return Int(path[path.index(path.startIndex, offsetBy: 7)..<close])
    }

    private static func errorCode(in body: [UInt8]) -> String? {
        (try? JSONParser.parse(body))?["error"]?.stringValue
    }
}
