import Foundation

/// The machine's processor time so far: what `SpareCores` compares from one
/// look to the next to see whether a core went unused.
struct ProcessorSample: Equatable, Sendable {
    /// Time the processors spent working, in the source's unit (ticks).
    var busy: UInt64
    /// Time they spent idle or waiting for I/O, in the same unit.
    var idle: UInt64
    /// How many processors the figures cover.
    var cores: Int
}

/// Reads the machine's processor time (tests give a script of samples).
protocol ProcessorTimes: Sendable {
    /// The time so far, or nil when it cannot be read, or cannot be told
    /// apart from other machines' (a container seeing its host's processors).
    func sample() -> ProcessorSample?
}

/// Linux's `/proc/stat`. Nil where the file is missing (other systems), where
/// it counts other processors than this process may use (a container that
/// sees its host's), or where a cgroup caps the processor time: there its
/// idle time says nothing about this run's share.
struct ProcStat: ProcessorTimes {
    var statPath = "/proc/stat"
    var cgroupLimitPath = "/sys/fs/cgroup/cpu.max"
    var usableCores: @Sendable () -> Int = { ProcessInfo.processInfo.activeProcessorCount }

    func sample() -> ProcessorSample? {
        guard let data = FileManager.default.contents(atPath: statPath) else { return nil }
        if let limit = FileManager.default.contents(atPath: cgroupLimitPath), Self.capsTime(String(decoding: limit, as: UTF8.self)) { return nil }
        guard let sample = Self.parse(String(decoding: data, as: UTF8.self)), sample.cores == usableCores() else { return nil }
        return sample
    }

    /// The first line's totals (`cpu user nice system idle iowait irq
    /// softirq steal ...`: idle and iowait are idle, the others up to steal
    /// busy; guest time is already in user) and the count of `cpuN` lines.
    static func parse(_ text: String) -> ProcessorSample? {
        let lines = text.split(separator: "\n")
        guard let first = lines.first, first.hasPrefix("cpu ") else { return nil }
        let words = first.split(separator: " ").dropFirst()
        let ticks = words.compactMap { UInt64($0) }
        guard ticks.count == words.count, ticks.count >= 4 else { return nil }
        func field(_ index: Int) -> UInt64 { index < ticks.count ? ticks[index] : 0 }
        let cores = lines.filter { $0.hasPrefix("cpu") && $0.dropFirst(3).first?.isNumber == true }.count
        guard cores > 0 else { return nil }
        let busy = field(0) &+ field(1) &+ field(2) &+ field(5) &+ field(6) &+ field(7)
        return ProcessorSample(busy: busy, idle: field(3) &+ field(4), cores: cores)
    }

    /// Whether a cgroup v2 `cpu.max` (`QUOTA PERIOD`, or `max PERIOD`) sets a quota.
    static func capsTime(_ text: String) -> Bool {
        guard let quota = text.split(whereSeparator: \.isWhitespace).first else { return false }
        return quota != "max"
    }
}
