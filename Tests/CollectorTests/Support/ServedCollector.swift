import AnalyticsSupport
import Collector
@testable import CollectorServer
import Foundation

/// A collector served on a free loopback port, with the clock of
/// `CollectorRulesTests` (so its batches are fresh) and its log lines kept.
final class ServedCollector: Sendable {
    let server: CollectorServer
    private let lines = Locked<[String]>([])

    /// `accept`: the server's `accept(2)`, for tests that make it fail.
    init(readTimeout: Double = 5, maximumConnections: Int = 64, maximumHeadBytes: Int = 16 * 1024, port: UInt16 = 0,
         accept: (@Sendable (Int32) -> Int32)? = nil) throws
    {
        var options = CollectorServer.Options()
        options.port = port
        options.readTimeout = readTimeout
        options.maximumConnections = maximumConnections
        options.maximumHeadBytes = maximumHeadBytes
        let collector = try Collector(allowList: ["com.example.app"], now: { CollectorRulesTests.now })
        let lines = lines
        let log: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
        if let accept {
            server = CollectorServer(collector: collector, options: options, log: log, accept: accept)
        } else {
            server = CollectorServer(collector: collector, options: options, log: log)
        }
        try server.start()
    }

    var port: UInt16 { server.port }

    /// The log lines so far.
    var log: [String] { lines.withLock { $0 } }

    /// Waits up to `seconds` for a log line containing `text`.
    func waitForLog(containing text: String, seconds: Double = 3) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let line = log.first(where: { $0.contains(text) }) { return line }
            usleep(5_000)
        } while Date() < deadline
        return nil
    }

    /// A new connection to the server (fails the test if refused).
    func connect(receiveTimeout: Int = 3) throws -> LoopbackConnection {
        guard let connection = LoopbackConnection(port: port, receiveTimeout: receiveTimeout) else {
            throw ConnectionRefused(port: port)
        }
        return connection
    }

    /// Sends `request` whole on a new connection; the answer once the server closes it.
    func exchange(_ request: String) throws -> HTTPAnswer {
        let connection = try connect()
        connection.send(request)
        return connection.receive().answer
    }

    deinit { server.stop() }
}

struct ConnectionRefused: Error {
    let port: UInt16
}
