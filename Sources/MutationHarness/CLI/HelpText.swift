/// `mutate --help` and `mutate help SUB`.
enum HelpText {
    static let version = "1.1.0"

    static func text(for subcommand: String?) -> String {
        switch subcommand {
        case "list": list
        case "check": check
        case "record": record
        case "merge": merge
        case "explore": explore
        case "promote": promote
        case "rebase": rebase
        default: overview
        }
    }

    static let overview = """
        USAGE: mutate [run] [options]
               mutate list | check | record | rebase | merge | explore | promote | help SUB-COMMAND

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

        OPTIONS (run):
          --package-path DIR        the package to mutate (default: .)
          --mutants DIR             the mutant patches (default: PACKAGE/mutants)
          --output DIR              reports and logs (default: PACKAGE/.build/mutation-report)
          --scratch DIR             the kept scratch copy (default: PACKAGE/.build/mutate/scratch);
                                    must be under .build/, or outside the package and new, empty or made by mutate
          --mutant NAME             run only this mutant (repeatable)
          --threshold PCT           lowest passing score, 0-100 (default: 100)
          --timeout-multiplier X    test limit = the tests' time x X + 30 s (default: 3; the
                                    baseline's time, or the chosen tests' time alone)
          --timeout SECONDS         a fixed test time limit per mutant instead
          --shard K/N               run the K-th of N slices of the mutants (CI fan-out)
          --wait                    if another run holds the scratch copy, wait for it (default: exit 6)
          --all-tests               run every covering test to the end: the report names every killing test
          --no-coverage             no coverage pass: every mutant runs the whole suite (the reference)
          --no-schema               build every mutant on its own (one build each; the reference)
          --jobs N                  mutants of the schema tested at once, and twice as many tests in the
                                    coverage pass (default: one per core)
          --list                    print the mutants (with --mutant: only those) and exit
          --version                 print the harness's version

        SUB-COMMANDS:
          list      print the mutants
          check     every patch still applies to today's source (no build)
          rebase    carry stale mutants onto today's source after a refactor
          record    turn an uncommitted bug under Sources/ into mutants/NAME.patch
          merge     combine the reports of every --shard run and gate on the total
          explore   generate mutants from the compiler's syntax tree and run them
          promote   keep a generated mutant as a named one in mutants/

        EXAMPLE:
          swift run mutate --mutant retry-on-400 --output .build/one-report

        EXIT CODES:
          0    gate passed
          2    usage error, or a mutant file or folder that cannot be used
          3    a mutant survived: the score is under the threshold
          4    a mutant is stale or unviable (fix the mutant), or its run said nothing
          5    the unmutated package does not build, has a red suite, or has no tests
          6    another run holds the scratch copy (see --wait)
          7    explore --incremental: a reused verdict came out differently when re-run (--verify-reused)
          8    explore --pr-gate: a mutant on a line the change touched survived
          9    explore --pr-gate: the score is lower than the one recorded for the base branch
          130  interrupted (SIGINT or SIGTERM): no verdict for the mutant that was running
        """

    static let list = """
        USAGE: mutate list [--package-path DIR] [--mutants DIR] [--mutant NAME...]

        Prints each mutant's name and description (only the named ones with --mutant).

        EXAMPLE:
          swift run mutate list --mutant retry-on-400
        """

    static let check = """
        USAGE: mutate check [--package-path DIR] [--mutants DIR]

        Applies every patch in memory to today's source, without building, and
        names each hunk that no longer matches, and whether `mutate rebase`
        can carry that mutant onto today's source. Exit 0 when all apply, 4
        when one is stale, 2 when a mutant file cannot be used.

        EXAMPLE:
          swift run mutate check
        """

    static let rebase = """
        USAGE: mutate rebase [NAME...] [--dry-run] [--package-path DIR] [--mutants DIR]

        Carries stale mutants (all, or the NAMEd ones) onto today's source and
        rewrites their files: headers kept, a `Rebased:` line added. A hunk
        is placed by the preimage its `index` line names when the repository
        has that blob (where today's file kept its lines and their neighbours,
        as a three-way merge places it); else it moves only where the lines it
        changes occur exactly once, indentation aside (in its file, or in one
        other file of the same top folder), and its added lines take the new
        indentation. Anything less certain is left stale, with the reason and
        the nearest candidates. The gate never rebases.
        Exit 0 when nothing is left stale, 4 when one is, 2 on bad input.

        OPTIONS:
          --dry-run            print each new patch as a diff of the old; write nothing
          --package-path DIR   the package (default: .)
          --mutants DIR        the mutant patches (default: PACKAGE/mutants)

        EXAMPLE:
          swift run mutate rebase --dry-run
          swift run mutate rebase regenerated-install-id
        """

