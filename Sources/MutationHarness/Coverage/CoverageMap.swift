/// Which tests reach which code: for every test of the baseline, the
/// functions it ran, itself or in a process it started, measured by running
/// it on its own with LLVM's source-based coverage (`CoveragePass`).
///
/// A mutant can only be killed by a test that runs the code it changes, so
/// only the tests that run a function holding one of its lines need to run.
/// Where a line lies outside every function (a declaration, a global or
/// static initialiser, a default argument on a line of its own) the map
/// cannot tell who depends on it: such a mutant is `unknown` and runs the
/// whole suite. So does one whose line ran in the whole suite's run but in
/// no test on its own (code reached only under load or by timing).
struct CoverageMap: Codable, Equatable, Sendable {
    /// A function's code: from its first region's start to its last
    /// region's end, in one file.
    struct Function: Codable, Equatable, Sendable {
        /// The profile's name for it (mangled, without a file prefix).
        var name: String
        /// Relative to the package root.
        var file: String
        var firstLine: Int
        var lastLine: Int
        /// How many tests ran it.
        var count: Int
        /// Only in an executable a test may start, not in the test
        /// executable: such a program may die by a signal (the fault child
        /// is killed on purpose) and then writes no profile, so who ran it
        /// cannot be known.
        var onlyInExecutable: Bool? = nil
    }

    /// What the map says of one mutant.
    enum Reach: Equatable, Sendable {
        /// The tests that run its code, fastest first.
        case tests([String])
        /// Its code is in functions that no test runs: `NoCoverage`.
        case noTest
        /// The map cannot tell (the reason says why): run the whole suite.
        case unknown(String)
    }

    let functions: [Function]
    /// Test id -> indices into `functions` of what it ran.
    let reached: [String: [Int]]
    /// Each test's seconds when it ran on its own.
    let seconds: [String: Double]
    /// Lines, by file, that ran in the whole suite's run but in no test on its own.
    let suiteOnly: [String: Set<Int>]
    /// `functions`' indices by file, and the tests that ran each function.
    private let byFile: [String: [Int]]
    private let testsByFunction: [Int: [String]]

    private enum CodingKeys: String, CodingKey { case functions, reached, seconds, suiteOnly }

    init(functions: [Function], reached: [String: [Int]], seconds: [String: Double], suiteOnly: [String: Set<Int>] = [:]) {
        self.functions = functions
        self.reached = reached
        self.seconds = seconds
        self.suiteOnly = suiteOnly
        byFile = Dictionary(grouping: functions.indices, by: { functions[$0].file })
        var byFunction: [Int: [String]] = [:]
        for (test, indices) in reached {
            for index in indices { byFunction[index, default: []].append(test) }
        }
        testsByFunction = byFunction
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(functions: container.decode([Function].self, forKey: .functions),
                      reached: container.decode([String: [Int]].self, forKey: .reached),
                      seconds: container.decode([String: Double].self, forKey: .seconds),
                      suiteOnly: container.decodeIfPresent([String: Set<Int>].self, forKey: .suiteOnly) ?? [:])
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(functions, forKey: .functions)
        try container.encode(reached, forKey: .reached)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(suiteOnly, forKey: .suiteOnly)
    }

    static func == (lhs: CoverageMap, rhs: CoverageMap) -> Bool {
        lhs.functions == rhs.functions && lhs.reached == rhs.reached && lhs.seconds == rhs.seconds && lhs.suiteOnly == rhs.suiteOnly
    }

    /// The map read in other lines: `original(file, line)` for every line
    /// (a pass over a schema build, read in the original files' lines).
    func mappingLines(_ original: (String, Int) -> Int) -> CoverageMap {
        let moved = functions.map { function in
            var function = function
            function.firstLine = original(function.file, function.firstLine)
            function.lastLine = original(function.file, function.lastLine)
            return function
        }
        let lines = Dictionary(uniqueKeysWithValues: suiteOnly.map { file, lines in (file, Set(lines.map { original(file, $0) })) })
        return CoverageMap(functions: moved, reached: reached, seconds: seconds, suiteOnly: lines)
    }

    /// Where the mutant's lines are, by file (see `TouchedLines`); a file it
    /// creates, deletes or renames is in `wholeFiles`.
    func reach(_ touched: [String: TouchedLines], wholeFiles: [String] = []) -> Reach {
        if let file = wholeFiles.first { return .unknown("it creates, deletes or renames \(file)") }
        var holding: Set<Int> = []
        for (file, lines) in touched.sorted(by: { $0.key < $1.key }) {
            guard let candidates = byFile[file] else {
                return .unknown("no function of \(file) is in the coverage map (a file of declarations only, or not Swift)")
            }
            func within(_ first: Int, _ last: Int) -> [Int] {
                candidates.filter { functions[$0].firstLine <= first && last <= functions[$0].lastLine }
            }
            let underLoad = suiteOnly[file] ?? []
            if let line = (lines.removed + lines.insertedBefore.flatMap { [$0 - 1, $0] }).sorted().first(where: underLoad.contains) {
                return .unknown("\(file):\(line) ran in the whole suite but in no test on its own (it runs only under load or by timing)")
            }
            for line in lines.removed {
                let found = within(line, line)
                guard !found.isEmpty else {
                    return .unknown("\(file):\(line) is outside every function (a declaration, a global or static initialiser, or a default argument)")
                }
                holding.formUnion(found)
            }
            for line in lines.insertedBefore {
                let found = within(line - 1, line)
                guard !found.isEmpty else { return .unknown("the lines added before \(file):\(line) are outside every function") }
                holding.formUnion(found)
            }
        }
        guard !holding.isEmpty else { return .unknown("the mutant changes no line") }
        var tests: Set<String> = []
        for index in holding {
            if functions[index].onlyInExecutable == true {
                return .unknown("\(functions[index].file):\(functions[index].firstLine) runs only in an executable a test starts, which may be killed before it writes its profile")
            }
            tests.formUnion(testsByFunction[index] ?? [])
        }
        guard !tests.isEmpty else { return .noTest }
        return .tests(fastestFirst(tests))
    }

    /// The tests that ran a function of a file under `folder`, themselves
    /// or in a process they started; nil when one of those functions ran
    /// only in such a process (it may die before it says who ran it).
    func tests(reachingFilesUnder folder: String) -> Set<String>? {
        var tests: Set<String> = []
        for (file, indices) in byFile where file.hasPrefix(folder + "/") {
            for index in indices {
                if functions[index].onlyInExecutable == true { return nil }
                tests.formUnion(testsByFunction[index] ?? [])
            }
        }
        return tests
    }

    /// `tests` in the order they run: fastest alone first, then by id.
    func fastestFirst(_ tests: some Sequence<String>) -> [String] {
        tests.sorted { (seconds[$0] ?? 0, $0) < (seconds[$1] ?? 0, $1) }
    }
}
