import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Plain HTTP/1.1 on loopback, byte for byte: what a client of the collector sends.

/// One client connection, driven as a test needs: bytes sent in pieces,
/// the sending side closed or the connection reset, and the server's whole
/// answer read with whether the server closed the connection.
final class LoopbackConnection {
    private var socket: Int32

    /// Nil when the connection is refused.
    init?(port: UInt16, receiveTimeout seconds: Int = 3) {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            // A class's failable init that fails once every property is set
            // still runs `deinit`: the socket is closed there, once. (Closed
            // here too, its number, given meanwhile to another test's
            // socket, was closed under that test: a server's `bind` failed
            // with EBADF.)
            return nil
        }
        var timeout = timeval()
        timeout.tv_sec = .init(seconds)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { if socket >= 0 { close(socket) } }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            sent += count
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends `bytes` one at a time, a pause between each: a slow client.
    func trickle(_ bytes: [UInt8], pause microseconds: UInt32 = 2_000) {
        for byte in bytes {
            send([byte])
            usleep(microseconds)
        }
    }

    /// No more bytes from this side (the server reads end of file).
    func finishSending() { shutdown(socket, Int32(SHUT_WR)) }

    /// Resets the connection (RST, by closing with a zero linger time): the
    /// server's next read fails with `ECONNRESET`. Nothing more can be sent.
    func reset() {
        var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Foundation.linger>.size))
        close(socket)
        socket = -1
    }

    /// Everything the server sends until it closes the connection, and
    /// whether it did close it (false: the receive time-out came first).
    func receive() -> (answer: HTTPAnswer, closed: Bool) {
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var closed = false
        while true {
            let count = read(socket, &chunk, chunk.count)
            if count == 0 { closed = true }
            if count <= 0 { break }
            response += chunk[0..<count]
        }
        return (HTTPAnswer(response), closed)
    }
}

/// A response as it came over the wire.
struct HTTPAnswer {
    /// Everything before the blank line (the status line and headers).
    let head: String
    let body: String

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        head = parts[0]
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
    }

    /// The status line ("" if the server sent nothing).
    var statusLine: String { head.components(separatedBy: "\r\n")[0] }
}

/// Sends raw bytes on a fresh connection; returns the status line (or "" if the server closed without one).
func exchange(_ bytes: [UInt8], port: UInt16, closeAfterSending: Bool = false) -> String {
    guard let connection = LoopbackConnection(port: port) else { return "connect failed" }
    connection.send(bytes)
    if closeAfterSending { connection.finishSending() }
    return connection.receive().answer.statusLine
}

/// POSTs `body` to `/v1/batch`; returns the status line.
func post(_ body: String, port: UInt16) -> String {
    exchange(Array("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8), port: port)
}

/// A loopback port nothing listens on right now (bound to port 0, then let
/// go: `withRefusingPort`'s, once it returns); 0 if none could be bound.
func freeLoopbackPort() -> UInt16 {
    (try? withRefusingPort { $0 }) ?? 0
}

/// Runs `body` with a port on 127.0.0.1 that refuses connections: a socket
/// bound to it and never listening, held until `body` returns, so no other
/// test can take the port meanwhile (a port only let go can be given to the
/// next `bind` to port 0, another test's server).
func withRefusingPort<Result>(_ body: (UInt16) throws -> Result) throws -> Result {
    #if canImport(Glibc)
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
    let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
    return try body(UInt16(bigEndian: address.sin_port))
}
