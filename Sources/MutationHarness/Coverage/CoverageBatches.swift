/// The coverage pass's runs: tests of one suite (and one test library)
/// measured together in one process, at most `size` at a time, in the
/// order given. A process start, the coverage runtime's write and
/// `llvm-profdata` cost about a tenth of a second each time, more than
/// most tests; a suite's tests mostly run the same code, so a batch's
/// coverage, counted for each of its tests, chooses few tests more.
///
/// What a batch ran is counted for every test of it, including code one of
/// them reached only because another ran before it in the same process:
/// so the tests of a batch are kept together when a mutant's tests run
/// (`CoverageMap.together`), as they ran when they were measured.
enum CoverageBatches {
    /// `tests` cut into batches: consecutive tests of the same suite
    /// (`Module.Suite`, the id before its first `/`) and library, at most
    /// `size` each (1 or less: each test alone).
    static func make<Test>(_ tests: [Test], size: Int, id: (Test) -> String, library: (Test) -> TestLibrary) -> [[Test]] {
        var batches: [[Test]] = []
        for test in tests {
            if let last = batches.last?.last, batches[batches.count - 1].count < size,
               suite(of: id(last)) == suite(of: id(test)), library(last) == library(test)
            {
                batches[batches.count - 1].append(test)
            } else {
                batches.append([test])
            }
        }
        return batches
    }

    /// `Module.Suite/name()` -> `Module.Suite`.
    static func suite(of id: String) -> Substring {
        id.prefix { $0 != "/" }
    }
}
