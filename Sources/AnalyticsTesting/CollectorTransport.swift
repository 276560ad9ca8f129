import AnalyticsSupport
import Analytics
import Collector
import Foundation

/// A transport that hands each request to an in-process `Collector`, exactly
/// as it would arrive over HTTP, and keeps the bytes. A test reads both the
/// requests and the collector's store.
///
/// ```swift
/// let collector = try Collector(allowList: ["com.example.app"])
/// let transport = CollectorTransport(collector: collector)
/// transport.loseResponses(1)   // stored, but the client hears nothing
/// ```
public final class CollectorTransport: Transport, Sendable {
    public let collector: Collector
    private let state = Locked<(requests: [TransportRequest], responses: [TransportResponse], lose: Int)>(([], [], 0))

    public init(collector: Collector) { self.collector = collector }

    /// Every request sent so far, in order.
    public var requests: [TransportRequest] { state.withLock { $0.requests } }
    /// The collector's answers, in order (lost ones included).
    public var responses: [TransportResponse] { state.withLock { $0.responses } }

    /// The next `count` requests reach the collector, but their responses
    /// are lost: the client sees a network failure.
    public func loseResponses(_ count: Int) {
        state.withLock { $0.lose += count }
    }

    public func send(_ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, NetworkFailure>) -> Void) {
        let answer = collector.handle(CollectorRequest(
            method: request.method, path: request.url.path, headers: request.headers, body: request.body
        ))
        let response = TransportResponse(status: answer.status, headers: answer.headers, body: answer.body)
        let lost = state.withLock { state -> Bool in
            state.requests.append(request)
            state.responses.append(response)
            guard state.lose > 0 else { return false }
            state.lose -= 1
            return true
        }
        completion(lost ? .failure(NetworkFailure("the response was lost")) : .success(response))
    }
}
