/// `mutate --help` and `mutate help SUB`: each made from its sub-command's
/// declaration (`SubCommand.help`), so help cannot leave out an option the
/// parser accepts.
enum HelpText {
    /// The harness's version (`mutate --version`); part of every
    /// incremental results file's key.
    static let version = "1.1.0"

    static func text(for subcommand: String?) -> String {
        (subcommand.flatMap(OptionParser.command(named:)) ?? RunCommand.self).help
    }

    static var overview: String { RunCommand.help }
}
