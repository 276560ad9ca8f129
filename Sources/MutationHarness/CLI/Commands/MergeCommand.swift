/// `mutate merge`: the reports of every shard, gated as one.
enum MergeCommand: SubCommand {
    static let name: String = "merge"
    static let abstract: String = "combine the reports of every --shard run and gate on the total"
    static let usage: [String] = ["mutate merge --output DIR [--threshold PCT] SHARD_REPORT_DIR..."]
    static let discussion: String = """
        Combines the reports of the runs `--shard 1/N` ... `--shard N/N` and
        gates on the total. Every shard must be there exactly once.
        """
    static let options: [OptionSpec] = [
        OptionSpec("--output", "DIR", help: "the merged report (required)"),
        OptionSpec("--threshold", "PCT", help: "lowest passing score, 0-100 (default: the highest of the shards')"),
    ]
    static let examples: [String] = ["swift run mutate merge --output all r1 r2 r3"]

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand {
        let threshold = try arguments.threshold()
        guard let output = arguments.last("--output") else { throw arguments.error("merge needs --output DIR for the merged report") }
        guard !arguments.positional.isEmpty else { throw arguments.error("merge needs the shard report folders to merge") }
        return .merge(output: output, inputs: arguments.positional, threshold: threshold)
    }
}
