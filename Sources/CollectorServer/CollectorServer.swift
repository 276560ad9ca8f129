import AnalyticsSupport
import Collector
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The collector library served over HTTP/1.1 on POSIX sockets: a small,
/// strict server for development (point a debug build at it and watch events
/// and visit statistics arrive).
///
/// - Bodies by `Content-Length` only (chunked: 501); one request per
///   connection (`Connection: close`).
/// - Limits checked before reading: a head of at most 16 KiB and 100 header
///   lines (431), a body of at most 512 KiB (413, answered without reading
///   it), read and write time-outs (408), at most `maximumConnections` at
///   once (503 to the next).
/// - `POST {path}/v1/batch` and `OPTIONS` go to `Collector.handle`;
///   `GET /v1/stats` answers the visit statistics as JSON.
/// - Every bad request gets a status and a log line; none stops the server.
///
/// `@unchecked`: `listener` and `port` are written by `start` before the
/// accept thread exists; `isStopping` only under `state`; the rest are `let`s.
public final class CollectorServer: @unchecked Sendable {
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        /// 0 picks a free port (see `port` after `start`).
        public var port: UInt16 = 8080
        public var readTimeout: Double = 10
        public var maximumConnections = 64
        public var maximumHeadBytes = 16 * 1024
        public init() {}
    }

    public let collector: Collector
    public let options: Options
    private let log: @Sendable (String) -> Void
    /// `accept(2)` on the listener: a seam, so tests can make it fail as an
    /// exhausted process would (`EMFILE`) without exhausting theirs.
    private let acceptClient: @Sendable (Int32) -> Int32
    // Invariants: `listener` is written before the accept thread starts and
    // closed once, by `stop` after that thread has ended; `connections`
    // limits concurrent handlers.
    private var listener: Int32 = -1
    private let connections: DispatchSemaphore
    private let handlers = DispatchQueue(label: "collector.connections", attributes: .concurrent)
    private let stopped = DispatchSemaphore(value: 0)
    private let state = NSLock()
    private var isStopping = false
    /// The port bound by `start` (useful with port 0).
    public private(set) var port: UInt16 = 0

    public convenience init(collector: Collector, options: Options = Options(), log: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.init(collector: collector, options: options, log: log, accept: { accept($0, nil, nil) })
    }

    init(collector: Collector, options: Options, log: @escaping @Sendable (String) -> Void, accept: @escaping @Sendable (Int32) -> Int32) {
        self.collector = collector
        self.options = options
        self.log = log
        acceptClient = accept
        connections = DispatchSemaphore(value: options.maximumConnections)
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Binds and starts accepting on a thread of its own.
    public func start() throws {
        // Close-on-exec: a program the embedding process starts must not
        // keep the port (or, from `accept`, a client's connection) open.
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        if socket >= 0 { _ = fcntl(socket, F_SETFD, FD_CLOEXEC) }
        #endif
        guard socket >= 0 else { throw StartError(description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        // Every way out but a listening socket closes it.
        var listening = false
        defer { if !listening { close(socket) } }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = options.port.bigEndian
        guard inet_pton(AF_INET, options.host, &address.sin_addr) == 1 else {
            throw StartError(description: "'\(options.host)' is not an IPv4 address (use 127.0.0.1 for this machine only)")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            throw StartError(description: "cannot listen on \(options.host):\(options.port): \(String(cString: strerror(errno)))")
        }
        guard listen(socket, 128) == 0 else {
            throw StartError(description: "cannot listen: \(String(cString: strerror(errno)))")
        }
        listening = true
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        port = UInt16(bigEndian: actual.sin_port)
        listener = socket
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "collector.accept"
        thread.start()
    }

    /// How long `stop` waits for requests in flight, by default.
    public static let defaultGraceSeconds: Double = 5

    /// Stops accepting, lets requests in flight finish (up to `grace`
    /// seconds), and returns. A second call returns at once.
    public func stop(grace: Double = defaultGraceSeconds) {
        state.lock()
        guard !isStopping else { return state.unlock() }
        isStopping = true
        state.unlock()
        // Shutting the listener down wakes the accept loop; the listener is
        // closed only once the loop has ended. Closed while the loop may
        // still call `accept`, its number could be given to another socket
        // or file first, and the loop would take that one's clients or wait
        // on it. A loop that does not end in time keeps it (a descriptor
        // lost, not someone else's taken).
        shutdown(listener, Int32(SHUT_RDWR))
        #if canImport(Darwin)
        // Darwin's `shutdown` does not wake a waiting `accept`; closing the
        // socket does. `/dev/null` put in its place closes it and keeps the
        // number the server's.
        let null = open("/dev/null", O_RDONLY)
        if null >= 0 {
            dup2(null, listener)
            close(null)
        }
        #endif
        if stopped.wait(timeout: .now() + 2) == .success { close(listener) }
        // Every slot back: nothing in flight. Then give them back, as a
        // semaphore must be at its starting value when it goes away.
        let deadline = DispatchTime.now() + grace
        var held = 0
        for _ in 0..<options.maximumConnections where connections.wait(timeout: deadline) == .success { held += 1 }
        for _ in 0..<held { connections.signal() }
    }

    private var stopping: Bool {
        state.lock()
        defer { state.unlock() }
        return isStopping
    }

    private func acceptLoop() {
        defer { stopped.signal() }
        while !stopping {
            let client = acceptClient(listener)
            guard client >= 0 else {
                if stopping { return }
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE { usleep(1000); continue }
                return
            }
            // Close-on-exec, as the listener: a program the embedding process
            // starts keeps no client's connection open. (Set here, after the
            // failure test above: `fcntl` on a failed accept would overwrite its errno.)
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            var noSignal: Int32 = 1
            #if canImport(Darwin)
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            #endif
            _ = noSignal
            var timeout = timeval()
            timeout.tv_sec = .init(Int(options.readTimeout))
            timeout.tv_usec = .init(Int((options.readTimeout - Double(Int(options.readTimeout))) * 1_000_000))
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard connections.wait(timeout: .now()) == .success else {
                respond(client, status: 503, body: Array("{\"error\":\"busy\"}".utf8), headers: ["Retry-After": "1"])
                close(client)
                log("- - 503 too many connections")
                continue
            }
            handlers.async { [self] in
                serve(client)
                close(client)
                connections.signal()
            }
        }
    }

    /// Reads one request, answers it.
    private func serve(_ client: Int32) {
        let started = DispatchTime.now().uptimeNanoseconds
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var headEnd: Int?
        // The head, up to its blank line, within the size limit.
        while headEnd == nil {
            let count = read(client, &chunk, chunk.count)
            if count <= 0 {
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    return finish(client, 408, "request timed out before its head was complete", started)
                }
                return // the client went away: nothing to answer
            }
            buffer += chunk[0..<count]
            headEnd = Self.endOfHead(in: buffer)
            if headEnd == nil, buffer.count > options.maximumHeadBytes {
                return finish(client, 431, "request head over \(options.maximumHeadBytes) bytes", started)
            }
        }
        guard let end = headEnd else { return }
        if end > options.maximumHeadBytes { return finish(client, 431, "request head over \(options.maximumHeadBytes) bytes", started) }
        let head: HTTPRequestHead
        do {
            head = try HTTPRequestHead.parse(buffer[0..<end])
        } catch {
            switch error {
            case .headersTooLarge: return finish(client, 431, "more than \(HTTPRequestHead.maximumHeaders) header lines", started)
            case .versionNotSupported: return finish(client, 505, "HTTP version not supported", started)
            case .badRequest(let reason): return finish(client, 400, reason, started)
            }
        }
        if head.headers["transfer-encoding"] != nil {
            return finish(client, 501, "only Content-Length bodies are supported", started, head: head)
        }
        var length = 0
        if let text = head.headers["content-length"] {
            guard let value = Int(text), value >= 0 else { return finish(client, 400, "bad Content-Length", started, head: head) }
            length = value
        } else if head.method == "POST" {
            return finish(client, 411, "POST needs a Content-Length", started, head: head)
        }
        // Over the collector's limit: answered before a byte of the body is read.
        if length > Collector.maximumBodyBytes,
           let response = collector.answerBeforeBody(method: head.method, path: head.path, bodyLength: length)
        {
            return finish(client, response, started, head: head, note: "body of \(length) bytes refused unread")
        }
        var body = Array(buffer[(end + 4)...])
        while body.count < length {
            let count = read(client, &chunk, min(chunk.count, length - body.count))
            if count <= 0 {
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    return finish(client, 408, "body not complete within the read time-out", started, head: head)
                }
                log("\(head.method) \(head.path) - client closed after \(body.count) of \(length) body bytes")
                return
            }
            body += chunk[0..<count]
        }
        body = Array(body.prefix(length))
        if head.method == "GET", head.path == "/v1/stats" || head.path.hasSuffix("/v1/stats") {
            let stats: [UInt8]
            do {
                stats = StatsJSON.encode(try collector.visitStatistics(), events: try collector.store.count)
            } catch {
                return finish(client, 503, "the store cannot be read: \(error)", started, head: head)
            }
            respond(client, status: 200, body: stats, headers: ["Content-Type": "application/json"].merging(CORS.headers) { $1 })
            log("GET \(head.path) 200 \(Self.milliseconds(since: started))")
            return
        }
        let response = collector.handle(CollectorRequest(method: head.method, path: head.path, headers: head.headers, body: body))
        finish(client, response, started, head: head, note: "\(body.count) bytes")
    }

    private func finish(_ client: Int32, _ status: Int, _ reason: String, _ started: UInt64, head: HTTPRequestHead? = nil) {
        let body = JSONWriter.encode(.object(["error": .string(Self.reasonPhrase(status).lowercased().replacingOccurrences(of: " ", with: "_")),
                                              "detail": .string(reason)]))
        respond(client, status: status, body: body, headers: ["Content-Type": "application/json"].merging(CORS.headers) { $1 })
        log("\(head?.method ?? "-") \(head?.path ?? "-") \(status) \(reason) \(Self.milliseconds(since: started))")
    }

    private func finish(_ client: Int32, _ response: CollectorResponse, _ started: UInt64, head: HTTPRequestHead, note: String) {
        respond(client, status: response.status, body: response.body, headers: response.headers)
        log("\(head.method) \(head.path) \(response.status) \(note) \(response.bodyText.prefix(120)) \(Self.milliseconds(since: started))")
    }

    private func respond(_ client: Int32, status: Int, body: [UInt8], headers: [String: String]) {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        var all = headers
        all["Content-Length"] = String(body.count)
        all["Connection"] = "close"
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Self.noSignal) }
            if count <= 0 { return }
            sent += count
        }
    }

    /// A peer that went away must not kill the server with SIGPIPE.
    #if canImport(Glibc)
    static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    static let noSignal: Int32 = 0 // SO_NOSIGPIPE is set per socket instead
    #endif

    static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }

    private static func milliseconds(since start: UInt64) -> String {
        String(format: "%.1fms", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
}
