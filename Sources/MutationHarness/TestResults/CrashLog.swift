/// What a test log says about a crashed test process: the runtime's message,
/// the signal, and the test the crashing thread was running.
///
/// Swift's runtime prints `File.swift:4: Precondition failed: ...` (or
/// `Fatal error`, `Assertion failed`), then a backtrace whose crashed thread
/// (`Thread 4 "..." crashed:`) lists the test function
/// (`ArithmeticTests.addsTwoNumbers() + 165 in ...`). `swift test --parallel`
/// runs each XCTest case in a process of its own and names it when it dies
/// (`Process '... Module.Class/test' exited with unexpected signal code 4`).
struct CrashLog: Equatable {
    /// The runtime's message, such as `Tiny/Arithmetic.swift:4: Precondition failed: lock() failed`.
    var message: String?
    /// The signal that ended the test process, if the log names one.
    var signal: Int32?
    /// Frames of the thread that crashed, innermost first.
    var crashedFrames: [String]
    /// XCTest ids (`Module.Class/test`) whose own process died.
    var crashedXCTests: [String]

    static let messageMarkers = [": Fatal error", ": Precondition failed", ": Assertion failed", "Fatal error: ", "Unexpectedly found nil"]

    init(message: String? = nil, signal: Int32? = nil, crashedFrames: [String] = [], crashedXCTests: [String] = []) {
        self.message = message
        self.signal = signal
        self.crashedFrames = crashedFrames
        self.crashedXCTests = crashedXCTests
    }

    init(log: String) {
        self.init()
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        var inCrashedThread = false
        for line in lines {
            if message == nil, Self.messageMarkers.contains(where: { line.contains($0) }) {
                message = line.trimmingCharacters(in: .whitespaces)
            }
            if let range = line.range(of: "exited with unexpected signal code ") {
                let digits = line[range.upperBound...].prefix { $0.isNumber }
                if signal == nil { signal = Int32(digits) }
                // Process '/path/Foo.xctest Module.Class/test' exited ...
                // (the path may hold spaces: the test is the last word).
                if let quote = line.range(of: "Process '"), let end = line.range(of: "' exited") {
                    let command = line[quote.upperBound..<end.lowerBound].split(separator: " ")
                    if command.count >= 2, let test = command.last, test.contains("/"), !test.hasSuffix(".xctest") {
                        crashedXCTests.append(String(test))
                    }
                }
            } else if signal == nil, let range = line.range(of: "*** Signal ") {
                signal = Int32(line[range.upperBound...].prefix { $0.isNumber })
            }
            if line.hasPrefix("Thread "), line.hasSuffix(" crashed:") {
                inCrashedThread = crashedFrames.isEmpty
                continue
            }
            if inCrashedThread {
                if line.hasPrefix("Thread ") || line.hasPrefix("Registers:") || line == "..." {
                    inCrashedThread = false
                } else {
                    crashedFrames.append(String(line))
                }
            }
        }
    }

    /// Whether the crashed thread ran the test `id` (`Module.Suite/name()` or `Module.Class/test`).
    func crashedThreadRan(_ id: String) -> Bool {
        let parts = id.split(separator: "/")
        guard parts.count >= 2, let type = parts[parts.count - 2].split(separator: ".").last else { return false }
        let function = parts[parts.count - 1].prefix { $0 != "(" }
        let needle = "\(type).\(function)("
        return crashedFrames.contains { $0.contains(needle) }
    }

    /// What happened, for a report: the runtime's message and the signal.
    var summary: String {
        let what = message ?? "the test process crashed"
        return signal.map { "\(what) (signal \($0))" } ?? what
    }
}
