/// A request as the collector sees it.
public struct CollectorRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// The collector's answer.
public struct CollectorResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// CORS headers on every response, rejections included: a web view that
/// cannot read a 403 treats it as a network failure and retries forever.
public enum CORS {
    public static let headers: [String: String] = [
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type",
    ]
}
