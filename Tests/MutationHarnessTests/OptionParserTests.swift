import Testing
@testable import MutationHarness

struct OptionParserTests {
    @Test func parsesTheRunOptions() throws {
        let command = try OptionParser.parse(["--package-path", "pkg", "--mutant", "a", "--mutant=b", "--threshold=80",
                                              "--timeout-multiplier", "2.5", "--shard", "2/3", "--output", "out", "--wait"])
        guard case .run(let options) = command else { Issue.record("expected run"); return }
        #expect(options.common.packagePath == "pkg")
        #expect(options.mutants == ["a", "b"], "--flag=value works like --flag value")
        #expect(options.threshold == 80)
        #expect(options.timeoutMultiplier == 2.5)
        #expect(options.shard == Shard(index: 2, count: 3))
        #expect(options.outputPath == "out")
        #expect(options.wait)
        guard case .run(let defaults) = try OptionParser.parse([]) else { Issue.record("expected run"); return }
        #expect(defaults.threshold == 100, "every mutant must be caught unless the caller says otherwise")
        guard case .run(let single) = try OptionParser.parse(["--shard", "1/1"]) else { Issue.record("expected run"); return }
        #expect(single.shard == Shard(index: 1, count: 1), "one shard of one is a valid matrix of one machine")
        #expect(defaults.timeoutMultiplier == 3)
        #expect(defaults.timeout == nil && defaults.shard == nil && !defaults.wait)
    }

    @Test(arguments: [
        (["--threshold", "101"], "--threshold takes a whole percentage from 0 to 100, not '101'"),
        (["--shard", "4/3"], "--shard takes K/N with 1 <= K <= N, such as 2/3, not '4/3'"),
        (["--bogus"], "unknown option '--bogus'"),
        (["--mutnat", "x"], "unknown option '--mutnat'; did you mean '--mutant'?"),
        (["chekc"], "unknown sub-command 'chekc'; did you mean 'check'?"),
        (["--mutant"], "--mutant needs a value"),
        (["--wait=yes"], "--wait takes no value"),
        (["check", "--threshold", "50"], "--threshold does not apply to `mutate check`"),
        (["--list", "--description", "x"], "--description does not apply to `mutate run`"),
        (["--list", "--threshold", "50"], "--threshold does not apply to --list (it only prints the mutants)"),
        (["record", "x"], "record needs --description TEXT: what a user would see if this bug came back"),
        (["record", "x", "--description", "  "], "record needs --description TEXT: what a user would see if this bug came back"),
        (["record", "Bad_Name", "--description", "d"], "mutant name 'Bad_Name' must be lower-case letters, digits and dashes, such as retry-on-400"),
        // 100 characters is allowed: what is wrong with this one is its capital.
        (["record", "A" + String(repeating: "a", count: 99), "--description", "d"],
         "mutant name 'A\(String(repeating: "a", count: 99))' must be lower-case letters, digits and dashes, such as retry-on-400"),
        (["record", String(repeating: "a", count: 101), "--description", "d"],
         "mutant name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is 101 characters long: at most 100"),
        (["merge", "a"], "merge needs --output DIR for the merged report"),
        // A name is a file in mutants/: a path would rewrite a file of the user's elsewhere.
        (["rebase", "retry-on-400", "../../etc/hosts"], "mutant name '../../etc/hosts' must be lower-case letters, digits and dashes, such as retry-on-400"),
        (["help", "nope"], "no help for 'nope'"),
        (["list", "extra"], "list takes no arguments, found 'extra'"),
        (["--timeout", "inf"], "--timeout takes a positive number of seconds, not 'inf'"),
        (["--timeout", "0"], "--timeout takes a positive number of seconds, not '0'"),
        (["--timeout-multiplier", "nan"], "--timeout-multiplier takes a positive number, not 'nan'"),
        (["--timeout-multiplier", "-1"], "--timeout-multiplier takes a positive number, not '-1'"),
        (["--timeout-multiplier", "inf"], "--timeout-multiplier takes a positive number, not 'inf'"),
        (["check", "extra"], "check takes no arguments, found 'extra'"),
        (["explore", "--sample", "0"], "--sample takes a number of mutants of at least 1, not '0'"),
        (["explore", "--sample", "ten"], "--sample takes a number of mutants of at least 1, not 'ten'"),
        (["explore", "--jobs", "0"], "--jobs takes a number of mutants tested at once of at least 1, not '0'"),
        (["explore", "--jobs", "two"], "--jobs takes a number of mutants tested at once of at least 1, not 'two'"),
        (["run", "--jobs", "0"], "--jobs takes a number of mutants tested at once of at least 1, not '0'"),
        (["list", "--jobs", "2"], "--jobs does not apply to `mutate list`"),
        (["explore", "--mutant", "x"], "--mutant does not apply to `mutate explore`"),
        (["--output", "--wait"], "--output needs a value"),
        (["--shard", "0/0"], "--shard takes K/N with 1 <= K <= N, such as 2/3, not '0/0'"),
        (["--shard", "1/0"], "--shard takes K/N with 1 <= K <= N, such as 2/3, not '1/0'"),
        (["--shard", "1/2/3"], "--shard takes K/N with 1 <= K <= N, such as 2/3, not '1/2/3'"),
        (["--shard", "1//2"], "--shard takes K/N with 1 <= K <= N, such as 2/3, not '1//2'"),
        (["promote", "3e446f66", "--description", "d"], "promote takes a generated mutant's id and a name: mutate promote ID NAME --description TEXT"),
        // Two sub-commands at the same distance: the first in alphabetical order.
        (["hul"], "unknown sub-command 'hul'; did you mean 'help'?"),
        // 11 characters, 3 edits away: close enough (a third of its length).
        (["--packe-pah", "."], "unknown option '--packe-pah'; did you mean '--package-path'?"),
        (["promote", "3e446f66", "Bad_Name", "--description", "d"], "mutant name 'Bad_Name' must be lower-case letters, digits and dashes, such as retry-on-400"),
        (["--wait", "rnu"], "unexpected argument 'rnu'; did you mean 'run'?"),
        (["promote", "3e446f66", "name", "--description", "   "], "promote needs --description TEXT: what a user would see if this bug came back"),
        (["merge", "--output", "merged"], "merge needs the shard report folders to merge"),
        (["--wait", "explore"], "the sub-command comes first: mutate explore [OPTIONS], not 'explore' after an option"),
    ])
    func refusesBadCommandLines(arguments: [String], message: String) {
        #expect { try OptionParser.parse(arguments) } throws: { ($0 as? UsageError)?.message == message }
    }

