/// A mutant's covering tests in waves, fastest first: each wave is one run
/// of the test executable, and a wave that kills the mutant ends its runs.
///
/// One run of every covering test ends at the first failure, but its tests
/// run side by side in the order the test library picks: a test that kills
/// in a tenth of a second alone can wait behind ninety others and report
/// after fifteen. In waves, the fastest tests alone report first; a
/// survivor still runs every test, paying one process start per wave.
///
/// Each wave holds the next tests in `fastestFirst` order until their
/// seconds alone reach its budget (at least one test); the first wave's
/// budget is `firstBudget` (a millisecond at least), and each next wave's is twice the last's, so a
/// survivor's run takes about log2(total / first budget) waves.
enum TestWaves {
    /// The first wave's seconds alone: a second of tests, as many as that is.
    static let firstBudget = 1.0

    /// `tests` (already fastest first) cut into waves; their concatenation
    /// is `tests`, and none is empty. `seconds` gives a test's time alone.
    static func split(_ tests: [String], seconds: (String) -> Double, firstBudget: Double = firstBudget) -> [[String]] {
        var waves: [[String]] = []
        var wave: [String] = []
        var spent = 0.0
        // A budget of nothing would give every test a wave of its own.
        var budget = max(firstBudget, 0.001)
        for test in tests {
            wave.append(test)
            spent += max(0, seconds(test))
            if spent >= budget {
                waves.append(wave)
                wave = []
                spent = 0
                budget *= 2
            }
        }
        if !wave.isEmpty { waves.append(wave) }
        return waves
    }
}
