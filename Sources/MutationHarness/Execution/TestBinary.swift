import Foundation

/// Which runner a test belongs to.
enum TestLibrary: String, Codable, Sendable {
    case xctest
    case swiftTesting
}

/// The package's test executable (`.build/debug/<Package>PackageTests.xctest`
/// on Linux), started directly with the tests to run: no SwiftPM start-up
/// per run, and any set of single tests rather than whole targets.
struct TestBinary: Equatable, Sendable {
    var path: String

    /// The test executable of the built copy at `root`; nil when there is
    /// none, or when it is a bundle (macOS runs bundles through `xctest`, so
    /// there the harness keeps to `swift test`).
    static func find(in root: URL) -> TestBinary? {
        let folder = root.appendingPathComponent(".build/debug")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix("PackageTests.xctest") }.sorted()
        for name in names {
            let path = folder.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue, access(path, X_OK) == 0 {
                return TestBinary(path: path)
            }
        }
        return nil
    }

    /// Runs the Swift Testing tests `ids` (one filter each), writing the
    /// xunit file `xunit` and the event stream `events`.
    func swiftTesting(_ ids: [String], xunit: URL, events: URL) -> [String] {
        [path, "--testing-library", "swift-testing", "--xunit-output", xunit.path, "--event-stream-output-path", events.path]
            + ids.flatMap { ["--filter", Self.filter(for: $0)] }
    }

    /// Runs the XCTest tests `ids` (`Module.Class/test`, comma-separated).
    func xctest(_ ids: [String]) -> [String] {
        [path, ids.joined(separator: ",")]
    }

    /// A filter that matches exactly one Swift Testing test: its id is
    /// `Module.Suite/name(labels:)`, followed in the runner by `/File.swift:LINE:COLUMN`.
    static func filter(for id: String) -> String {
        "^" + NSRegularExpression.escapedPattern(for: id) + "(/|$)"
    }
}

/// Reads XCTest's console lines (`Test Case 'Class.test' passed (0.001 seconds)`),
/// what a directly started XCTest run reports instead of an xunit file.
enum XCTestConsole {
    /// The results of the `requested` tests (`Module.Class/test`) that the
    /// console names; the module is taken from the request, since the
    /// console leaves it out on Linux.
    /// How the console names each of `ids` (`Module.Class/test`): `Class.test`
    /// on Linux, `-[Module.Class test]` on macOS; to the id.
    static func consoleNames(of ids: [String]) -> [String: String] {
        var byConsoleName: [String: String] = [:]
        for id in ids {
            let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let shortClass = parts[0].split(separator: ".").last.map(String.init) ?? parts[0]
            byConsoleName["\(shortClass).\(parts[1])"] = id
            byConsoleName["-[\(parts[0]) \(parts[1])]"] = id
        }
        return byConsoleName
    }

    static func cases(in log: String, requested: [String]) -> [TestCaseResult] {
        let byConsoleName = consoleNames(of: requested)
        var cases: [TestCaseResult] = []
        for line in log.split(separator: "\n") where line.hasPrefix("Test Case '") {
            let rest = line.dropFirst("Test Case '".count)
            guard let quote = rest.firstIndex(of: "'") else { continue }
            let outcome = rest[rest.index(after: quote)...]
            let failed = outcome.hasPrefix(" failed")
            guard failed || outcome.hasPrefix(" passed"), let id = byConsoleName[String(rest[..<quote])] else { continue }
            let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
            cases.append(TestCaseResult(id: id, className: parts[0], name: parts[1], failed: failed, message: failed ? "failure" : nil))
        }
        return cases
    }
}
