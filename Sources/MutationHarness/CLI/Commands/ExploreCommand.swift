/// `mutate explore`: mutants generated from the compiler's tree.
enum ExploreCommand: SubCommand {
    static let name: String = "explore"
    static let abstract: String = "generate mutants from the compiler's syntax tree and run them"
    static let usage: [String] = [
        "mutate explore [PATH...] [--list [--json]] [--in-diff REF] [--sample N] [--shard K/N] [--id ID...] [--jobs N] [--threshold PCT]",
        "               [--incremental FILE [--verify-reused N] [--pr-gate REF]] [run options]",
    ]
    static let discussion: String = """
        Generates mutants from the compiler's type-checked syntax tree of the
        package's source targets (PATHs relative to the package; default
        Sources): relational boundary and negation, && <-> ||, true <-> false,
        + <-> -, * <-> /, integer literals, removal of a call that returns
        nothing, a Bool function returning a constant, a guard or if condition
        made true, an update of state dropped, an if or else-if branch
        removed, a ?? fallback taken, an operand of &&, * or / left out, a
        ternary taking one side, a call replaced by its receiver. Never in string literals, comments, tests, inactive #if
        code, or code marked `// mutate: skip` (end of a line: that line; alone
        on a line: the next declaration; `// mutate: skip-file`: the file).
        Each runs like a named mutant (same lab, scratch copy and reports, in
        .build/mutation-report/explore by default). mutants/explore-ignore
        lists those judged harmless, one per line: `ID reason` or
        `FILE:LINE OPERATOR reason`; they are reported as ignored.
        Each mutant runs only the tests that reach its code (the coverage
        pass, as for run, by function; then the switch pass: with every
        switch off, each test that the map gives at least \(SwitchPass.minimumMutants) of the schema's
        mutants runs alone once, and a mutant runs only the tests that ran
        its own switch, which also places code the map cannot, such as code
        only in a program a test starts) and stops at the first failing
        test; a run in which tests are running and none has started or
        ended for the longest of their times alone x 3 + 10 s is stopped as
        a timeout. Mutants of the
        schema are tested --jobs at a time (default: one per core, and up to
        three more per core while a core is idle: many tests wait more than
        they compute).
        With --no-coverage, the tests of the targets that link its code run
        first, and a mutant they miss runs against the rest of the suite.
        With --incremental FILE, each verdict is kept in FILE under a key of
        what decides it (the mutant, the files it changes, its tests and the
        files they reach, the toolchain and the options); the next run reuses
        every verdict whose key is unchanged and runs the rest. An unchanged
        package also reuses its baseline, coverage map and mutants. N reused
        verdicts, drawn at random, are re-run to check the file: one that
        comes out differently fails the run (exit 7) and drops every reused
        verdict from the file. A finished run of every mutant of its paths
        records its score in FILE under its commit. --pr-gate REF then gates
        a pull request: no mutant on a line changed since the merge base of
        REF and HEAD may survive (exit 8), and the score may not be lower
        than the one FILE recorded for that base (exit 9). Every run writes
        summary.md, sized for a pull-request comment.
        Exit 0 when the run finished, whatever the score, unless --threshold
        is given: then it gates like a run.
        """
    static let options: [OptionSpec] = [
        OptionSpec("--list", help: "print the generated mutants (id, file:line:column, operator, original -> mutated); run nothing"),
        OptionSpec("--json", help: "with --list: one JSON object per line and mutant (its id, file, byte range, line, column, operator, "
            + "original and replacement text), for scripts"),
        OptionSpec("--in-diff", "REF", help: "only mutants on lines changed since the git ref REF (pull requests)"),
        OptionSpec("--threshold", "PCT", help: "gate on the score like a run"),
        OptionSpec("--sample", "N", help: "only the N mutants whose ids sort first: a fixed sample, the same on every machine"),
        OptionSpec("--shard", "K/N", help: "the K-th of N slices (by id), for a CI matrix; `mutate merge` joins the reports"),
        OptionSpec("--id", "ID", help: "only this generated mutant (repeatable): re-run survivors once tests are written"),
        OptionSpec("--incremental", "FILE", help: "keep verdicts in FILE (created if missing) and reuse those whose key is unchanged"),
        OptionSpec("--verify-reused", "N",
                   help: "re-run N reused verdicts, drawn at random, to check FILE (default \(RunOptions.defaultVerifyReused))"),
        OptionSpec("--pr-gate", "REF", help: "gate a pull request: no survivor on lines changed since REF, no lower score than the base's"),
        OptionSpec("--no-narrowing", help: "each mutant runs every test that runs its function, not only those that ran its switch "
            + "(the reference)"),
    ]
    /// Run's options, but for the ones explore declares itself and
    /// `--mutant` (explore's mutants are generated, not named).
    static var borrowed: BorrowedOptions? {
        let own = Set(options.map(\.flag))
        return BorrowedOptions(from: RunCommand.name, options: RunCommand.runOptions.filter { !own.contains($0.flag) && $0.flag != "--mutant" })
    }
    static let examples: [String] = ["swift run mutate explore Sources/Analytics --in-diff origin/main"]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        var explore = ExploreOptions(run: try arguments.runOptions())
        explore.paths = arguments.positional
        explore.list = arguments.has("--list")
        explore.json = arguments.has("--json")
        if explore.json, !explore.list {
            throw arguments.error("--json is the form of --list's output: give it with --list")
        }
        explore.inDiff = arguments.last("--in-diff")
        explore.gates = arguments.has("--threshold")
        if let text = arguments.last("--sample") {
            guard let count = Int(text), count >= 1 else {
                throw arguments.error("--sample takes a number of mutants of at least 1, not '\(text)'")
            }
            explore.sample = count
        }
        explore.ids = arguments.all("--id")
        explore.prGate = arguments.last("--pr-gate")
        if arguments.has("--no-narrowing") { explore.narrowing = false }
        if explore.prGate != nil {
            guard explore.run.incremental != nil else {
                throw arguments.error("--pr-gate compares the score with the base branch's, which a results file records: it needs --incremental FILE")
            }
            let partial = [("--in-diff", explore.inDiff != nil), ("--sample", explore.sample != nil), ("--id", !explore.ids.isEmpty),
                           ("--shard", explore.run.shard != nil)].filter(\.1).map(\.0)
            guard partial.isEmpty else {
                throw arguments.error("--pr-gate judges the whole package's score, and \(partial.joined(separator: ", ")) runs part of it: give one or the other")
            }
        }
        if explore.run.incremental != nil, explore.list {
            throw arguments.error("--incremental keeps verdicts, and --list runs none: give one or the other")
        }
        return .explore(explore)
    }
}
