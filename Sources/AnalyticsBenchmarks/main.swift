import Analytics
import AnalyticsSupport
import AnalyticsTesting
import Collector
import CollectorServer
import Dispatch
import Foundation

// What the SDK costs an app. Run in release: swift run -c release analytics-benchmarks
// Every figure is printed with its target; nothing here is asserted by the test suite.
//
// Not mutated (`// mutate: skip-file`): a tool a person runs and reads, like
// the tests, which explore never mutates either. No test starts it, so every
// mutant here would be NoCoverage, and a test of its figures would assert
// timings. The SDK code it measures is mutated where it lives.

struct CheckoutEvent: AnalyticsEvent {
    let index: Int
    var name: String { "checkout_step_completed" }
    var properties: EventProperties {
        ["step": .int(index % 7), "cart_value": .double(99.9), "currency": "BRL", "is_returning": true, "coupon": "SPRING24"]
    }
}

// Under the package's .build (run from the package root), never the shared temporary folder.
let workFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    .appendingPathComponent(".build/benchmark-scratch/analytics-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: workFolder) }

func folder(_ name: String) -> URL { workFolder.appendingPathComponent(name) }

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func report(_ label: String, _ value: String, target: String, met: Bool?) {
    let mark = met.map { $0 ? "ok  " : "MISS" } ?? "    "
    say("\(mark) \(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(value.padding(toLength: 22, withPad: " ", startingAt: 0)) target \(target)")
}

/// Sections to run: all, or those named on the command line
/// (memory, burst, track, throughput, queue, wire, battery, collector). `burst`
/// measures a peak, so run it alone for a clean figure.
let requested = Set(CommandLine.arguments.dropFirst())
func runs(_ section: String) -> Bool { requested.isEmpty || requested.contains(section) }

func nanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func residentKilobytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
    guard haystack.count >= needle.count else { return 0 }
    var count = 0
    var index = 0
    while index <= haystack.count - needle.count {
        if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
            count += 1
            index += needle.count
        } else {
            index += 1
        }
    }
    return count
}

/// Live scheduler, real SQLite, a transport that answers 200 at once
/// (counting events without decoding, so the figure is the SDK's).
final class CountingTransport: Transport, Sendable {
    private let counts = Locked<(events: Int, requests: Int, bytes: Int)>((0, 0, 0))
    func send(_ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, NetworkFailure>) -> Void) {
        let count = occurrences(of: Array("\"event_id\":".utf8), in: request.body)
        counts.withLock { counts in
            counts.events += count
            counts.requests += 1
            counts.bytes += request.body.count
        }
        completion(.success(TransportResponse(status: 200, body: Array("{\"accepted\":\(count),\"duplicates\":0}".utf8))))
    }
    var totals: (events: Int, requests: Int, bytes: Int) { counts.withLock { $0 } }
}

func liveConfiguration(storage: URL, transport: any Transport) -> Configuration {
    var configuration = Configuration(
        appID: "com.example.app", endpoint: URL(string: "https://collector.example.com")!, storageDirectory: storage, appInfo: .example
    )
    configuration.transport = transport
    configuration.connectivity = AlwaysOnlineConnectivity()
    configuration.onDiagnostic = { _ in }
    return configuration
}

say("Analytics SDK benchmarks (\(ProcessInfo.processInfo.processorCount) cores, release build expected)\n")

// 1. Memory first, so the peak is not an earlier benchmark's: peak RSS with
// 10,000 events queued (offline, SQLite on).
if runs("memory") {
    let before = residentKilobytes("VmRSS:")
    let clock = ManualClock()
    let analytics = Analytics()
    try analytics.start(.testing(storage: folder("memory"), clock: clock, transport: RecordingTransport(clock: clock),
                                 connectivity: ManualConnectivity(.offline)))
    for index in 0..<10_000 { analytics.track(CheckoutEvent(index: index)) }
    let peak = residentKilobytes("VmHWM:")
    let extra = Double(max(0, peak - before)) / 1024
    report("extra peak RSS, 10,000 events queued", String(format: "%.1f MB", extra), target: "<= 20 MB", met: extra <= 20)
    analytics.stop()
}