    @Test func promoteWaitsForTheLockWithoutTakingAValue() throws {
        guard case .promote(let options) = try OptionParser.parse(["promote", "3e446f66", "name", "--description", "d", "--wait", "Sources/A"]) else {
            Issue.record("expected promote")
            return
        }
        #expect(options.run.wait)
        #expect(options.paths == ["Sources/A"], "the path after --wait is a path, not its value")
        guard case .promote(let plain) = try OptionParser.parse(["promote", "3e446f66", "name", "--description", "d"]) else {
            Issue.record("expected promote")
            return
        }
        #expect(!plain.run.wait, "without --wait a locked scratch copy is refused, not waited for")
        guard case .promote(let elsewhere) = try OptionParser.parse(["promote", "3e446f66", "name", "--description", "d", "--scratch", "/tmp/copy"]) else {
            Issue.record("expected promote")
            return
        }
        #expect(elsewhere.run.scratchPath == "/tmp/copy" && elsewhere.paths.isEmpty, "--scratch takes the folder as its value")
    }

    @Test func recordsDryRunTakesNoValue() throws {
        guard case .record(let options) = try OptionParser.parse(["record", "name", "--description", "d", "--dry-run", "Sources/A.swift"]) else {
            Issue.record("expected record")
            return
        }
        #expect(options.dryRun)
        #expect(options.paths == ["Sources/A.swift"], "the path after --dry-run is a path, not its value")
        guard case .record(let last) = try OptionParser.parse(["record", "name", "--description", "d", "--dry-run"]) else {
            Issue.record("expected record")
            return
        }
        #expect(last.dryRun && last.paths.isEmpty)
    }

