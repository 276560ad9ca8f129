/// The tests that killed mutants of each file earlier in this run. Mutants
/// of one file are mostly killed by the same few tests, and those are not
/// always among the fastest: a mutant's covering tests put them first, in
/// the first wave (`TestWaves`), where a kill ends the mutant's run at once.
///
/// Only the order changes: a test that fails is a kill in any run, and a
/// mutant they do not kill runs every other covering test as before, so no
/// verdict depends on what was learned. Shared by the mutants tested at
/// once (`--jobs`).
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
