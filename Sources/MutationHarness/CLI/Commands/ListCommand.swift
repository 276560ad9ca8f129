/// `mutate list`: the named mutants and what each would let through.
enum ListCommand: SubCommand {
    static let name: String = "list"
    static let abstract: String = "print the mutants"
    static let usage: [String] = ["mutate list [--package-path DIR] [--mutants DIR] [--mutant NAME...]"]
    static let discussion: String = "Prints each mutant's name and description (only the named ones with --mutant)."
    static let options: [OptionSpec] = [
        OptionSpec("--mutant", "NAME", help: "only this mutant (repeatable)"),
        .packagePath(),
        .mutants(),
    ]
    static let examples: [String] = ["swift run mutate list --mutant retry-on-400"]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        try arguments.noPositional()
        return .list(arguments.common, mutants: arguments.all("--mutant"))
    }
}