// 1b. A burst: 100,000 track calls in a tight loop after a 10,000-event
// warm-up, live worker, SQLite on, the default queue cap. Peak RSS growth,
// and whether the drop count the SDK reports is exact.
if runs("burst") {
    let drops = Locked(0)
    let analytics = Analytics()
    var configuration = liveConfiguration(storage: folder("burst"), transport: RecordingTransport())
    configuration.connectivity = ManualConnectivity(.offline)
    configuration.onDiagnostic = { diagnostic in
        if case .queueOverflow(let count) = diagnostic { drops.withLock { $0 += count } } else { say("  diagnostic: \(diagnostic)") }
    }
    try analytics.start(configuration)
    for index in 0..<10_000 { analytics.track(CheckoutEvent(index: index)) }
    await analytics.flushAndWait()
    let before = residentKilobytes("VmRSS:")
    let burst = 100_000
    for index in 0..<burst { analytics.track(CheckoutEvent(index: 10_000 + index)) }
    await analytics.flushAndWait()
    let peak = residentKilobytes("VmHWM:")
    await analytics.stopAndWait()
    let extra = Double(max(0, peak - before)) / 1024
    report("extra peak RSS, burst of 100,000 track calls", String(format: "%.1f MB", extra), target: "<= 20 MB", met: extra <= 20)
    let queued = try SQLiteEventQueue(path: folder("burst").appendingPathComponent("events.sqlite").path, capacity: 1_000_000).count
    let missing = 10_000 + burst - queued
    report("drops reported / events not queued", "\(drops.withLock { $0 }) / \(missing)", target: "equal", met: drops.withLock { $0 } == missing)
}

// 2. Caller-thread cost of track.
if runs("track") {
    let transport = CountingTransport()
    let analytics = Analytics()
    try analytics.start(liveConfiguration(storage: folder("track"), transport: transport))
    let count = 100_000
    var samples = [UInt64](repeating: 0, count: count)
    for index in 0..<1000 { analytics.track(CheckoutEvent(index: index)) } // warm up
    for index in 0..<count {
        let start = nanos()
        analytics.track(CheckoutEvent(index: index))
        samples[index] = nanos() - start
    }
    samples.sort()
    let p50 = Double(samples[count / 2]) / 1000
    let p99 = Double(samples[count * 99 / 100]) / 1000
    report("track(), caller thread, p50", String(format: "%.2f µs", p50), target: "<= 2 µs", met: p50 <= 2)
    report("track(), caller thread, p99", String(format: "%.2f µs", p99), target: "<= 20 µs", met: p99 <= 20)
    analytics.stop()
}

// 3. End-to-end throughput: track to bytes at the transport, SQLite on; then
// the same without persistence, to show what the disk costs.
func throughput(storage: URL?) throws -> Double {
    let transport = CountingTransport()
    let analytics = Analytics()
    var configuration = liveConfiguration(storage: folder("throughput"), transport: transport)
    configuration.storageDirectory = storage
    configuration.queueCapacity = 1_000_000 // measure delivery, not the overflow policy
    try analytics.start(configuration)
    let count = 200_000
    let start = nanos()
    for index in 0..<count { analytics.track(CheckoutEvent(index: index)) }
    analytics.flush()
    while transport.totals.events < count { usleep(1000) }
    let rate = Double(count) / (Double(nanos() - start) / 1e9)
    analytics.stop()
    return rate
}

if runs("throughput") {
    let rate = try throughput(storage: folder("throughput"))
    report("end to end, track -> transport bytes", String(format: "%.0f events/s", rate), target: ">= 100,000 events/s", met: rate >= 100_000)
    let memoryRate = try throughput(storage: nil)
    report("same, memory queue (no persistence)", String(format: "%.0f events/s", memoryRate), target: "(diagnostic only)", met: nil)
}

