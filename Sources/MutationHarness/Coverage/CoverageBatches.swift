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
    /// `tests` cut into batches of the same suite (`Module.Suite`, the id
    /// before its first `/`) and library, at most `size` each, the suites
    /// in the order their first test comes and each suite's tests in the
    /// order given. A size of 1 or less: each test alone, in the order given.
    static func make<Test>(_ tests: [Test], size: Int, id: (Test) -> String, library: (Test) -> TestLibrary) -> [[Test]] {
        guard size > 1 else { return tests.map { [$0] } }
        var order: [String] = []
        var bySuite: [String: [Test]] = [:]
        for test in tests {
            let key = "\(library(test)) \(suite(of: id(test)))"
            if bySuite[key] == nil { order.append(key) }
            bySuite[key, default: []].append(test)
        }
        return order.flatMap { key in
            let suite = bySuite[key]!
            return stride(from: 0, to: suite.count, by: size).map { Array(suite[$0..<min($0 + size, suite.count)]) }
        }
    }

    /// `Module.Suite/name()` -> `Module.Suite`.
    static func suite(of id: String) -> Substring {
        id.prefix { $0 != "/" }
    }
}