    static let record = """
        USAGE: mutate record NAME --description TEXT [--bug TEXT] [--dry-run] [PATH...]

        Turns the uncommitted change under Sources/ (tracked edits and new
        files) into mutants/NAME.patch, then puts those files back as HEAD has
        them (new files are removed). It lists the files first. With PATHs,
        only those files are recorded and restored; other changes stay. With
        --dry-run it prints the patch and changes nothing.

        OPTIONS:
          --description TEXT   what a user would see if this bug came back (required)
          --bug TEXT           the incident it comes from
          --dry-run            print the patch; write and restore nothing
          --package-path DIR   the package (default: .)
          --mutants DIR        where the patch goes (default: PACKAGE/mutants)

        EXAMPLE:
          swift run mutate record ignored-modal --description "a sheet's time is counted on the screen below" \\
              Sources/Analytics/Screens/ScreenStack.swift
        """

    static let explore = """
        USAGE: mutate explore [PATH...] [--list] [--in-diff REF] [--sample N] [--shard K/N] [--id ID...] [--jobs N] [--threshold PCT]
                              [--incremental FILE [--verify-reused N] [--pr-gate REF]] [run options]

        Generates mutants from the compiler's type-checked syntax tree of the
        package's source targets (PATHs relative to the package; default
        Sources): relational boundary and negation, && <-> ||, true <-> false,
        + <-> -, * <-> /, integer literals, removal of a call that returns
        nothing, a Bool function returning a constant, a guard or if condition
        made true. Never in string literals, comments, tests, inactive #if
        code, or code marked `// mutate: skip` (end of a line: that line; alone
        on a line: the next declaration; `// mutate: skip-file`: the file).
        Each runs like a named mutant (same lab, scratch copy and reports, in
        .build/mutation-report/explore by default). mutants/explore-ignore
        lists those judged harmless, one per line: `ID reason` or
        `FILE:LINE OPERATOR reason`; they are reported as ignored.
        Each mutant runs only the tests that reach its code (the coverage
        pass, as for run; a mutant of the schema the map cannot place, such
        as code only in a program a test starts, runs only the tests that
        ran its switch) and stops at the first failing test; a run in which
        tests are running and none has started or ended for the longest of
        their times alone x 3 + 10 s is stopped as a timeout. Mutants of the
        schema are tested --jobs at a time (default: one per core).
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

        OPTIONS:
          --list              print the generated mutants (id, file:line:column, operator, original -> mutated); run nothing
          --in-diff REF       only mutants on lines changed since the git ref REF (pull requests)
          --threshold PCT     gate on the score like a run
          --sample N          only the N mutants whose ids sort first: a fixed sample, the same on every machine
          --shard K/N         the K-th of N slices (by id), for a CI matrix; `mutate merge` joins the reports
          --id ID             only this generated mutant (repeatable): re-run survivors once tests are written
          --incremental FILE  keep verdicts in FILE (created if missing) and reuse those whose key is unchanged
          --verify-reused N   re-run N reused verdicts, drawn at random, to check FILE (default 3)
          --pr-gate REF       gate a pull request: no survivor on lines changed since REF, no lower score than the base's
          --output, --scratch, --wait, --timeout, --timeout-multiplier, --all-tests, --no-coverage,
          --no-schema, --jobs, --package-path, --mutants: as for run

        EXAMPLE:
          swift run mutate explore Sources/Analytics --in-diff origin/main
        """

    static let promote = """
        USAGE: mutate promote ID NAME --description TEXT [PATH...]

        Writes the generated mutant ID (from `mutate explore --list`) as
        mutants/NAME.patch, in the format of every named mutant, so check,
        record and the gate treat it like any other. Write the test that kills
        it first.

        OPTIONS:
          --description TEXT   what a user would see if this bug came back (required)
          --package-path DIR   the package (default: .)
          --mutants DIR        where the patch goes (default: PACKAGE/mutants)
          --scratch DIR        the scratch copy to build in (default: PACKAGE/.build/mutate/scratch)
          --wait               wait for another run's lock on the scratch copy

        EXAMPLE:
          swift run mutate promote 3f9a01bc backoff-off-by-one --description "the first retry waits twice as long"
        """

    static let merge = """
        USAGE: mutate merge --output DIR [--threshold PCT] SHARD_REPORT_DIR...

        Combines the reports of the runs `--shard 1/N` ... `--shard N/N` and
        gates on the total. Every shard must be there exactly once.

        EXAMPLE:
          swift run mutate merge --output all r1 r2 r3
        """
}
