import AnalyticsSupport
import Collector
@testable import CollectorServer
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's life as a developer lives it: the documented defaults, a
/// start that fails with a reason (and leaks nothing), a restart on the
/// port just freed, the connection limit, accept failures ridden out, and a
/// stop that lets the request in flight finish and returns at once otherwise.
struct CollectorServerLifecycleTests {
    @Test func theDefaultsAreTheDocumentedOnes() {
        let options = CollectorServer.Options()
        #expect(options.host == "127.0.0.1")
        #expect(options.port == 8080)
        #expect(options.readTimeout == 10)
        #expect(options.maximumConnections == 64)
        #expect(options.maximumHeadBytes == 16 * 1024)
        #expect(HTTPRequestHead.maximumHeaders == 100)
        #expect(CollectorServer.defaultGraceSeconds == 5)
    }

    /// Descriptors this process has open (Linux: /proc/self/fd); nil elsewhere.
    private func openDescriptors() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
    }

    private func startError(host: String = "127.0.0.1", port: UInt16) -> String? {
        var options = CollectorServer.Options()
        options.host = host
        options.port = port
        do {
            let server = CollectorServer(collector: try Collector(allowList: ["com.example.app"]), options: options, log: { _ in })
            try server.start()
            server.stop()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aStartThatFailsSaysWhyAndLeaksNoDescriptor() throws {
        let served = try ServedCollector()
        #expect(startError(host: "localhost", port: 0) == "'localhost' is not an IPv4 address (use 127.0.0.1 for this machine only)")
        #expect(startError(port: served.port) == "cannot listen on 127.0.0.1:\(served.port): Address already in use")
        // Each failed start closes its socket: 300 of them would show as
        // 300 more descriptors (other tests open some meanwhile).
        let before = openDescriptors()
        for _ in 0..<150 {
            _ = startError(host: "localhost", port: 0)
            _ = startError(port: served.port)
        }
        if let before, let after = openDescriptors() {
            #expect(after - before < 100, "\(after - before) more descriptors open after 300 failed starts")
        }
    }

    @Test func startingAndStoppingLeaksNoDescriptor() throws {
        let before = openDescriptors()
        for _ in 0..<150 {
            let served = try ServedCollector()
            served.server.stop()
        }
        if let before, let after = openDescriptors() {
            #expect(after - before < 100, "\(after - before) more descriptors open after 150 servers started and stopped")
        }
    }

    /// The server's sockets on its port (the listener, each accepted
    /// client): whether each is closed on exec. Linux's /proc: the sockets
    /// whose local port is `port` (/proc/net/tcp), their descriptors
    /// (/proc/self/fd) and flags (/proc/self/fdinfo).
    private func closeOnExecOfSockets(onPort port: UInt16) throws -> [Bool] {
        let table = try readWhole("/proc/net/tcp").split(separator: "\n").dropFirst()
        let local = String(format: ":%04X", port)
        let inodes = Set(table.compactMap { line -> String? in
            let fields = line.split(separator: " ")
            return fields.count > 9 && fields[1].hasSuffix(local) ? String(fields[9]) : nil
        })
        let manager = FileManager.default
        return try manager.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd -> Bool? in
            guard let target = try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast())),
                  let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8),
                  let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
                  let value = Int(flags.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
            else { return nil }
            return value & Int(O_CLOEXEC) != 0
        }
    }

    /// A file of /proc read to its end (its size says 0; Foundation's
    /// `String(contentsOfFile:)` read only the first page of a long one).
    private func readWhole(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A program the embedding process starts inherits neither the
    /// listener nor a client's connection (else it would hold the port,
    /// and a closed connection would stay open until it exits).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/net/tcp"), "reads sockets from /proc"))
    func theServersSocketsAreClosedOnExec() throws {
        let served = try ServedCollector()
        let client = try served.connect()
        client.send("GET /v1/stats HTTP/1.1\r\n") // accepted, its head not yet complete
        var sockets: [Bool] = []
        let deadline = Date().addingTimeInterval(5)
        repeat {
            sockets = try closeOnExecOfSockets(onPort: served.port)
            if sockets.count >= 2 { break }
            usleep(10_000)
        } while Date() < deadline
        #expect(sockets.count == 2, "the listener and the accepted client: \(sockets)")
        #expect(sockets.allSatisfy { $0 }, "each closed on exec: \(sockets)")
        client.send("\r\n")
        #expect(client.receive().answer.statusLine == "HTTP/1.1 200 OK")
    }

    @Test func aStoppedServersPortIsFreeAtOnce() throws {
        let first = try ServedCollector()
        let port = first.port
        // The server closes first, so its side of this connection waits in TIME_WAIT.
        #expect(try first.exchange("GET /v1/stats HTTP/1.1\r\n\r\n").statusLine == "HTTP/1.1 200 OK")
        first.server.stop()
        let second = try ServedCollector(port: port)
        #expect(try second.exchange("GET /v1/stats HTTP/1.1\r\n\r\n").statusLine == "HTTP/1.1 200 OK")
    }

    /// Runs `body` on another thread; how long it took, or nil if it did
    /// not end within `limit` seconds (a stop that hangs fails the test
    /// instead of the suite).
    private func timed(limit: Double = 5, _ body: @escaping @Sendable () -> Void) -> Double? {
        let done = DispatchSemaphore(value: 0)
        let started = Date()
        Thread {
            body()
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + limit) == .success else { return nil }
        return Date().timeIntervalSince(started)
    }

    @Test func anIdleServerStopsAtOnceAndASecondStopDoesNothing() throws {
        let served = try ServedCollector()
        let server = served.server
        let first = try #require(timed { server.stop() }, "the first stop hangs")
        #expect(first < 1.5, "an idle server stops at once, not after \(first)s")
        let second = try #require(timed { server.stop() }, "the second stop hangs")
        #expect(second < 1.5, "a second stop returns at once, not after \(second)s")
        #expect(LoopbackConnection(port: served.port) == nil, "nothing listens any more")
    }

    /// A connection that has sent part of a head and holds the only slot:
    /// the server has accepted it once another client is turned away.
    private func holdTheOnlySlot(of served: ServedCollector) throws -> (holder: LoopbackConnection, busy: (answer: HTTPAnswer, closed: Bool)) {
        let holder = try served.connect()
        holder.send("GET /v1/stats HTTP/1.1\r\n")
        let deadline = Date().addingTimeInterval(5)
        repeat {
            // Sends nothing: the answer comes unread (a request left unread would make the close a reset).
            let received = try served.connect(receiveTimeout: 3).receive()
            if !received.answer.head.isEmpty { return (holder, received) }
        } while Date() < deadline
        throw ConnectionRefused(port: served.port)
    }

    @Test func stopLetsTheRequestInFlightFinish() throws {
        let served = try ServedCollector(maximumConnections: 1)
        let (connection, _) = try holdTheOnlySlot(of: served)
        let stopped = Locked(false)
        let server = served.server
        Thread {
            server.stop()
            stopped.withLock { $0 = true }
        }.start()
        usleep(300_000)
        #expect(!stopped.withLock { $0 }, "stop waits while a request is in flight")
        connection.send("\r\n")
        #expect(connection.receive().answer.statusLine == "HTTP/1.1 200 OK")
        let deadline = Date().addingTimeInterval(5)
        while !stopped.withLock({ $0 }), Date() < deadline { usleep(5_000) }
        #expect(stopped.withLock { $0 }, "and returns once it is answered")
    }

    /// `stop` never closes the listener while the accept loop may still
    /// call `accept` on it: the number, closed, can be given to another
    /// socket or file (another server of this process, a database) first,
    /// and the loop would take that one's clients or wait on it. Here the
    /// loop is held in `accept` until `stop` has returned (after its two
    /// seconds' wait for the loop): the descriptor must still be the
    /// listening socket it was (same device and inode), closed only by the
    /// loop once `accept` gives up.
    @Test func stopNeverClosesTheListenerUnderItsAcceptLoop() throws {
        let inAccept = DispatchSemaphore(value: 0), stopReturned = DispatchSemaphore(value: 0), checked = DispatchSemaphore(value: 0)
        let calls = Locked(0)
        let sameSocket = Locked<Bool?>(nil)
        let served = try ServedCollector { listener in
            guard calls.withLock({ count in
                count += 1
                return count == 1
            }) else { return accept(listener, nil, nil) }
            var before = stat()
            fstat(listener, &before)
            inAccept.signal()
            _ = stopReturned.wait(timeout: .now() + 10)
            var after = stat()
            let open = fstat(listener, &after) == 0
            sameSocket.withLock { $0 = open && after.st_dev == before.st_dev && after.st_ino == before.st_ino }
            checked.signal()
            errno = EBADF
            return -1
        }
        #expect(inAccept.wait(timeout: .now() + 5) == .success, "the loop reached accept")
        served.server.stop(grace: 0)
        stopReturned.signal()
        #expect(checked.wait(timeout: .now() + 5) == .success)
        #if canImport(Glibc)
        #expect(sameSocket.withLock { $0 } == true, "the listener was closed (or its number reused) while its accept loop was still in accept")
        #endif
        // (On Darwin `stop` puts /dev/null under the number to wake `accept`: the number stays the loop's, not the socket.)
    }

    @Test func overTheConnectionLimitTheNextClientIsToldToComeBack() throws {
        let served = try ServedCollector(maximumConnections: 1)
        let (holder, (answer, closed)) = try holdTheOnlySlot(of: served)
        #expect(answer.statusLine == "HTTP/1.1 503 Service Unavailable")
        #expect(answer.head.contains("\r\nRetry-After: 1\r\n") || answer.head.hasSuffix("\r\nRetry-After: 1"), "\(answer.head)")
        #expect(answer.body == #"{"error":"busy"}"#)
        #expect(closed, "and its connection closed, not left open")
        #expect(served.waitForLog(containing: "503") == "- - 503 too many connections")
        holder.send("\r\n")
        #expect(holder.receive().answer.statusLine == "HTTP/1.1 200 OK", "the one in flight is served")
    }

    /// Clients that reset while the only connection is taken: the 503 cannot
    /// be sent to them, the send fails, and the server carries on. Each
    /// accepted client is held until it has reset, so the send meets a reset
    /// connection every time, however loaded the machine (racing the reset,
    /// the send landed first on a busy one).
    @Test func clientsGoneBeforeTheirAnswerDoNotStopTheServer() throws {
        let held = Locked(false)
        let served = try ServedCollector(maximumConnections: 1) { listener in
            let client = accept(listener, nil, nil)
            let deadline = Date().addingTimeInterval(5)
            while held.withLock({ $0 }), Date() < deadline { usleep(1_000) }
            return client
        }
        let (holder, _) = try holdTheOnlySlot(of: served)
        let busy = { served.log.filter { $0 == "- - 503 too many connections" }.count }
        for gone in 1...3 {
            held.withLock { $0 = true }
            try served.connect().reset()
            usleep(20_000)
            held.withLock { $0 = false }
            let deadline = Date().addingTimeInterval(5)
            while busy() < 1 + gone, Date() < deadline { usleep(5_000) }
            #expect(busy() == 1 + gone, "client \(gone), gone, was answered 503 and the server went on: \(served.log)")
        }
        holder.send("\r\n")
        #expect(holder.receive().answer.statusLine == "HTTP/1.1 200 OK")
        // Still accepting (a 503 while the holder's slot comes back is an answer too).
        let deadline = Date().addingTimeInterval(5)
        var status = ""
        while status != "HTTP/1.1 200 OK", Date() < deadline {
            let next = try served.connect(receiveTimeout: 2)
            next.send("GET /v1/stats HTTP/1.1\r\n\r\n")
            status = next.receive().answer.statusLine
        }
        #expect(status == "HTTP/1.1 200 OK", "still accepting")
    }

    /// `accept` fails as it does in a process out of descriptors, or
    /// interrupted, or for a client gone before it was accepted: the server
    /// tries again and serves the next client.
    @Test(arguments: [EINTR, ECONNABORTED, EMFILE, ENFILE])
    func aFailedAcceptIsRiddenOut(code: Int32) throws {
        let failures = Locked(2)
        let served = try ServedCollector { listener in
            if failures.withLock({ count in
                defer { count -= 1 }
                return count > 0
            }) {
                errno = code
                return -1
            }
            return accept(listener, nil, nil)
        }
        let connection = try served.connect(receiveTimeout: 3)
        connection.send("GET /v1/stats HTTP/1.1\r\n\r\n")
        #expect(connection.receive().answer.statusLine == "HTTP/1.1 200 OK", "errno \(code)")
        #expect(failures.withLock { $0 } < 0, "both failures were seen")
    }
}
