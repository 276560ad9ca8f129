import Foundation

/// One HTTP request as it would go on the wire.
public struct TransportRequest: Sendable, Equatable {
    public var url: URL
    public var method: String
    /// Header names as sent; compare case-insensitively with `header(_:)`.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(url: URL, method: String = "POST", headers: [String: String] = [:], body: [UInt8] = []) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }

    /// The value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? { headerValue(name, in: headers) }
}

/// Any HTTP response, whatever its status.
public struct TransportResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? { headerValue(name, in: headers) }
}

/// No response arrived: refused connection, lost connection, timeout, no route.
public struct NetworkFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "network failure: \(message)" }
}

/// Sends one request and reports the response.
///
/// Every HTTP status, 400 and 503 alike, is a *response*: it arrives as
/// `.success`. Only a request with no response at all is a `NetworkFailure`.
/// Mixing the two makes a 400 look like a network failure, and it is then
/// retried forever.
public protocol Transport: Sendable {
    /// Sends `request` and calls `completion` exactly once, on any thread.
    func send(_ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, NetworkFailure>) -> Void)
}

extension Transport {
    /// Sends `request`; returns any response and throws only for a network failure.
    public func send(_ request: TransportRequest) async throws(NetworkFailure) -> TransportResponse {
        let result = await withCheckedContinuation { continuation in
            send(request) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}

/// HTTP header names are case-insensitive.
private func headerValue(_ name: String, in headers: [String: String]) -> String? {
    headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
}