// 3b. The collector over HTTP on loopback: 25-event batches sent with the
// SDK's own URLSession transport from 4 threads, into a file-backed store.
if runs("collector") {
    try FileManager.default.createDirectory(at: folder("collector"), withIntermediateDirectories: true)
    var options = CollectorServer.Options()
    options.port = 0
    let store = try CollectorStore(path: folder("collector").appendingPathComponent("collector.sqlite").path)
    let server = CollectorServer(collector: try Collector(allowList: ["com.example.app"], store: store), options: options, log: { _ in })
    try server.start()
    let transport = URLSessionTransport()
    let url = URL(string: "http://127.0.0.1:\(server.port)/v1/batch")!
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    func body(_ batch: Int) -> [UInt8] {
        let events = (0..<25).map { index in
            "{\"event_id\":\"\(UUID().uuidString.lowercased())\",\"name\":\"checkout_step_completed\",\"ts\":\(now),\"session_id\":\"s-\(batch)\",\"props\":{\"step\":\(index),\"currency\":\"BRL\"},\"context\":{\"platform\":\"iOS\"}}"
        }
        return Array("{\"schema_version\":1,\"app_id\":\"com.example.app\",\"install_id\":\"8c1b6f1e-3f0c-4a57-9d43-2b7a4f0e9d11\",\"sent_at\":\(now),\"events\":[\(events.joined(separator: ","))]}".utf8)
    }
    let recorded = Locked<(values: [UInt64], failures: Int)>(([], 0))
    let perThread = 250
    let bodies = (0..<(4 * perThread)).map(body)
    let start = nanos()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for index in 0..<perThread {
            let done = DispatchSemaphore(value: 0)
            let sent = nanos()
            let request = TransportRequest(url: url, method: "POST", headers: ["Content-Type": "application/json"], body: bodies[thread * perThread + index])
            transport.send(request) { result in
                let elapsed = nanos() - sent
                recorded.withLock { recorded in
                    if case .success(let response) = result, response.status == 200 { recorded.values.append(elapsed) } else { recorded.failures += 1 }
                }
                done.signal()
            }
            done.wait()
        }
    }
    let seconds = Double(nanos() - start) / 1e9
    server.stop()
    let latencies = recorded.withLock { $0 }
    let sorted = latencies.values.sorted()
    let rate = Double(sorted.count) / seconds
    let p99 = sorted.isEmpty ? 0 : Double(sorted[sorted.count * 99 / 100]) / 1e6
    report("collector over loopback, 25-event batches", String(format: "%.0f requests/s", rate), target: "(reported)", met: nil)
    report("collector over loopback, p99 latency", String(format: "%.1f ms", p99), target: "(reported)", met: nil)
    report("collector over loopback, failed requests", "\(latencies.failures) of \(4 * perThread)", target: "0", met: latencies.failures == 0)
    let stored = (try? store.count) ?? -1   // -1: the store could not be read
    report("events stored", "\(stored)", target: "\(4 * perThread * 25)", met: stored == 4 * perThread * 25)
}

