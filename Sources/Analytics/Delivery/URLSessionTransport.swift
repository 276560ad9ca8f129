import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real transport: `URLSession`, with every HTTP status returned as a
/// response and only a missing response reported as `NetworkFailure`.
///
/// ```swift
/// let transport = URLSessionTransport(timeout: .seconds(30))
/// ```
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let timeout: Duration

    public init(timeout: Duration = .seconds(30), configuration: URLSessionConfiguration = .ephemeral) {
        configuration.timeoutIntervalForRequest = Double(timeout.components.seconds)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, NetworkFailure>) -> Void) {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: Double(timeout.components.seconds))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = Data(request.body)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
                return completion(.failure(NetworkFailure(error.localizedDescription)))
            }
            guard let http = response as? HTTPURLResponse else {
                return completion(.failure(NetworkFailure("the response was not HTTP")))
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                headers[String(describing: key)] = String(describing: value)
            }
            completion(.success(TransportResponse(status: http.statusCode, headers: headers, body: Array(data ?? Data()))))
        }
        task.resume()
    }
}
