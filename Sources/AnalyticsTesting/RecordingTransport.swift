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
///
/// With a clock it also stops a delivery loop: a client that works waits
/// for a retry timer before it sends a request again, so the same request
/// (the same bytes: its `sent_at` is the clock's) sent `sameInstantLimit`
/// times while the clock stands still is a client that resends forever,
/// and a test would hang in it. The process stops there with a message
/// naming the request's first event.
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

    /// How many times the same request may be sent while the clock stands
    /// still (a split batch or a `bad_field` answer sends other requests).
    public static let sameInstantLimit = 1_000

    private struct State {
        var requests: [TransportRequest] = []
        var script: [Reply] = []
        /// The clock's uptime at the last send, and how often each request (by its bytes) was sent at it.
        var instant: Duration?
        var sendsAtInstant: [[UInt8]: Int] = [:]
    }

    private let clock: ManualClock?
    private let fallback: Reply
    private let onLoop: @Sendable (String) -> Void
    private let state = Locked(State())

    /// - Parameters:
    ///   - clock: the scheduler that times `.delayed` replies, and whose
    ///     standing still tells a delivery loop.
    ///   - fallback: the answer once the script runs out (`whenScriptIsEmpty:`).
    public convenience init(clock: ManualClock? = nil, whenScriptIsEmpty fallback: Reply = .accepted) {
        self.init(clock: clock, whenScriptIsEmpty: fallback, onLoop: { fatalError($0) })
    }

    /// As above, with what to do on a delivery loop (the kit's tests record
    /// it). From the limit on, the same request gets a network failure
    /// while the clock stands still, and the script is left as it was.
    package init(clock: ManualClock?, whenScriptIsEmpty fallback: Reply = .accepted, onLoop: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.fallback = fallback
        self.onLoop = onLoop
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
        let instant = clock?.uptime()
        let outcome = state.withLock { state -> SendOutcome in
            state.requests.append(request)
            if let instant {
                if state.instant != instant {
                    state.instant = instant
                    state.sendsAtInstant = [:]
                }
                let sends = state.sendsAtInstant[request.body, default: 0] + 1
                state.sendsAtInstant[request.body] = sends
                if sends >= Self.sameInstantLimit { return .loop(firstTime: sends == Self.sameInstantLimit) }
            }
            return .reply(state.script.isEmpty ? fallback : state.script.removeFirst())
        }
        switch outcome {
        case .reply(let reply):
            answer(reply, to: request, completion: completion)
        case .loop(let firstTime):
            if firstTime {
                let event = request.batch?.events.first.map { "its first event \($0.eventID)" } ?? "no batch"
                onLoop("RecordingTransport: the same request (\(event)) was sent \(Self.sameInstantLimit) times while the clock stood still: "
                    + "the client resends without waiting for a retry timer, and would loop forever")
            }
            completion(.failure(NetworkFailure("RecordingTransport stopped a delivery loop")))
        }
    }

    /// What a send gets: the script's reply, or a loop's failure.
    private enum SendOutcome {
        case reply(Reply)
        case loop(firstTime: Bool)
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
