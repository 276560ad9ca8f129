/// `mutate rebase`: stale named mutants carried onto today's source.
enum RebaseCommand: SubCommand {
    static let name: String = "rebase"
    static let abstract: String = "carry stale mutants onto today's source after a refactor"
    static let usage: [String] = ["mutate rebase [NAME...] [--dry-run] [--package-path DIR] [--mutants DIR]"]
    static let discussion: String = """
        Carries stale mutants (all, or the NAMEd ones) onto today's source and
        rewrites their files: headers kept, a `Rebased:` line added. A hunk
        is placed by the preimage its `index` line names when the repository
        has that blob (where today's file kept its lines and their neighbours,
        as a three-way merge places it); else it moves only where the lines it
        changes occur exactly once, indentation aside (in its file, or in one
        other file of the same top folder), and its added lines take the new
        indentation. Each carried mutant must then build in the scratch copy;
        one that does not is left stale. Anything less certain is left stale,
        with the reason and the nearest candidates. The gate never rebases.
        Exit 0 when nothing is left stale, 4 when one is, 2 on bad input.
        """
    static let options: [OptionSpec] = [
        OptionSpec("--dry-run", help: "print each new patch as a diff of the old; write nothing"),
        .packagePath(),
        .mutants(),
    ]
    static let examples: [String] = ["swift run mutate rebase --dry-run", "swift run mutate rebase regenerated-install-id"]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        for name in arguments.positional { try arguments.checkName(name) }
        return .rebase(arguments.common, mutants: arguments.positional, dryRun: arguments.has("--dry-run"))
    }
}
