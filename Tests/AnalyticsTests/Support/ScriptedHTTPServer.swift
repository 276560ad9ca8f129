import AnalyticsSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 responder on 127.0.0.1 that answers each connection from
/// a script and records what it received. Loopback only; it serves at most
/// the scripted number of connections and then stops.
final class ScriptedHTTPServer: Sendable {
    enum Reply: Sendable {
        case respond(status: Int, reason: String, headers: [String: String] = [:], body: String = "")
        /// Sends the status line and part of the headers, then closes.
        case dropMidResponse
    }

    struct Received: Sendable {
        var requestLine: String
        var headers: [String: String]
        var body: [UInt8]
    }

    let port: UInt16
    private let listener: Int32
    private let received = Locked<[Received]>([])
    private let done = DispatchSemaphore(value: 0)

    init(script: [Reply]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve(script) }
        thread.start()
    }

    var requests: [Received] {
        received.withLock { $0 }
    }

    /// Waits (bounded) until every scripted connection was served.
    func finish() {
        _ = done.wait(timeout: .now() + 10)
        close(listener)
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/v1/batch")! }

    private func serve(_ script: [Reply]) {
        for reply in script {
            let connection = accept(listener, nil, nil)
            if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
            guard connection >= 0 else { break }
            if let request = readRequest(connection) {
                received.withLock { $0.append(request) }
            }
            switch reply {
            case let .respond(status, reason, headers, body):
                var text = "HTTP/1.1 \(status) \(reason)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
                for (name, value) in headers { text += "\(name): \(value)\r\n" }
                text += "\r\n" + body
                writeAll(connection, Array(text.utf8))
            case .dropMidResponse:
                writeAll(connection, Array("HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n{\"acc".utf8))
            }
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
        done.signal()
    }

    private func readRequest(_ connection: Int32) -> Received? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            if let end = headerEnd, buffer.count >= end + contentLength { break }
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { break }
            buffer += chunk[0..<count]
            if headerEnd == nil, let range = findHeaderEnd(buffer) {
                headerEnd = range
                let head = String(decoding: buffer[0..<range], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let end = headerEnd else { return nil }
        let lines = String(decoding: buffer[0..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Received(requestLine: lines.first ?? "", headers: headers, body: Array(buffer[end...].prefix(contentLength)))
    }

    private func findHeaderEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// A port on 127.0.0.1 with nothing listening.
    static func refusedPort() -> UInt16 {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) }
        }
        close(probe)
        return UInt16(bigEndian: address.sin_port)
    }
}
