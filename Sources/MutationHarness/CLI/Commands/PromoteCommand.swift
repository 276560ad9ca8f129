/// `mutate promote`: a generated mutant kept as a named one.
enum PromoteCommand: SubCommand {
    static let name: String = "promote"
    static let abstract: String = "keep a generated mutant as a named one in mutants/"
    static let usage: [String] = ["mutate promote ID NAME --description TEXT [PATH...]"]
    static let discussion: String = """
        Writes the generated mutant ID (from `mutate explore --list`) as
        mutants/NAME.patch, in the format of every named mutant, so check,
        record and the gate treat it like any other. Write the test that kills
        it first.
        """
    static let options: [OptionSpec] = [
        OptionSpec("--description", "TEXT", help: "what a user would see if this bug came back (required)"),
        .packagePath(),
        .mutants("where the patch goes (default: PACKAGE/mutants)"),
        OptionSpec("--scratch", "DIR", help: "the scratch copy to build in (default: PACKAGE/.build/mutate/scratch)"),
        OptionSpec("--wait", help: "wait for another run's lock on the scratch copy"),
    ]
    static let examples: [String] = [#"swift run mutate promote 3f9a01bc backoff-off-by-one --description "the first retry waits twice as long""#]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        let positional = arguments.positional
        guard positional.count >= 2 else {
            throw arguments.error("promote takes a generated mutant's id and a name: mutate promote ID NAME --description TEXT")
        }
        try arguments.checkName(positional[1])
        let description = try arguments.description(for: "promote")
        var run = RunOptions(common: arguments.common)
        run.scratchPath = arguments.last("--scratch")
        run.wait = arguments.has("--wait")
        return .promote(PromoteOptions(run: run, id: positional[0], name: positional[1], description: description,
                                       paths: Array(positional.dropFirst(2))))
    }
}
