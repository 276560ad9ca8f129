/// The request line and headers of one HTTP/1.1 request, parsed strictly.
struct HTTPRequestHead: Equatable {
    var method: String
    var path: String
    var headers: [String: String]

    /// Why a head is refused, as the status to answer.
    enum Refusal: Error, Equatable {
        case badRequest(String)
        case headersTooLarge
        case versionNotSupported
    }

    static let maximumHeaders = 100

    /// Parses the bytes before the blank line (without it).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(Refusal) -> HTTPRequestHead {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .badRequest("the request head is not UTF-8") }
        guard !text.isEmpty else { throw .badRequest("empty request") }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        // RFC 9112 2.2: a bare CR or LF is refused, not read as a line end.
        guard !lines.contains(where: { $0.contains("\r") || $0.contains("\n") }) else { throw .badRequest("bare CR or LF in the request head") }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[1].hasPrefix("/") else {
            throw .badRequest("malformed request line")
        }
        guard requestLine[0].allSatisfy({ $0.isUppercase }) else { throw .badRequest("malformed method") }
        guard requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0" else {
            throw requestLine[2].hasPrefix("HTTP/") ? .versionNotSupported : .badRequest("malformed request line")
        }
        guard lines.count <= maximumHeaders else { throw .headersTooLarge }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .badRequest("malformed header line") }
            let name = line[..<colon]
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else { throw .badRequest("malformed header name") }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            let key = name.lowercased()
            if key == "content-length", let existing = headers[key], existing != value {
                throw .badRequest("conflicting Content-Length headers")
            }
            headers[key] = value
        }
        return HTTPRequestHead(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }
}
