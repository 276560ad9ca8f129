/// A command line the harness cannot use.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The sub-command whose help the message points to.
    var subcommand: String?

    init(message: String, subcommand: String? = nil) {
        self.message = message
        self.subcommand = subcommand
    }

    var description: String {
        "\(message)\nRun `mutate \(subcommand.map { "help \($0)" } ?? "--help")` for usage."
    }
}
