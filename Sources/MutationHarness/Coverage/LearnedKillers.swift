/// The tests that killed mutants of each file earlier in this run. Many
/// generated mutants of one file fall to the same few tests, and those are
/// not always among the fastest: `Lab.runLearnedKillers` runs them first,
/// on their own, when a mutant's first wave (`TestWaves`) lacks them, as
/// many as fit in the lab's `learnedKillerSeconds` (`budget`).
///
/// That run has the limits of the stages they belong to, and a mutant they
/// do not kill runs every stage as before, so no verdict depends on what
/// was learned. Shared by the mutants tested at once (`--jobs`).
final class LearnedKillers: Sendable {
    /// Tests kept per file, the latest first.
    static let perFile = 4

    /// Seconds alone (the coverage pass's) the learned killers run first
    /// may take together: the second a first wave holds (`TestWaves.firstBudget`),
    /// but a test that does not fit is left to its wave, not kept. On the
    /// whole package, the learned runs that held a test of over a second
    /// killed 16 of the 115 mutants they ran for and cost 553 s; the others,
    /// 869 of 1,526 for 284 s. (The rule caps the sum, so it is stricter
    /// than that split: two tests of 0.6 s no longer run together.)
    static let budget = TestWaves.firstBudget

    /// `tests` (in their order) that fit together within `budget` seconds
    /// alone: each in turn is kept when the ones kept so far and it take no
    /// more (a test of unknown time counts as none).
    static func withinBudget(_ tests: [String], seconds: (String) -> Double, budget: Double = budget) -> [String] {
        var spent = 0.0
        return tests.filter { test in
            let cost = max(0, seconds(test))
            guard spent + cost <= budget else { return false }
            spent += cost
            return true
        }
    }

    private let killers = Locked<[String: [String]]>([:])

    /// Notes that `test` killed a mutant of `files`.
    func note(_ test: String, killedAMutantOf files: [String]) {
        killers.withLock { killers in
            for file in files {
                let known = killers[file, default: []].filter { $0 != test }
                killers[file] = Array(([test] + known).prefix(Self.perFile))
            }
        }
    }

    /// The tests among `tests` that killed a mutant of `files`, the latest
    /// first (each once).
    func tests(among tests: [String], for files: [String]) -> [String] {
        let covering = Set(tests)
        let learned = killers.withLock { killers in files.flatMap { killers[$0] ?? [] } }
        var seen = Set<String>()
        return learned.filter { covering.contains($0) && seen.insert($0).inserted }
    }
}
