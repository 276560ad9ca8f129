/// `mutate check`: every patch still applies, without a build.
enum CheckCommand: SubCommand {
    static let name: String = "check"
    static let abstract: String = "every patch still applies to today's source (no build)"
    static let usage: [String] = ["mutate check [--package-path DIR] [--mutants DIR]"]
    static let discussion: String = """
        Applies every patch in memory to today's source, without building, and
        names each hunk that no longer matches, and whether `mutate rebase`
        can carry that mutant onto today's source. Exit 0 when all apply, 4
        when one is stale, 2 when a mutant file cannot be used.
        """
    static let options: [OptionSpec] = [OptionSpec.packagePath(), .mutants()]
    static let examples: [String] = ["swift run mutate check"]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        try arguments.noPositional()
        return .check(arguments.common)
    }
}
