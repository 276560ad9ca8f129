import AnalyticsTesting
import Collector
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `swift run collector`, the program a developer points a debug build at:
/// its usage errors, its startup line, a batch stored in its database, and
/// a clean stop on SIGTERM.
struct CollectorExecutableTests {
    /// The program's exit status, standard output and standard error, once
    /// it ends; `whileRunning` gets its process and the standard output so far.
    private func run(_ arguments: [String], in folder: URL,
                     whileRunning: ((Process, () -> String) throws -> Void)? = nil) throws -> (status: Int32, output: String, errors: String)
    {
        let program = builtExecutable("collector")
        try #require(FileManager.default.isExecutableFile(atPath: program.path), "build the collector product first")
        let output = folder.appendingPathComponent("out"), errors = folder.appendingPathComponent("err")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let read = { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        do {
            try whileRunning?(process, read)
        } catch {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw error
        }
        // An exit the test waits for comes at once: one that does not come
        // in 5 s fails here rather than hanging the run until its limit.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the collector (\(arguments.joined(separator: " "))) had not exited 5 s later: killed; it said: \(read())")
        }
        process.waitUntilExit()
        return (process.terminationStatus, read(), (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    @Test func badArgumentsExitTwoWithTheReasonAndTheUsage() throws {
        let folder = try TemporaryDirectory(prefix: "collector-usage", in: TestScratch.root)
        defer { folder.remove() }
        let none = try run([], in: folder.url)
        #expect(none.status == 2)
        #expect(none.errors.hasPrefix("error: name at least one app with --allow APP_ID\nUSAGE: collector"), "\(none.errors)")
        let port = try run(["--allow", "com.example.app", "--port", "http"], in: folder.url)
        #expect(port.status == 2)
        #expect(port.errors.hasPrefix("error: --port takes a number from 0 to 65535, not 'http'"), "\(port.errors)")
        let unknown = try run(["--allow=com.example.app", "--verbose"], in: folder.url)
        #expect(unknown.status == 2 && unknown.errors.hasPrefix("error: unknown option '--verbose'"), "\(unknown.errors)")
        let help = try run(["--help"], in: folder.url)
        #expect(help.status == 0 && help.output.hasPrefix("USAGE: collector") && help.errors.isEmpty)
    }

    @Test func aDatabaseItCannotOpenExitsOne() throws {
        let folder = try TemporaryDirectory(prefix: "collector-store", in: TestScratch.root)
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent("no/such/folder/c.sqlite").path
        let result = try run(["--allow", "com.example.app", "--port", "0", "--database", missing], in: folder.url)
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("error: "), "\(result.errors)")
        #expect(!result.output.contains("listening"))
    }

    /// Started as README says, on the port asked for: it says where it
    /// listens, stores what a client sends, and on SIGTERM finishes the
    /// request in flight before it exits 0.
    @Test(.timeLimit(.minutes(1)))
    func servesStoresAndStopsOnSIGTERM() throws {
        let folder = try TemporaryDirectory(prefix: "collector-run", in: TestScratch.root)
        defer { folder.remove() }
        let database = folder.url.appendingPathComponent("collector.sqlite").path
        let batch = CollectorRulesTests.batch([CollectorRulesTests.event(id: "0190a3c2-0000-7000-8000-000000000001")])
            .replacingOccurrences(of: "\(CollectorRulesTests.now)", with: "\(Int64(Date().timeIntervalSince1970 * 1000))")
        let port = freeLoopbackPort()
        var status = "", inFlight = ""
        let result = try run(["--allow", "com.example.app", "--port", "\(port)", "--database", database], in: folder.url) { process, output in
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, !output().contains("Ctrl-C stops\n") { usleep(10_000) }
            let line = try #require(output().split(separator: "\n").first { $0.hasPrefix("collector listening on ") })
            #expect(line == "collector listening on http://127.0.0.1:\(port) (apps: com.example.app; store: \(database)); Ctrl-C stops")
            status = post(batch, port: port)
            let slow = try #require(LoopbackConnection(port: port))
            slow.send("GET /v1/stats HTTP/1.1\r\n")
            usleep(200_000)
            kill(process.processIdentifier, SIGTERM)
            while Date() < deadline, !output().contains("stopping") { usleep(10_000) }
            // A second is far longer than a stop that does not wait takes: it has said "stopped" by then.
            let patience = Date().addingTimeInterval(1)
            while Date() < patience, !output().contains("stopped") { usleep(10_000) }
            #expect(!output().contains("stopped"), "it waits for the request in flight: \(output())")
            slow.send("\r\n")
            inFlight = slow.receive().answer.statusLine
        }
        #expect(status == "HTTP/1.1 200 OK")
        #expect(inFlight == "HTTP/1.1 200 OK", "the request in flight at SIGTERM is answered")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("stopping: finishing the requests in flight\n"), "\(result.output)")
        #expect(result.output.hasSuffix("stopped\n"), "\(result.output)")
        let lines = result.output.split(separator: "\n")
        let answered = lines.firstIndex { $0.hasPrefix("GET /v1/stats 200 ") }
        #expect(answered != nil && answered! < lines.firstIndex(of: "stopped")!, "the request in flight is answered before it stops: \(result.output)")
        #expect(try CollectorStore(path: database).events().map(\.eventID) == ["0190a3c2-0000-7000-8000-000000000001"])
    }
}
