/// `mutate [run]`: the gate on the named mutants in mutants/.
enum RunCommand: SubCommand {
    static let name: String = "run"
    static let abstract: String = "run the named mutants and gate on the score (what no sub-command means)"
    static let usage: [String] = [
        "mutate [run] [options]",
        "mutate " + OptionParser.commands.dropFirst().map { $0.name }.joined(separator: " | ") + " | help SUB-COMMAND",
    ]

    static let discussion: String = """
        Runs every hand-written mutant in mutants/ against the package's test
        suite in a scratch copy under .build/mutate, writes a kill report, and
        gates on the score. The package's own files are never written.
        After the baseline a coverage pass runs each test on its own in an
        instrumented build; each mutant then runs only the tests that reach
        its code, stopping at the first failure, or as a timeout once tests
        run and none has started or ended for the longest of their times
        alone x 3 + 10 s (a hung test). A mutant no test reaches is
        NoCoverage (it counts as missed, and costs no test run); one the
        coverage map cannot place runs the whole suite.
        Mutants that change only function bodies are built together, once,
        as the baseline: each changed body sits beside the original behind
        a switch, the baseline's suite runs with every switch off, and each
        such mutant is tested with its switch on, --jobs at a time. Any
        other mutant is built on its own.
        With --incremental FILE, each verdict is kept in FILE under a key of
        what decides it (the patch, the code it changes, its tests and the
        code they reach, the toolchain and the options), as explore keeps
        its own; the next run reuses every verdict whose key is unchanged
        and runs the rest. An unchanged package with the same named mutants
        also reuses its suite's run and coverage map. N reused verdicts,
        drawn at random, are re-run to check the file: one that comes out
        differently fails the run (exit 7).
        """

    /// The options of a run, which explore accepts too.
    static let runOptions: [OptionSpec] = [
        .packagePath("the package to mutate (default: .)"),
        .mutants(),
        OptionSpec("--output", "DIR", help: "reports and logs (default: PACKAGE/.build/mutation-report)"),
        OptionSpec("--scratch", "DIR", help: "the kept scratch copy (default: PACKAGE/.build/mutate/scratch);",
                   "must be under .build/, or outside the package and new, empty or made by mutate"),
        OptionSpec("--mutant", "NAME", help: "run only this mutant (repeatable)"),
        OptionSpec("--threshold", "PCT", help: "lowest passing score, 0-100 (default: 100)"),
        OptionSpec("--timeout-multiplier", "X", help: "test limit = the tests' time x X + 30 s (default: 3; the",
                   "baseline's time, or the chosen tests' time alone)"),
        OptionSpec("--timeout", "SECONDS", help: "a fixed test time limit per mutant instead"),
        OptionSpec("--shard", "K/N", help: "run the K-th of N slices of the mutants (CI fan-out)"),
        OptionSpec("--wait", help: "if another run holds the scratch copy, wait for it (default: exit 6)"),
        OptionSpec("--all-tests", help: "run every covering test to the end: the report names every killing test"),
        OptionSpec("--no-coverage", help: "no coverage pass: every mutant runs the whole suite (the reference)"),
        OptionSpec("--no-schema", help: "build every mutant on its own (one build each; the reference)"),
        OptionSpec("--jobs", "N", help: "mutants of the schema tested at once, and twice as many tests in the",
                   "coverage pass (default: one per core, and up to 3 more per core while a core is idle)"),
    ]

    static let options: [OptionSpec] = runOptions + [
        OptionSpec("--incremental", "FILE", help: "keep verdicts in FILE (created if missing) and reuse those whose key is unchanged"),
        OptionSpec("--verify-reused", "N",
                   help: "re-run N reused verdicts, drawn at random, to check FILE (default \(RunOptions.defaultVerifyReused))"),
        OptionSpec("--list", help: "print the mutants (with --mutant: only those) and exit"),
        OptionSpec("--version", help: "print the harness's version"),
    ]

    static var sections: [HelpSection] {
        [HelpSection(title: "SUB-COMMANDS", rows: OptionParser.commands.dropFirst().map { ($0.name, $0.abstract) }),
         HelpSection(title: "EXIT CODES", rows: HarnessExitCode.allCases.map { (String($0.rawValue), $0.summary) })]
    }

    static let examples: [String] = ["swift run mutate --mutant retry-on-400 --output .build/one-report"]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        if arguments.has("--version") { return .version }
        // Not `arguments.error`: run's messages point to the overview.
        if let word = arguments.positional.first, OptionParser.subcommands.contains(word) {
            throw UsageError(message: "the sub-command comes first: mutate \(word) [OPTIONS], not '\(word)' after an option")
        }
        guard arguments.positional.isEmpty else {
            let word = arguments.positional[0]
            throw UsageError(message: "unexpected argument '\(word)'" + Suggestion.didYouMean(word, among: OptionParser.subcommands))
        }
        if arguments.has("--list") {
            if let other = arguments.values.first(where: { !["--list", "--mutant", "--package-path", "--mutants"].contains($0.flag) }) {
                throw UsageError(message: "\(other.flag) does not apply to --list (it only prints the mutants)")
            }
            return .list(arguments.common, mutants: arguments.all("--mutant"))
        }
        return .run(try arguments.runOptions())
    }
}
