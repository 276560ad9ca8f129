/// The tests most likely to kill a mutant: those of the suites named after
/// the files it changes (`CapturedCommand.swift` → `CapturedCommandTests`,
/// `Lab+Schema.swift` → `LabTests`, `LabCoverageTests`, ...), the place a
/// test for that code is written. They run first, on their own; when they
/// kill the mutant the rest of its covering tests never start.
enum OwnSuites {
    /// The tests among `tests` whose suite's name starts with the stem of
    /// one of `files` (the file's name before `.swift` and before any `+`),
    /// in the order given. A test id is `Module.Suite/test()` (or
    /// `Module.Suite/Inner/test()`); stems under three letters match nothing.
    static func tests(_ tests: [String], forFiles files: [String]) -> [String] {
        let stems = Set(files.compactMap(stem(of:)))
        guard !stems.isEmpty else { return [] }
        return tests.filter { test in
            guard let dot = test.firstIndex(of: ".") else { return false }
            let suite = test[test.index(after: dot)...].prefix { $0 != "/" }
            return stems.contains { suite.hasPrefix($0) }
        }
    }

    /// `Sources/Tiny/Lab+Schema.swift` → `Lab`; nil under three letters.
    static func stem(of file: String) -> String? {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let base = name.hasSuffix(".swift") ? String(name.dropLast(6)) : name
        let stem = base.prefix { $0 != "+" }
        return stem.count >= 3 ? String(stem) : nil
    }
}
