import Analytics
import Foundation
import Testing

/// The real `URLSessionTransport` over loopback against a scripted HTTP
/// responder: every status comes back as a value; only a missing response
/// is a `NetworkFailure`.
@Suite(.serialized)
struct URLSessionTransportTests {
    private func request(_ url: URL) -> TransportRequest {
        TransportRequest(url: url, method: "POST", headers: ["Content-Type": "application/json"], body: Array("{\"schema_version\":1}".utf8))
    }

    @Test func everyStatusIsAValueWithHeadersAndBody() async throws {
        let replies: [(Int, String, [String: String], String)] = [
            (200, "OK", [:], "{\"accepted\":1,\"duplicates\":0}"),
            (400, "Bad Request", [:], "{\"error\":\"bad_json\"}"),
            (403, "Forbidden", ["Access-Control-Allow-Origin": "*"], "{\"error\":\"unknown_app\"}"),
            (413, "Payload Too Large", [:], "{\"error\":\"too_large\"}"),
            (429, "Too Many Requests", ["Retry-After": "30"], ""),
            (503, "Service Unavailable", [:], ""),
        ]
        let server = try ScriptedHTTPServer(script: replies.map { .respond(status: $0.0, reason: $0.1, headers: $0.2, body: $0.3) })
        let transport = URLSessionTransport(timeout: .seconds(10))
        for (status, _, headers, body) in replies {
            let response = try await transport.send(request(server.url))
            #expect(response.status == status)
            #expect(String(decoding: response.body, as: UTF8.self) == body)
            for (name, value) in headers { #expect(response.header(name) == value) }
        }
        server.finish()
        let received = server.requests
        #expect(received.count == replies.count)
        #expect(received.first?.requestLine == "POST /v1/batch HTTP/1.1")
        #expect(received.first?.headers["content-type"] == "application/json")
        #expect(received.first.map { String(decoding: $0.body, as: UTF8.self) } == "{\"schema_version\":1}")
    }

    @Test func aConnectionDroppedMidResponseIsANetworkFailure() async throws {
        let server = try ScriptedHTTPServer(script: [.dropMidResponse])
        let transport = URLSessionTransport(timeout: .seconds(10))
        await #expect(throws: NetworkFailure.self) { try await transport.send(request(server.url)) }
        server.finish()
    }

    @Test func aRefusedPortIsANetworkFailure() async throws {
        let url = URL(string: "http://127.0.0.1:\(ScriptedHTTPServer.refusedPort())/v1/batch")!
        let transport = URLSessionTransport(timeout: .seconds(10))
        let failure = await #expect(throws: NetworkFailure.self) { try await transport.send(request(url)) }
        // The diagnostics quote it: the system's reason, not a guess about the response.
        #expect(failure.map { !$0.message.isEmpty && $0.message != "the response was not HTTP" } == true, "\(String(describing: failure))")
    }
}