// 4. SQLite queue: enqueue and delete rates, bytes on disk per event.
if runs("queue") {
    let path = folder("queue").appendingPathComponent("events.sqlite").path
    try FileManager.default.createDirectory(at: folder("queue"), withIntermediateDirectories: true)
    let queue = try SQLiteEventQueue(path: path, capacity: 1_000_000)
    let payload = Array(#"{"context":{"app_version":"2.4.0","device_model":"iPhone15,2","environment":"production","locale":"pt-BR","network":"wifi","os_version":"18.1","platform":"iOS","sdk":"swift-analytics/1.0.0"},"event_id":"0192f1e4-7a3b-7c2d-9e8f-0a1b2c3d4e5f","name":"checkout_step_completed","props":{"cart_value":99.9,"coupon":"SPRING24","currency":"BRL","is_returning":true,"step":3},"session_id":"0192f1e4-7a3b-7c2d-9e8f-0a1b2c3d4e60","ts":1767225600123}"#.utf8)
    let count = 20_000
    func event(_ index: Int) -> QueuedEvent {
        QueuedEvent(id: "event-\(index)", timestamp: 1_767_225_600_000 + Int64(index), payload: payload)
    }
    var start = nanos()
    for index in 0..<(count / 4) { _ = try queue.append([event(index)]) }
    let singleRate = Double(count / 4) / (Double(nanos() - start) / 1e9)
    start = nanos()
    for first in stride(from: count / 4, to: count, by: 25) { _ = try queue.append((first..<min(first + 25, count)).map(event)) }
    let enqueueRate = Double(count - count / 4) / (Double(nanos() - start) / 1e9)
    let files = ["", "-wal"].map { path + $0 }
    let bytes = files.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }.reduce(0, +)
    start = nanos()
    while queue.count > 0 {
        let batch = try queue.peek(limit: 25)
        try queue.remove(batch)
    }
    let deleteRate = Double(count) / (Double(nanos() - start) / 1e9)
    report("SQLite enqueue, one per transaction", String(format: "%.0f events/s", singleRate), target: "(none)", met: nil)
    report("SQLite enqueue, 25 per transaction", String(format: "%.0f events/s", enqueueRate), target: "(none)", met: nil)
    report("SQLite peek + delete in batches of 25", String(format: "%.0f events/s", deleteRate), target: "(none)", met: nil)
    report("SQLite bytes on disk per event", "\(bytes / count) B (payload \(payload.count) B)", target: "(none)", met: nil)
}

// 5. Wire: bytes per event, requests per 1,000 events at default batching.
if runs("wire") {
    let clock = ManualClock()
    let transport = RecordingTransport(clock: clock)
    let analytics = Analytics()
    try analytics.start(.testing(storage: folder("wire"), clock: clock, transport: transport))
    for index in 0..<1000 {
        analytics.track(CheckoutEvent(index: index))
        clock.advance(by: .milliseconds(500))
    }
    analytics.flush()
    let bytes = transport.requests.map(\.body.count).reduce(0, +)
    report("wire bytes per event", "\(bytes / 1000) B", target: "(none)", met: nil)
    report("requests per 1,000 events", "\(transport.requests.count)", target: "40", met: transport.requests.count <= 40)
    analytics.stop()
}

// 6. Battery: one simulated offline hour with 100 events tracked.
final class CountingScheduler: WorkScheduler, Sendable {
    let clock: ManualClock
    private let wakeUpCount = Locked(0)
    var wakeUps: Int { wakeUpCount.withLock { $0 } }
    init(clock: ManualClock) { self.clock = clock }
    func execute(_ work: @escaping @Sendable () -> Void) { clock.execute(work) }
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        clock.schedule(after: delay) { [self] in
            wakeUpCount.withLock { $0 += 1 }
            work()
        }
    }
}

// "offline": the platform reports no network. "failing": it reports a
// network (or cannot tell, as on Linux) but every request fails.
for (label, network) in !runs("battery") ? [] : [("offline", NetworkType.offline), ("failing", .wifi)] {
    let clock = ManualClock()
    let scheduler = CountingScheduler(clock: clock)
    let transport = RecordingTransport(clock: clock, whenScriptIsEmpty: .networkFailure())
    let analytics = Analytics()
    var configuration = Configuration.testing(storage: folder("battery-\(network)"), clock: clock, transport: transport,
                                              connectivity: ManualConnectivity(network))
    configuration.scheduler = scheduler
    configuration.jitter = .seeded(7)
    try analytics.start(configuration)
    for index in 0..<100 {
        analytics.track(CheckoutEvent(index: index))
        clock.advance(by: .seconds(36))
    }
    report("offline hour (\(label) network): requests", "\(transport.requests.count)", target: "<= 12", met: transport.requests.count <= 12)
    report("offline hour (\(label) network): wake-ups", "\(scheduler.wakeUps)", target: "(none)", met: nil)
    analytics.stop()
}

