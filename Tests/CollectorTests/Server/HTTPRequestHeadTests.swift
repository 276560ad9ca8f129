@testable import CollectorServer
import Testing

/// The request line and headers, parsed strictly: each rule, and the
/// request just inside it.
struct HTTPRequestHeadTests {
    private func parse(_ text: String) throws(HTTPRequestHead.Refusal) -> HTTPRequestHead {
        try HTTPRequestHead.parse(ArraySlice(text.utf8))
    }

    private func refusal(_ text: String) -> HTTPRequestHead.Refusal? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRequestLineAndItsHeaders() throws {
        let head = try parse("POST /v1/batch HTTP/1.1\r\nContent-Length: 12\r\nX-Trace:  a b \r\nx-trace: c")
        #expect(head == HTTPRequestHead(method: "POST", path: "/v1/batch", headers: ["content-length": "12", "x-trace": "c"]),
                "names lowercased, values trimmed, the last of a repeated header kept")
        #expect(try parse("GET / HTTP/1.0").headers.isEmpty)
    }

    @Test func malformedRequestLines() {
        #expect(refusal("") == .badRequest("empty request"))
        #expect(refusal(" / HTTP/1.1") == .badRequest("malformed request line"), "no method")
        #expect(refusal("GET  / HTTP/1.1") == .badRequest("malformed request line"), "two spaces")
        #expect(refusal("GET v1/batch HTTP/1.1") == .badRequest("malformed request line"), "a path not from the root")
        #expect(refusal("GET / HTTP/1.1 extra") == .badRequest("malformed request line"))
        #expect(refusal("get / HTTP/1.1") == .badRequest("malformed method"))
        #expect(refusal("GET / HTTP/2.0") == .versionNotSupported)
        #expect(refusal("GET / SPDY/3") == .badRequest("malformed request line"))
        #expect(refusal("GET / HTTP/1.1\r\n\u{FF}") == .badRequest("malformed header line"))
        #expect((try? HTTPRequestHead.parse([0x47, 0x45, 0x54, 0x20, 0xFF][...])) == nil, "not UTF-8")
    }

    @Test func aBareCROrLFIsRefused() {
        #expect(refusal("GET / HTTP/1.1\r\nX-A: a\rb") == .badRequest("bare CR or LF in the request head"))
        #expect(refusal("GET / HTTP/1.1\r\nX-A: a\nb") == .badRequest("bare CR or LF in the request head"))
        #expect(refusal("GET /\r HTTP/1.1") == .badRequest("bare CR or LF in the request head"))
    }

    @Test func malformedHeaderNames() {
        #expect(refusal("GET / HTTP/1.1\r\nno colon") == .badRequest("malformed header line"))
        #expect(refusal("GET / HTTP/1.1\r\n: empty") == .badRequest("malformed header name"))
        #expect(refusal("GET / HTTP/1.1\r\nX Y: z") == .badRequest("malformed header name"))
        #expect(refusal("GET / HTTP/1.1\r\nX\tY: z") == .badRequest("malformed header name"))
    }

    @Test func aHundredHeaderLinesAndNotOneMore() throws {
        let lines = (0..<100).map { "X-\($0): y" }
        #expect(try parse((["GET / HTTP/1.1"] + lines).joined(separator: "\r\n")).headers.count == 100)
        #expect(refusal((["GET / HTTP/1.1"] + lines + ["X-100: y"]).joined(separator: "\r\n")) == .headersTooLarge)
    }

    @Test func repeatedContentLengthsMustAgree() throws {
        #expect(try parse("POST / HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 5").headers["content-length"] == "5")
        #expect(refusal("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6") == .badRequest("conflicting Content-Length headers"))
        #expect(try parse("POST / HTTP/1.1\r\nX-A: 5\r\nX-A: 6").headers["x-a"] == "6", "other headers may repeat")
    }
}
