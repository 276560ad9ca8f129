import AnalyticsSupport
import Collector
@testable import CollectorServer
import Foundation
import Testing

/// One request as a client sends it, in pieces, at the edges of the
/// server's limits, and what comes back: the status line, the headers, the
/// body, and the log line a developer reads.
struct CollectorServerRequestTests {
    private static let batch = CollectorRulesTests.batch([CollectorRulesTests.event()])

    private static func postHead(length: Int, path: String = "/v1/batch") -> String {
        "POST \(path) HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
    }

    @Test func aHeadSentOneByteAtATimeIsAnswered() throws {
        let served = try ServedCollector()
        let connection = try served.connect()
        // The first byte alone for half a second: the server's first read of the head is that one byte.
        connection.send("G")
        usleep(500_000)
        connection.trickle(Array("ET /v1/stats HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(connection.receive().answer.statusLine == "HTTP/1.1 200 OK",
                "reads of one, two and three bytes are part of a head, not its end")
    }

    @Test func anEmptyHeadIsABadRequest() throws {
        let served = try ServedCollector()
        let answer = try served.exchange("\r\n\r\n")
        #expect(answer.statusLine == "HTTP/1.1 400 Bad Request")
        #expect(answer.body == #"{"detail":"empty request","error":"bad_request"}"#)
    }

    @Test func aHeadThatNeverEndsIsRefusedAsSoonAsItIsOverTheLimit() throws {
        let served = try ServedCollector(readTimeout: 10, maximumHeadBytes: 100)
        let connection = try served.connect()
        connection.send("GET /v1/stats HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: 120))
        let (answer, closed) = connection.receive()
        #expect(answer.statusLine == "HTTP/1.1 431 Request Header Fields Too Large", "not a time-out 10 s later")
        #expect(closed)
        #expect(served.waitForLog(containing: "431")?.hasPrefix("- - 431 request head over 100 bytes ") == true, "\(served.log)")
    }

    @Test func aHeadOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() throws {
        let served = try ServedCollector(maximumHeadBytes: 100)
        let start = "GET /v1/stats HTTP/1.1\r\nX-Pad: "
        let exact = start + String(repeating: "a", count: 100 - start.utf8.count)
        #expect(exact.utf8.count == 100)
        let connection = try served.connect()
        connection.send(exact)
        usleep(100_000) // the server reads the 100 bytes alone: no end yet, and not over the limit
        connection.send("\r\n\r\n")
        #expect(connection.receive().answer.statusLine == "HTTP/1.1 200 OK")
        #expect(try served.exchange(exact + "a\r\n\r\n").statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
        // The limit and nothing after it: a head not yet complete, waited for until the read
        // times out, not refused as too long. (Above, whether the server reads the 100 bytes
        // alone depends on the pause being long enough; here nothing else ever comes.)
        let waited = try ServedCollector(readTimeout: 1, maximumHeadBytes: 100)
        let held = try waited.connect(receiveTimeout: 6)
        held.send(exact)
        #expect(held.receive().answer.statusLine == "HTTP/1.1 408 Request Timeout")
    }

    @Test func aBodyReadWithItsHeadDoesNotCountAgainstTheHeadLimit() throws {
        let served = try ServedCollector(maximumHeadBytes: 100)
        let head = Self.postHead(length: Self.batch.utf8.count)
        #expect(head.utf8.count < 100 && Self.batch.utf8.count > 100)
        #expect(try served.exchange(head + Self.batch).statusLine == "HTTP/1.1 200 OK")
    }

    /// The head ends at the first CR LF CR LF and nowhere else: a stray CR
    /// or LF before it is part of the head, and refused there.
    @Test(arguments: ["X-A: a\rb\r\n", "X-A: a\n\r\nX-B: c\r\n", "\rX-A: b\r\n", "X\nA: b\r\n"])
    func aStrayLineBreakDoesNotEndTheHead(headers: String) throws {
        let served = try ServedCollector()
        let answer = try served.exchange("GET /v1/stats HTTP/1.1\r\n" + headers + "\r\n")
        #expect(answer.statusLine == "HTTP/1.1 400 Bad Request")
        #expect(answer.body.contains("bare CR or LF in the request head"), "\(answer.body)")
    }

    /// A client that hangs up before its head is complete frees its
    /// connection: with one connection allowed, the next client is served.
    @Test func aClientThatHangsUpMidHeadFreesItsConnection() throws {
        let served = try ServedCollector(maximumConnections: 1)
        let leaving = try served.connect()
        leaving.send("GET /v1/st")
        leaving.finishSending()
        #expect(leaving.receive().closed, "nothing to answer: the connection is closed")
        let deadline = Date().addingTimeInterval(5)
        var status = ""
        while status != "HTTP/1.1 200 OK", Date() < deadline {
            status = try served.exchange("GET /v1/stats HTTP/1.1\r\n\r\n").statusLine
            if status != "HTTP/1.1 200 OK" { usleep(20_000) }
        }
        #expect(status == "HTTP/1.1 200 OK")
    }

    /// A client gone before its answer: the server's send fails at once
    /// (the peer's end of a socket pair, closed after the request), and the
    /// server drops that answer and goes on serving; it neither sends it
    /// forever nor reads past the answer's bytes.
    @Test func anAnswerToAClientAlreadyGoneIsDroppedAndTheServerGoesOn() throws {
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        #else
        #expect(socketpair(AF_UNIX, SOCK_STREAM, 0, &ends) == 0)
        #endif
        let request = Array("GET /v1/stats HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(request.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == request.count)
        close(ends[1])  // gone before the answer: the server reads the request, and its send fails
        let gone = ends[0]
        let handedOut = Locked(false)
        let served = try ServedCollector { listener in
            if !handedOut.withLock({ was in defer { was = true }; return was }) { return gone }
            return accept(listener, nil, nil)
        }
        #expect(served.waitForLog(containing: "GET /v1/stats 200") != nil, "the first request was served: \(served.log)")
        #expect(try served.exchange("GET /v1/stats HTTP/1.1\r\n\r\n").statusLine == "HTTP/1.1 200 OK", "and the next client is answered")
    }

    @Test func contentLengthMustBeANumberOfZeroOrMore() throws {
        let served = try ServedCollector()
        let negative = try served.exchange("POST /v1/batch HTTP/1.1\r\nContent-Length: -1\r\n\r\n")
        #expect(negative.statusLine == "HTTP/1.1 400 Bad Request")
        #expect(negative.body.contains(#""detail":"bad Content-Length""#))
        #expect(try served.exchange("GET /v1/stats HTTP/1.1\r\nContent-Length: 0\r\n\r\n").statusLine == "HTTP/1.1 200 OK")
    }

    @Test func aBodyOfExactlyTheCollectorsLimitIsReadAndJudged() throws {
        let served = try ServedCollector()
        let limit = Collector.maximumBodyBytes
        let answer = try served.exchange(Self.postHead(length: limit) + String(repeating: " ", count: limit))
        #expect(answer.statusLine == "HTTP/1.1 400 Bad Request", "read, then refused as JSON: \(answer.body)")
        let over = try served.exchange(Self.postHead(length: limit + 1))
        #expect(over.statusLine == "HTTP/1.1 413 Content Too Large", "one byte more: refused before it is read")
    }

    @Test func aBodyThatComesInPiecesIsReadWhole() throws {
        let served = try ServedCollector()
        let connection = try served.connect()
        connection.send(Self.postHead(length: Self.batch.utf8.count))
        connection.trickle(Array(Self.batch.utf8), pause: 500)
        let (answer, closed) = connection.receive()
        #expect(answer.statusLine == "HTTP/1.1 200 OK", "\(answer.body)")
        #expect(answer.body == #"{"accepted":1,"duplicates":0}"#)
        #expect(closed)
    }

    @Test func aClientThatLeavesMidBodyIsLoggedAndNotAnswered() throws {
        let served = try ServedCollector()
        let connection = try served.connect()
        connection.send(Self.postHead(length: 50) + "abc")
        connection.finishSending()
        let (answer, closed) = connection.receive()
        #expect(answer.head.isEmpty && closed)
        #expect(served.waitForLog(containing: "client closed") == "POST /v1/batch - client closed after 3 of 50 body bytes")
    }

    /// A reset is not a time-out: nothing is answered and no 408 is logged,
    /// mid-head (no line at all) or mid-body (the line of a client gone).
    @Test func aClientThatResetsIsNotLoggedAsATimeOut() throws {
        let served = try ServedCollector()
        for request in ["GET /v1/st", Self.postHead(length: 50) + "abc"] {
            let connection = try served.connect()
            connection.send(request)
            usleep(100_000)
            connection.reset()
        }
        #expect(served.waitForLog(containing: "client closed") == "POST /v1/batch - client closed after 3 of 50 body bytes", "\(served.log)")
        usleep(100_000)
        #expect(served.log == ["POST /v1/batch - client closed after 3 of 50 body bytes"], "no 408 for either")
    }

    @Test func aReadTimeOutWithAFractionOfASecond() throws {
        let served = try ServedCollector(readTimeout: 1.5)
        let connection = try served.connect(receiveTimeout: 6)
        connection.send("GET /v1/st")
        #expect(connection.receive().answer.statusLine == "HTTP/1.1 408 Request Timeout")
    }

    @Test func statisticsAnswerGETOnAnyPrefixAndNothingElse() throws {
        let served = try ServedCollector()
        #expect(try served.exchange("GET /collect/v1/stats HTTP/1.1\r\n\r\n").statusLine == "HTTP/1.1 200 OK")
        #expect(try served.exchange("GET /v1/batch HTTP/1.1\r\n\r\n").statusLine == "HTTP/1.1 405 Method Not Allowed",
                "the collector's answer, not the statistics")
        #expect(try served.exchange(Self.postHead(length: 2, path: "/v1/stats") + "{}").statusLine == "HTTP/1.1 404 Not Found")
    }

    @Test func theStatusLineOfEveryAnswerTheCollectorGives() throws {
        let served = try ServedCollector()
        #expect(try served.exchange("OPTIONS /v1/batch HTTP/1.1\r\n\r\n").statusLine == "HTTP/1.1 204 No Content")
        let stranger = CollectorRulesTests.batch([CollectorRulesTests.event()], app: "com.example.other")
        #expect(try served.exchange(Self.postHead(length: stranger.utf8.count) + stranger).statusLine == "HTTP/1.1 403 Forbidden")
        #expect(try served.exchange("GET /elsewhere HTTP/1.1\r\n\r\n").statusLine == "HTTP/1.1 404 Not Found")
        // The contract's other answers, for collectors that give them.
        #expect(CollectorServer.reasonPhrase(429) == "Too Many Requests")
        #expect(CollectorServer.reasonPhrase(599) == "Status")
    }

    @Test func theHeadOfAnAnswerOnTheWire() throws {
        let served = try ServedCollector()
        let answer = try served.exchange("GET /nowhere HTTP/1.1\r\n\r\n")
        #expect(answer.head == """
            HTTP/1.1 404 Not Found\r
            Access-Control-Allow-Headers: Content-Type\r
            Access-Control-Allow-Methods: POST, OPTIONS\r
            Access-Control-Allow-Origin: *\r
            Connection: close\r
            Content-Length: \(answer.body.utf8.count)\r
            Content-Type: application/json
            """)
    }

    @Test func theStatisticsAsJSON() throws {
        let served = try ServedCollector()
        var events: [String] = []
        for (number, duration) in [Int64(1_000), 3_000].enumerated() {
            events += VisitStatisticsTests.visit("home", duration, session: "s-1", number: number + 1)
        }
        events += VisitStatisticsTests.visit("cart", nil, session: "s-2", number: 3)
        let batch = CollectorRulesTests.batch(events)
        #expect(try served.exchange(Self.postHead(length: batch.utf8.count) + batch).statusLine == "HTTP/1.1 200 OK")
        let answer = try served.exchange("GET /v1/stats HTTP/1.1\r\n\r\n")
        #expect(answer.head.contains("Content-Type: application/json"))
        let stats = try JSONParser.parse(Array(answer.body.utf8))
        #expect(stats == .object([
            "events": .integer(5), "sessions": .integer(1), // a session counts by its completed visits
            "screens": .object([
                "home": .object([
                    "visits": .integer(2), "counted_visits": .integer(2), "mean_ms": .double(2_000), "median_ms": .double(2_000),
                    "short_visits": .integer(0), "capped_visits": .integer(0), "unpaired_enters": .integer(0),
                ]),
                "cart": .object([
                    "visits": .integer(0), "counted_visits": .integer(0), "mean_ms": .null, "median_ms": .null,
                    "short_visits": .integer(0), "capped_visits": .integer(0), "unpaired_enters": .integer(1),
                ]),
            ]),
        ]), "\(answer.body)")
    }

    /// One line per request: what was asked, the answer, and how long it took.
    @Test func everyRequestGetsOneLogLineWithItsDuration() throws {
        let served = try ServedCollector()
        _ = try served.exchange("GET /v1/stats HTTP/1.1\r\n\r\n")
        _ = try served.exchange("GARBAGE\r\n\r\n")
        _ = try served.exchange(Self.postHead(length: Self.batch.utf8.count) + Self.batch)
        let lines = [
            served.waitForLog(containing: "GET /v1/stats 200 "),
            served.waitForLog(containing: "- - 400 malformed request line "),
            served.waitForLog(containing: #"POST /v1/batch 200 \#(Self.batch.utf8.count) bytes {"accepted":1,"duplicates":0} "#),
        ]
        for line in lines {
            let line = try #require(line, "\(served.log)")
            let duration = try #require(Double(line.split(separator: " ").last?.dropLast(2) ?? ""), "\(line)")
            #expect(line.hasSuffix("ms") && duration >= 0 && duration < 60_000, "\(line)")
        }
        #expect(served.log.count == 3, "\(served.log)")
    }
}
