import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Collector
import CollectorServer
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The collector served over real HTTP/1.1 on loopback: the SDK's own
/// URLSession transport end to end into SQLite, and requests no client
/// should send, each answered with a status while the server carries on.
struct CollectorServerTests {
    private func server(readTimeout: Double = 5, maximumConnections: Int = 64, store: CollectorStore? = nil) throws -> CollectorServer {
        var options = CollectorServer.Options()
        options.port = 0
        options.readTimeout = readTimeout
        options.maximumConnections = maximumConnections
        let server = CollectorServer(collector: try Collector(allowList: ["com.example.app"], store: store), options: options, log: { _ in })
        try server.start()
        return server
    }

    @Test func theSDKsOwnTransportDeliversOverLoopbackIntoTheStore() throws {
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let store = try CollectorStore(path: folder.appending("collector.sqlite").path)
        let server = try server(store: store)
        defer { server.stop() }
        let clock = ManualClock(now: Date())
        var configuration = Configuration.testing(endpoint: URL(string: "http://127.0.0.1:\(server.port)")!, storage: folder.appending("sdk"),
                                                  clock: clock, transport: URLSessionTransport())
        configuration.transport = URLSessionTransport()
        let analytics = Analytics()
        try analytics.start(configuration)
        analytics.screens.enter("home")
        for index in 0..<30 { analytics.track(FinancialEvent.checkoutFailed(errorCode: index, reason: "declined")) }
        analytics.flush()
        let deadline = Date().addingTimeInterval(15)
        while (try store.count) < 31, Date() < deadline { usleep(20_000) }
        #expect(try store.count == 31, "30 events and one screen_enter reached SQLite through a real socket")
        let stats = exchange(Array("GET /v1/stats HTTP/1.1\r\n\r\n".utf8), port: server.port)
        #expect(stats == "HTTP/1.1 200 OK")
        analytics.stop()
    }

    @Test func aStoreThatCannotBeReadIsAnErrorNotAnEmptyStore() throws {
        let folder = try TemporaryDirectory(in: TestScratch.root)
        defer { folder.remove() }
        let path = folder.appending("collector.sqlite").path
        let store = try CollectorStore(path: path)
        let server = try server(store: store)
        defer { server.stop() }
        #expect(try store.count == 0)
        // Another process breaks the file under the running collector.
        try SQLiteDatabase(path: path).execute("DROP TABLE events")
        #expect(throws: SQLiteError.self) { try store.count }
        #expect(throws: SQLiteError.self) { try store.events() }
        #expect(exchange(Array("GET /v1/stats HTTP/1.1\r\n\r\n".utf8), port: server.port) == "HTTP/1.1 503 Service Unavailable",
                "the statistics say the store is unreadable instead of reporting zero events")
    }

    @Test func everyMalformedRequestGetsAStatusAndTheServerCarriesOn() throws {
        let server = try server(readTimeout: 0.3)
        defer { server.stop() }
        let port = server.port
        #expect(exchange(Array("GARBAGE\r\n\r\n".utf8), port: port) == "HTTP/1.1 400 Bad Request")
        #expect(exchange(Array("POST /v1/batch HTTP/1.1\r\nContent-Length: 700000\r\n\r\n".utf8), port: port) == "HTTP/1.1 413 Content Too Large",
                "over 512 KiB: answered before the body is read")
        #expect(exchange(Array("POST /v1/batch HTTP/1.1\r\n\r\n".utf8), port: port) == "HTTP/1.1 411 Length Required")
        #expect(exchange(Array("POST /v1/batch HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8), port: port) == "HTTP/1.1 501 Not Implemented")
        #expect(exchange(Array("GET / HTTP/2.0\r\n\r\n".utf8), port: port) == "HTTP/1.1 505 HTTP Version Not Supported")
        #expect(exchange(Array(("POST /v1/batch HTTP/1.1\r\n" + String(repeating: "X: y\r\n", count: 150) + "\r\n").utf8), port: port)
            == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(exchange(Array(("GET /" + String(repeating: "a", count: 20_000) + " HTTP/1.1\r\n\r\n").utf8), port: port)
            == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(exchange(Array("POST /v1/batch HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcde".utf8), port: port)
            == "HTTP/1.1 400 Bad Request")
        #expect(exchange([], port: port) == "HTTP/1.1 408 Request Timeout", "a client that says nothing is timed out")
        #expect(exchange(Array("POST /v1/batch HTTP/1.1\r\nContent-Length: 50\r\n\r\nabc".utf8), port: port) == "HTTP/1.1 408 Request Timeout")
        #expect(exchange(Array("POST /v1/batch HTTP/1.1\r\nContent-Length: 50\r\n\r\nabc".utf8), port: port, closeAfterSending: true) == "")
        #expect(exchange((0..<2000).map { _ in UInt8.random(in: 0...255) } + [13, 10, 13, 10], port: port).hasPrefix("HTTP/1.1 4"))
        #expect(post("{\"schema_version\":1}", port: port).hasPrefix("HTTP/1.1 403"), "still serving after all that")
    }

    @Test func manyConnectionsAtOnceEachGetAnAnswer() throws {
        let server = try server(maximumConnections: 8)
        defer { server.stop() }
        let statuses = Locked<[String]>([])
        let batch = CollectorRulesTests.batch([CollectorRulesTests.event()]).replacingOccurrences(of: "\(CollectorRulesTests.now)", with: "\(Int64(Date().timeIntervalSince1970 * 1000))")
        DispatchQueue.concurrentPerform(iterations: 300) { _ in
            let status = post(batch, port: server.port)
            statuses.withLock { $0.append(status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.count == 300)
        #expect(all.allSatisfy { $0 == "HTTP/1.1 200 OK" || $0 == "HTTP/1.1 503 Service Unavailable" }, "\(Set(all))")
        #expect(all.contains("HTTP/1.1 200 OK"))
        #expect(post(batch, port: server.port) == "HTTP/1.1 200 OK", "the server is whole afterwards")
    }
}
