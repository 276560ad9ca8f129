import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One test case as the runners reported it.
struct TestCaseResult: Equatable, Sendable {
    /// `Module.Type/name`, the id used in reports.
    var id: String
    var className: String
    var name: String
    var failed: Bool
    var message: String?
    /// The runner that reported it.
    var library: TestLibrary = .xctest
}

/// What one `swift test` run reported, read from the runners' structured
/// output: the XCTest xunit file and the Swift Testing one
/// (`<name>-swift-testing.xml`).
struct TestRunReport: Equatable, Sendable {
    var cases: [TestCaseResult]
    /// The test that was running when the test process crashed, if one can be named.
    var crashedTest: String?
    /// Other tests that had started and not finished when the process died.
    var unfinished: [String] = []
    /// What the runtime said when the process crashed, with the signal.
    var crashSummary: String?

    init(cases: [TestCaseResult], crashedTest: String? = nil, unfinished: [String] = [], crashSummary: String? = nil) {
        self.cases = cases
        self.crashedTest = crashedTest
        self.unfinished = unfinished
        self.crashSummary = crashSummary
    }

    var failures: [TestCaseResult] { cases.filter(\.failed) }

    /// Reads every xunit file written for `xunitPath`. XCTest's xunit says
    /// only "failure"; the message for such a test is then taken from its
    /// `error: Class.test : message` console line in `log`.
    ///
    /// When the test process crashed before writing its xunit file, the
    /// Swift Testing event stream (`eventStream`) still names the tests that
    /// failed and the one that was running.
    /// A run that started the XCTest tests `xctestConsole` directly has no
    /// xunit file for them: their results are read from the console.
    static func read(xunitPath: URL, eventStream: URL? = nil, log: String?, xctestConsole: [String]? = nil) -> TestRunReport {
        let swiftTesting = xunitPath.deletingPathExtension().path + "-swift-testing.xml"
        var cases: [TestCaseResult] = []
        for (path, library) in [(xunitPath.path, TestLibrary.xctest), (swiftTesting, .swiftTesting)] {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            cases += XUnitReader.parse(data).map { var result = $0; result.library = library; return result }
        }
        if let xctestConsole, let log { cases += XCTestConsole.cases(in: log, requested: xctestConsole) }
        if let log {
            cases = cases.map { result in
                guard result.failed, result.message == nil || result.message == "failure" else { return result }
                var result = result
                result.message = xctestMessage(for: result, in: log) ?? result.message
                return result
            }
        }
        var report = TestRunReport(cases: cases)
        var unfinished: [String] = []
        if let eventStream, let events = EventStreamReader.read(eventStream) {
            let known = Set(cases.map(\.id))
            for failure in events.failures where !known.contains(failure.id) {
                report.cases.append(TestCaseResult(id: failure.id, className: "", name: failure.id, failed: true, message: failure.message,
                                                   library: .swiftTesting))
            }
            unfinished = events.unfinished
        }
        let crash = CrashLog(log: log ?? "")
        if crash.message != nil || !crash.crashedXCTests.isEmpty {
            // XCTest's xunit says only "failure" for a case whose process died.
            report.cases = report.cases.map { result in
                guard result.failed, result.message == nil || result.message == "failure" else { return result }
                var result = result
                result.message = "crash: \(crash.summary)"
                return result
            }
        }
        unfinished += crash.crashedXCTests.filter { !unfinished.contains($0) }
        if !unfinished.isEmpty || crash.message != nil || crash.signal != nil {
            // The crashing thread's frames name the test; without them, the
            // test that started last is the best guess.
            report.crashedTest = unfinished.first(where: crash.crashedThreadRan) ?? crash.crashedXCTests.first ?? unfinished.last
            report.unfinished = unfinished.filter { $0 != report.crashedTest }
            report.crashSummary = crash.summary
        }
        return report
    }

    private static func xctestMessage(for result: TestCaseResult, in log: String) -> String? {
        let shortClass = result.className.split(separator: ".").last.map(String.init) ?? result.className
        for marker in [" error: \(shortClass).\(result.name) : ", " error: -[\(result.className) \(result.name)] : "] {
            if let line = log.split(separator: "\n").first(where: { $0.contains(marker) }),
               let range = line.range(of: marker)
            {
                return String(line[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: " -"))
            }
        }
        return nil
    }
}

/// A minimal JUnit/xunit reader: `testcase` elements and their `failure`/`error` children.
final class XUnitReader: NSObject, XMLParserDelegate {
    private var cases: [TestCaseResult] = []
    private var current: TestCaseResult?

    static func parse(_ data: Data) -> [TestCaseResult] {
        let reader = XUnitReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        _ = parser.parse() // a truncated file (a killed run) still yields the cases read so far
        return reader.cases
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:])
    {
        switch element {
        case "testcase":
            let className = attributes["classname"] ?? ""
            let name = attributes["name"] ?? ""
            current = TestCaseResult(id: className.isEmpty ? name : "\(className)/\(name)", className: className, name: name,
                                     failed: false, message: nil)
        case "failure", "error":
            current?.failed = true
            if current?.message == nil { current?.message = attributes["message"] }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "testcase", let current {
            cases.append(current)
            self.current = nil
        }
    }
}
