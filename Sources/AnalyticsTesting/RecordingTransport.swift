import Analytics
import AnalyticsSupport
import Foundation

/// A transport that keeps the exact bytes of every request and answers from
/// a script, the way the real client's requests would go on the wire.
///
/// ```swift
/// let transport = RecordingTransport(clock: clock)
/// transport.enqueue(.status(503), .networkFailure)
/// // ... track, flush ...
/// let events = transport.requests[0].batch?.events
/// ```
public final class RecordingTransport: Transport, Sendable {
    /// One scripted answer.
    public indirect enum Reply: Sendable {
        /// A response with this status, headers and body.
        case status(Int, headers: [String: String] = [:], body: String = "")
        /// No response at all.
        case networkFailure(String = "connection refused")
        /// The reply arrives after `delay` on the transport's clock.
        case delayed(Duration, Reply)
        /// `200` with `{"accepted":N,"duplicates":0}`, N the batch's size.
        case accepted
    }

    private let clock: ManualClock?
    private let fallback: Reply
    private let state = Locked<(requests: [TransportRequest], script: [Reply])>(([], []))

    /// - Parameters:
    ///   - clock: the scheduler that times `.delayed` replies.
    ///   - fallback: the answer once the script runs out (`whenScriptIsEmpty:`).
    public init(clock: ManualClock? = nil, whenScriptIsEmpty fallback: Reply = .accepted) {
        self.clock = clock
        self.fallback = fallback
    }

    /// Queues answers for the next requests, in order.
    public func enqueue(_ replies: Reply...) {
        state.withLock { $0.script.append(contentsOf: replies) }
    }

    /// Every request sent so far, in order.
    public var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// The decoded batches sent so far, in order.
    public var batches: [WireBatch] { requests.compactMap(\.batch) }

    /// Every event sent so far, across batches, retries included.
    public var sentEvents: [WireEvent] { batches.flatMap(\.events) }

    public func send(_ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, NetworkFailure>) -> Void) {
        let reply = state.withLock { state -> Reply in
            state.requests.append(request)
            return state.script.isEmpty ? fallback : state.script.removeFirst()
        }
        answer(reply, to: request, completion: completion)
    }

    private func answer(_ reply: Reply, to request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, NetworkFailure>) -> Void) {
        switch reply {
        case let .status(status, headers, body):
            completion(.success(TransportResponse(status: status, headers: headers, body: Array(body.utf8))))
        case .networkFailure(let message):
            completion(.failure(NetworkFailure(message)))
        case .accepted:
            let count = request.batch?.events.count ?? 0
            completion(.success(TransportResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Array("{\"accepted\":\(count),\"duplicates\":0}".utf8)
            )))
        case let .delayed(delay, inner):
            guard let clock else { preconditionFailure("RecordingTransport needs a clock for .delayed replies") }
            _ = clock.schedule(after: delay) { [self] in answer(inner, to: request, completion: completion) }
        }
    }
}
