/// `mutate record`: an uncommitted bug kept as a named mutant.
enum RecordCommand: SubCommand {
    static let name: String = "record"
    static let abstract: String = "turn an uncommitted bug under Sources/ into mutants/NAME.patch"
    static let usage: [String] = ["mutate record NAME --description TEXT [--bug TEXT] [--killed-by TEST]... [--dry-run] [PATH...]"]
    static let discussion: String = """
        Turns the uncommitted change under Sources/ (tracked edits and new
        files) into mutants/NAME.patch, then puts those files back as HEAD has
        them (new files are removed). It lists the files first. With PATHs,
        only those files are recorded and restored; other changes stay. With
        --dry-run it prints the patch and changes nothing.
        """
    static let options: [OptionSpec] = [
        OptionSpec("--description", "TEXT", help: "what a user would see if this bug came back (required)"),
        OptionSpec("--bug", "TEXT", help: "the incident it comes from"),
        OptionSpec("--killed-by", "TEST", help: "a test that kills it, by its id in the report (Target.Suite/test()); repeatable: "
            + "the gate runs these first"),
        OptionSpec("--dry-run", help: "print the patch; write and restore nothing"),
        .packagePath(),
        .mutants("where the patch goes (default: PACKAGE/mutants)"),
    ]
    static let examples: [String] = [
        #"swift run mutate record ignored-modal --description "a sheet's time is counted on the screen below" \"#,
        #"    --killed-by "AnalyticsTests.ScreenStackTests/nestedModalsUnwindOneLevelAtATime()" \"#,
        "    Sources/Analytics/Screens/ScreenStack.swift",
    ]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        guard let name = arguments.positional.first else {
            throw arguments.error("record takes a mutant name: mutate record NAME --description TEXT [PATH...]")
        }
        try arguments.checkName(name)
        let description = try arguments.description(for: "record")
        let killers = arguments.all("--killed-by")
        if let bad = killers.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
            throw arguments.error("--killed-by takes one test id, as the report names it (Target.Suite/test()), without spaces: '\(bad)'")
        }
        return .record(RecordOptions(common: arguments.common, name: name, description: description, bug: arguments.last("--bug"),
                                     killedBy: killers, paths: Array(arguments.positional.dropFirst()), dryRun: arguments.has("--dry-run")))
    }
}