    @Test func editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        #expect(Suggestion.editDistance("abc", "") == 3)
        #expect(Suggestion.editDistance("", "ab") == 2)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("same", "same") == 0)
        #expect(Suggestion.likeness("", "") == 1)
        #expect(Suggestion.likeness("abcd", "abcd") == 1)
        #expect(Suggestion.likeness("abcd", "abce") == 0.75)
        #expect(Suggestion.likeness("ab", "abcd") == 0.5)
        #expect(Suggestion.likeness("", "ab") == 0)
        #expect(Suggestion.likeness("a", "b") == 0)
    }

    @Test func exploreTakesASampleAndAShard() throws {
        guard case .explore(let options) = try OptionParser.parse(["explore", "Sources/A", "--sample=40", "--shard", "2/3"]) else {
            Issue.record("expected explore")
            return
        }
        #expect(options.paths == ["Sources/A"])
        #expect(options.sample == 40)
        #expect(options.run.jobs == nil, "one per core, decided by the command")
        #expect(options.run.shard == Shard(index: 2, count: 3))
        #expect(!options.list && !options.gates && options.run.schema, "it runs, reports without gating, and builds one schema")
        #expect(options.narrowing, "the switch pass narrows by default")
        guard case .explore(let reference) = try OptionParser.parse(["explore", "--no-narrowing"]), !reference.narrowing else {
            Issue.record("expected explore without the narrowing")
            return
        }
        guard case .explore(let listing) = try OptionParser.parse(["explore", "--list", "--threshold", "90", "--no-schema"]) else {
            Issue.record("expected explore")
            return
        }
        #expect(listing.list && listing.gates && !listing.run.schema && listing.run.threshold == 90)
        guard case .explore(let jobs) = try OptionParser.parse(["explore", "--jobs", "3"]), jobs.run.jobs == 3 else {
            Issue.record("expected explore with 3 jobs")
            return
        }
        guard case .run(let one) = try OptionParser.parse(["--jobs", "1"]), one.jobs == 1 else {
            Issue.record("expected the gate with 1 job: one at a time is the least, and allowed")
            return
        }
        guard case .run(let gate) = try OptionParser.parse(["--no-schema", "--jobs=2"]), !gate.schema, gate.jobs == 2 else {
            Issue.record("expected the gate with --no-schema and 2 jobs")
            return
        }
        guard case .explore(let survivors) = try OptionParser.parse(["explore", "--id", "3e446f66", "--id=a00bb233"]) else {
            Issue.record("expected explore")
            return
        }
        #expect(survivors.ids == ["3e446f66", "a00bb233"])
        // `--verify-reused`: 3 reused verdicts re-run unless told otherwise (README, docs/harness.md).
        guard case .explore(let reusing) = try OptionParser.parse(["explore", "--incremental", "results.json"]),
              case .explore(let told) = try OptionParser.parse(["explore", "--incremental", "results.json", "--verify-reused", "0"]) else {
            Issue.record("expected explore")
            return
        }
        #expect(reusing.run.incremental == "results.json" && reusing.run.verifyReused == 3 && told.run.verifyReused == 0)
        // The gate keeps its named mutants' verdicts the same way.
        guard case .run(let keeping) = try OptionParser.parse(["--incremental", "gate.json", "--verify-reused=1"]) else {
            Issue.record("expected the gate")
            return
        }
        #expect(keeping.incremental == "gate.json" && keeping.verifyReused == 1)
        #expect(throws: UsageError.self, "--verify-reused alone has no file to check") { try OptionParser.parse(["--verify-reused", "2"]) }
    }

    @Test func knowsTheSubcommands() throws {
        #expect(try OptionParser.parse(["check"]) == .check(CommonOptions()))
        #expect(try OptionParser.parse(["--list"]) == .list(CommonOptions(), mutants: []))
        #expect(try OptionParser.parse(["--list", "--mutant", "x"]) == .list(CommonOptions(), mutants: ["x"]))
        #expect(try OptionParser.parse(["--help"]) == .help(nil))
        #expect(try OptionParser.parse(["--version"]) == .version)
        #expect(try OptionParser.parse(["run", "--version"]) == .version, "the gate's own spelling")
        #expect(try OptionParser.parse(["--no-schema", "--version"]) == .version, "after another of the gate's options")
        #expect(try OptionParser.parse(["help", "record"]) == .help("record"))
        #expect(try OptionParser.parse(["merge", "--help"]) == .help("merge"))
        #expect(try OptionParser.parse(["record", "retry-on-400", "--description", "d"])
            == .record(RecordOptions(name: "retry-on-400", description: "d")))
        #expect(try OptionParser.parse(["record", "x", "--description=d", "--dry-run", "Sources/A.swift"])
            == .record(RecordOptions(name: "x", description: "d", paths: ["Sources/A.swift"], dryRun: true)))
        #expect(try OptionParser.parse(["record", "x", "--description", "d", "--bug", "issue 9", "Sources/A.swift"])
            == .record(RecordOptions(name: "x", description: "d", bug: "issue 9", paths: ["Sources/A.swift"])), "--bug takes the next word")
        #expect(try OptionParser.parse(["record", "x", "--description", "d", "--killed-by", "T.S/a()", "--killed-by=T.S/b()"])
            == .record(RecordOptions(name: "x", description: "d", killedBy: ["T.S/a()", "T.S/b()"])), "--killed-by is repeatable")
        for bad in ["", "T.S/a() T.S/b()"] {
            #expect(throws: UsageError.self, "one id per --killed-by: '\(bad)'") {
                try OptionParser.parse(["record", "x", "--description", "d", "--killed-by", bad])
            }
        }
    }

    /// The options that take a value take it in every sub-command that has
    /// them, and the numbers keep their edges.
    @Test func listAndMergeTakeTheirValuesAndTimeLimitsArePositive() throws {
        #expect(try OptionParser.parse(["list", "--mutant", "retry-on-400", "--mutant", "ignored-modal"])
            == .list(CommonOptions(), mutants: ["retry-on-400", "ignored-modal"]))
        guard case .explore(let changed) = try OptionParser.parse(["explore", "--in-diff", "origin/main", "Sources/A"]) else {
            Issue.record("expected explore")
            return
        }
        #expect(changed.inDiff == "origin/main" && changed.paths == ["Sources/A"], "--in-diff takes the ref; the path stays a path")
        #expect(throws: UsageError(message: "list takes no arguments, found '-'", subcommand: "list")) { try OptionParser.parse(["list", "-"]) }
        guard case .run(let lenient) = try OptionParser.parse(["--threshold", "0"]) else {
            Issue.record("expected run")
            return
        }
        #expect(lenient.threshold == 0, "0% is a threshold: report, never fail")
        #expect(try OptionParser.parse(["merge", "--output", "merged", "--threshold", "90", "shard-1", "shard-2"])
            == .merge(output: "merged", inputs: ["shard-1", "shard-2"], threshold: 90))
        guard case .run(let short) = try OptionParser.parse(["--timeout", "0.5", "--timeout-multiplier", "0.25"]) else {
            Issue.record("expected run")
            return
        }
        #expect(short.timeout == 0.5 && short.timeoutMultiplier == 0.25, "under a second and under one are still positive")
        #expect(throws: UsageError(message: "--timeout-multiplier takes a positive number, not '0'")) {
            try OptionParser.parse(["--timeout-multiplier", "0"])
        }
    }

    @Test func eachSubcommandHasItsOwnHelpWithAnExample() {
        for subcommand in ["list", "check", "record", "merge"] {
            let text = HelpText.text(for: subcommand)
            #expect(text.hasPrefix("USAGE: mutate \(subcommand)"), "\(subcommand)")
            #expect(text.contains("EXAMPLE:\n  swift run mutate"), "\(subcommand)")
        }
        #expect(HelpText.overview.contains("130  interrupted"))
        #expect(HelpText.overview.contains("6    another run holds the scratch copy"))
    }

    @Test func suggestsOnlyCloseWords() {
        #expect(Suggestion.didYouMean("retry-on-40", among: ["retry-on-400", "ignored-modal"]) == "; did you mean 'retry-on-400'?")
        #expect(Suggestion.didYouMean("zzzzzz", among: ["retry-on-400", "ignored-modal"]) == "")
        // The distance itself: one deletion, one insertion, one substitution each cost 1.
        #expect(Suggestion.editDistance("abcd", "abc") == 1 && Suggestion.editDistance("abc", "abcd") == 1)
        #expect(Suggestion.editDistance("abc", "abd") == 1 && Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("", "ab") == 2 && Suggestion.editDistance("ab", "") == 2)
        // 4 characters: at most 2 edits away, whatever a third of its length is.
        #expect(Suggestion.didYouMean("expl", among: ["explore"]) == "", "3 edits from a 4-letter word is no suggestion")
        #expect(Suggestion.didYouMean("expo", among: ["export"]) == "; did you mean 'export'?")
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }

    @Test func suggestsTheClosestWordAndBreaksATieAlphabetically() {
        #expect(Suggestion.didYouMean("cat", among: ["bat", "cot"]) == "; did you mean 'bat'?")
        #expect(Suggestion.didYouMean("cat", among: ["cot", "bat"]) == "; did you mean 'bat'?", "whatever the order given")
        #expect(Suggestion.didYouMean("abcd", among: ["zbcd", "abxx"]) == "; did you mean 'zbcd'?",
                "one edit beats two, even when the farther word sorts first")
    }

    /// Help is made from the same declaration the parser checks against:
    /// each option a sub-command accepts has its line (or, borrowed, its name
    /// in the "as for" line), and the overview names every sub-command.
    @Test func everyOptionASubCommandAcceptsIsInItsHelp() {
        for command in OptionParser.commands {
            let help = HelpText.text(for: command.name)
            let lines = help.components(separatedBy: "\n")
            for option in command.options {
                let head = "  " + option.usage + "  "
                #expect(lines.contains { $0.hasPrefix(head) }, "`mutate \(command.name)` accepts \(option.flag) but its help has no line for it")
            }
            for option in command.borrowed?.options ?? [] {
                #expect(help.contains(option.flag + ",") || help.contains(option.flag + ": as for"), "\(command.name): \(option.flag)")
            }
        }
        for subcommand in OptionParser.subcommands where subcommand != "help" {
            #expect(HelpText.overview.contains(subcommand), "the overview names `\(subcommand)`")
        }
    }

    /// One help page whole, so a change of its layout is seen.
    @Test func theListHelpReadsAsAWhole() {
        #expect(HelpText.text(for: "list") == """
            USAGE: mutate list [--package-path DIR] [--mutants DIR] [--mutant NAME...]

            Prints each mutant's name and description (only the named ones with --mutant).

            OPTIONS:
              --mutant NAME       only this mutant (repeatable)
              --package-path DIR  the package (default: .)
              --mutants DIR       the mutant patches (default: PACKAGE/mutants)

            EXAMPLE:
              swift run mutate list --mutant retry-on-400
            """)
        #expect(HelpText.text(for: "explore").contains("""
              --pr-gate REF       gate a pull request: no survivor on lines changed since REF, no lower score than the base's
              --no-narrowing      each mutant runs every test that runs its function, not only those that ran its switch (the reference)
              --package-path, --mutants, --output, --scratch, --timeout-multiplier, --timeout, --wait,
              --all-tests, --no-coverage, --no-schema, --jobs: as for run
            """), "explore names the options it shares with run, without --mutant")
        #expect(HelpText.text(for: nil) == HelpText.text(for: "run"))
    }
}

extension OptionParserTests {
    /// An option's further help lines sit under its first, in the second
    /// column, with no option of their own: `--scratch`'s second line.
    @Test func anOptionsFurtherHelpLinesSitUnderItsFirst() throws {
        let lines = HelpText.overview.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix("  --scratch DIR ") })
        let help = try #require(lines[first].range(of: "the kept scratch copy"))
        let column = lines[first].distance(from: lines[first].startIndex, to: help.lowerBound)
        #expect(lines[first + 1] == String(repeating: " ", count: column)
            + "must be under .build/, or outside the package and new, empty or made by mutate", "\(lines[first + 1])")
    }
}

extension OptionParserTests {
    /// The overview's sections list one item a line, indented under their title.
    @Test func theOverviewsSectionsHaveOneItemALine() {
        #expect(HelpText.overview.contains("\nEXIT CODES:\n  0    gate passed\n  2    usage error, or a mutant file or folder that cannot be used\n"),
                "\(HelpText.overview)")
    }
}
