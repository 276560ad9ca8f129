/// The tests that killed mutants of each file earlier in this run. Many
/// generated mutants of one file fall to the same few tests, and those are
/// not always among the fastest: `Lab.runOwnSuitesFirst` runs them first,
/// on their own, when a mutant's first wave (`TestWaves`) lacks them.
///
/// That run has the limits of the stages they belong to, and a mutant they
/// do not kill runs every stage as before, so no verdict depends on what
/// was learned. Shared by the mutants tested at once (`--jobs`).
final class LearnedKillers: Sendable {
    /// Tests kept per file, the latest first.
    static let perFile = 4

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
