import Foundation

/// After the mutant schema is built: runs tests on their own with every
/// switch off and `MUTATE_REACHED` set, and records which switches each one
/// ran, itself or in a process it started. A switch writes its number the
/// first time it runs in a process, so a program killed by a signal (the
/// fault child, on purpose) has said what it ran, where it writes no
/// coverage profile.
///
/// It places the schema mutants the coverage map cannot: code only in an
/// executable a test starts, a global or static initialiser, a default
/// argument; and it narrows those the map places by their function to the
/// tests that ran their own switch. A switch that does not run cannot
/// change what a test sees, so only the tests that ran it can kill its
/// mutant (`SwitchReach`).
struct SwitchPass {
    var alone: TestAlone
    /// Where the records are written (emptied first, removed after).
    var folder: URL
    /// The schema's numbers, to the mutants' names.
    var names: [Int: String]
    var workers: Int
    /// More tests run at once while a core is spare (`Lab.spareWorkers`).
    var spare: SpareWorkers?
    var print: (String) -> Void
    /// The progress line's clock.
    var now: @Sendable () -> Date = Date.init

    /// How many of the schema's mutants the map must give a test for the
    /// pass to run it, to narrow them (`SwitchReach.worthMeasuring`). Its
    /// one run there costs about what it costs a mutant in the worst case,
    /// and a mutant runs a covering test far less often than that: about
    /// one time in seventeen in this package's whole run (a kill stops the run).
    static let minimumMutants = 40

    /// Each test of `tests` -> the mutants whose switch it ran. A test that
    /// fails on its own stops the pass (`CoverageError`).
    func run(_ tests: [(id: String, library: TestLibrary)]) throws -> [String: Set<String>] {
        try PassFolder.makeEmpty(folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reached = Locked([String: Set<String>]())
        nonisolated(unsafe) let pass = self
        nonisolated(unsafe) let print = self.print
        let progress = PassProgress("switches", total: tests.count, now: now, print: { print($0) })
        try Workers.run(items: tests.count, workers: workers, spare: spare) { index, _ in
            let test = tests[index]
            let own = pass.folder.appendingPathComponent("\(index)")
            try? FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: own) }
            let record = own.appendingPathComponent("reached")
            _ = try pass.alone.run(test, in: own, extra: [Schema.reachedVariable: record.path])
            let names = Self.read(record, names: pass.names)
            reached.withLock { $0[test.id] = names }
            progress.testFinished()
        }
        return reached.value
    }

    /// The mutants whose numbers a record holds (none when there is no
    /// record: the test ran no switch). A line that is not a number of the
    /// schema is left out: it can only come from a process cut short mid-line.
    static func read(_ record: URL, names: [Int: String]) -> Set<String> {
        guard let data = FileManager.default.contents(atPath: record.path) else { return [] }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Int($0).flatMap { names[$0] } })
    }
}

/// What the switch pass found, read for one mutant at a time.
struct SwitchReach {
    /// Test -> the mutants whose switch it ran on its own (every test the pass ran).
    var alone: [String: Set<String>]
    /// The mutants whose switch ran when the same tests ran together (the
    /// schema's own baseline).
    var together: Set<String>

    /// The tests that ran the mutant's switch (in `order`); none when no
    /// test did, alone or together: `NoCoverage`. A switch that ran with the
    /// tests together but in none alone runs only under load or by timing:
    /// no test can be chosen for it (nil).
    func reach(of mutant: String, order: ([String]) -> [String]) -> CoverageMap.Reach? {
        let tests = alone.filter { $0.value.contains(mutant) }.map(\.key)
        if tests.isEmpty { return together.contains(mutant) ? nil : .noTest }
        return .tests(order(tests))
    }

    /// The map's `tests` for a mutant it places, narrowed to those that ran
    /// its switch: a test the pass ran that did not run it is left out (the
    /// mutant cannot change what that test sees), and a test the pass did
    /// not run stays. None left, and the switch ran nowhere, alone or
    /// together: `NoCoverage`. None left, but it ran with the tests
    /// together (under load or by timing), or alone in a test the map does
    /// not give (the map and the pass disagree): the map's tests, unchanged.
    /// A narrowed mutant runs only tests the map gives it, so its
    /// incremental key (the map's) covers every test that can decide it.
    func narrowed(_ mutant: String, tests: [String], order: ([String]) -> [String]) -> CoverageMap.Reach {
        let kept = tests.filter { alone[$0]?.contains(mutant) ?? true }
        if !kept.isEmpty { return .tests(order(kept)) }
        let ranElsewhere = together.contains(mutant) || alone.values.contains { $0.contains(mutant) }
        return ranElsewhere ? .tests(tests) : .noTest
    }

    /// The tests worth running in the pass to narrow mutants the map
    /// places (`narrowed`): each covers at least `minimum` of `covering`
    /// (each mutant's map tests). One run of such a test in the pass can
    /// spare it for every one of those mutants whose switch it does not run.
    static func worthMeasuring(_ covering: [[String]], minimum: Int) -> Set<String> {
        var counts: [String: Int] = [:]
        for tests in covering {
            for test in Set(tests) { counts[test, default: 0] += 1 }
        }
        return Set(counts.filter { $0.value >= minimum }.keys)
    }
}
