// swift run collector --port 8080 --database collector.sqlite --allow com.example.app
import Collector
import CollectorServer
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
    USAGE: collector --allow APP_ID [--allow APP_ID ...] [--port PORT] [--host ADDRESS] [--database FILE]

    Serves the collector contract (docs/collector.md) over HTTP/1.1, for development:
    point a debug build's endpoint at http://127.0.0.1:PORT and watch events arrive,
    one log line per request. GET /v1/stats answers the visit statistics as JSON.

    OPTIONS:
      --allow APP_ID     an app id the collector accepts (repeatable; required)
      --port PORT        default 8080
      --host ADDRESS     default 127.0.0.1 (this machine only)
      --database FILE    SQLite store (default: in memory, gone on exit)
    """

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n\(usage)\n".utf8))
    exit(2)
}

/// Parses the arguments, serves until SIGINT or SIGTERM, and exits (a
/// function rather than top-level code, so its lines are a function's).
func serve(_ arguments: ArraySlice<String>) -> Never {
    var arguments = arguments
    var options = CollectorServer.Options()
    var allow: Set<String> = []
    var database = ":memory:"
    while let argument = arguments.popFirst() {
        var flag = argument
        var inline: String?
        if let equals = argument.firstIndex(of: "=") {
            flag = String(argument[..<equals])
            inline = String(argument[argument.index(after: equals)...])
        }
        func value() -> String {
            if let inline { return inline }
            guard let next = arguments.popFirst() else { fail("\(flag) needs a value") }
            return next
        }
        switch flag {
        case "--allow": allow.insert(value())
        case "--port":
            let text = value()
            guard let port = UInt16(text) else { fail("--port takes a number from 0 to 65535, not '\(text)'") }
            options.port = port
        case "--host": options.host = value()
        case "--database": database = value()
        case "--help", "-h":
            say(usage)
            exit(0)
        default: fail("unknown option '\(argument)'")
        }
    }
    guard !allow.isEmpty else { fail("name at least one app with --allow APP_ID") }

    let server: CollectorServer
    do {
        let store = try CollectorStore(path: database)
        server = CollectorServer(collector: try Collector(allowList: allow, store: store), options: options) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        try server.start()
    } catch {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        exit(1)
    }
    say("collector listening on http://\(options.host):\(server.port) (apps: \(allow.sorted().joined(separator: ", ")); store: \(database)); Ctrl-C stops")

    TerminationSignal.wait()
    say("stopping: finishing the requests in flight")
    server.stop()
    say("stopped")
    exit(0)
}

serve(CommandLine.arguments.dropFirst())
