import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Plain HTTP/1.1 on loopback, byte for byte: what a client of the collector sends.

/// Sends raw bytes on a fresh connection; returns the status line (or "" if the server closed without one).
func exchange(_ bytes: [UInt8], port: UInt16, closeAfterSending: Bool = false) -> String {
    #if canImport(Glibc)
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return "connect failed" }
    var timeout = timeval()
    timeout.tv_sec = 10
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
    if closeAfterSending { shutdown(socket, Int32(SHUT_WR)) }
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(socket, &chunk, chunk.count)
        if count <= 0 { break }
        response += chunk[0..<count]
    }
    return String(decoding: response, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
}

/// POSTs `body` to `/v1/batch`; returns the status line.
func post(_ body: String, port: UInt16) -> String {
    exchange(Array("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8), port: port)
}
