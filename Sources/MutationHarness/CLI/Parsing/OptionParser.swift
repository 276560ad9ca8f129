/// Parses `mutate`'s arguments (without the program name), in the manner of
/// swift-argument-parser: `--flag value` and `--flag=value`, each option
/// checked against the declaration of the sub-command it is given to,
/// did-you-mean for typos. What the options mean is each sub-command's own
/// `command(from:)`.
enum OptionParser {
    /// Every sub-command, in the order the overview lists them.
    static var commands: [any SubCommand.Type] {
        [RunCommand.self, ListCommand.self, CheckCommand.self, RebaseCommand.self, RecordCommand.self, MergeCommand.self,
         ExploreCommand.self, PromoteCommand.self]
    }

    /// The words that may follow `mutate`. (A key path such as `\.name`
    /// on these metatypes crashes the 6.3.1 compiler: closures, not key paths.)
    static var subcommands: [String] { commands.map { $0.name } + ["help"] }

    static func command(named name: String) -> (any SubCommand.Type)? {
        commands.first { $0.name == name }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> HarnessCommand {
        var arguments = arguments[...]
        var subcommand: any SubCommand.Type = RunCommand.self
        if let first = arguments.first, !first.hasPrefix("-") {
            if first == "help" {
                guard let topic = arguments.dropFirst().first else { return .help(nil) }
                guard command(named: topic) != nil else {
                    throw UsageError(message: "no help for '\(topic)'" + Suggestion.didYouMean(topic, among: commands.map { $0.name }))
                }
                return .help(topic == RunCommand.name ? nil : topic)
            }
            guard let named = command(named: first) else {
                throw UsageError(message: "unknown sub-command '\(first)'" + Suggestion.didYouMean(first, among: subcommands))
            }
            subcommand = named
            arguments.removeFirst()
        }
        if arguments.contains("--help") || arguments.contains("-h") { return .help(subcommand == RunCommand.self ? nil : subcommand.name) }

        let allowed = Dictionary(subcommand.accepted.map { ($0.flag, $0.takesValue) }, uniquingKeysWith: { first, _ in first })
        var parsed = ParsedArguments(subcommand: subcommand.name)
        while let argument = arguments.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                parsed.positional.append(argument)
                continue
            }
            var flag = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let takesValue = allowed[flag] else {
                if commands.contains(where: { $0.accepted.contains { $0.flag == flag } }) {
                    throw parsed.error("\(flag) does not apply to `mutate \(subcommand.name)`")
                }
                throw parsed.error("unknown option '\(flag)'" + Suggestion.didYouMean(flag, among: Array(allowed.keys)))
            }
            if takesValue {
                if let inline {
                    parsed.values.append((flag, inline))
                } else {
                    guard let next = arguments.popFirst(), !next.hasPrefix("--") else { throw parsed.error("\(flag) needs a value") }
                    parsed.values.append((flag, next))
                }
            } else {
                guard inline == nil else { throw parsed.error("\(flag) takes no value") }
                parsed.values.append((flag, nil))
            }
        }
        return try subcommand.command(from: parsed)
    }
}
