/// A mutant's covering tests in two waves: the fastest first, on their own,
/// then the rest in one run. Each wave is one run of the test executable,
/// and a wave that kills the mutant ends its runs.
///
/// One run of every covering test ends at the first failure, but its tests
/// run side by side in the order the test library picks: a test that kills
/// in a tenth of a second alone can wait behind ninety others and report
/// after fifteen. About half of this package's named mutants are killed by
/// the fastest second of their tests; run first, those report at once.
///
/// Why not more waves, each twice the last (tried): a mutant can slow a
/// test down without failing it (a stall allowance it waits out), and each
/// wave waits for its slowest test before the next starts, while one run
/// lets the killer report beside it. With many waves the kills that came
/// late cost more than the early ones saved; with two, a mutant the first
/// wave does not kill pays one process start more.
enum TestWaves {
    /// The first wave's seconds alone: a second of tests, as many as that is.
    static let firstBudget = 1.0

    /// `tests` (already fastest first) as the first wave, the tests whose
    /// seconds alone add up to `firstBudget` (a millisecond at least; the
    /// test that reaches it included), and the rest if any. Their
    /// concatenation is `tests`; no wave is empty. `seconds` gives a test's
    /// time alone (a negative one counts as none).
    static func split(_ tests: [String], seconds: (String) -> Double, firstBudget: Double = firstBudget) -> [[String]] {
        let budget = max(firstBudget, 0.001)
        var spent = 0.0
        var count = 0
        while count < tests.count, spent < budget {
            spent += max(0, seconds(tests[count]))
            count += 1
        }
        return [Array(tests.prefix(count)), Array(tests.dropFirst(count))].filter { !$0.isEmpty }
    }
}
