/// One sub-command of `mutate`, declared once: its options, from which the
/// parser checks the command line and the help prints its lines, and how
/// the parsed arguments become a `HarnessCommand` (the shape of
/// swift-argument-parser's `ParsableCommand`, without the dependency).
protocol SubCommand {
    /// The word after `mutate` (`run` is also what no word means).
    static var name: String { get }
    /// One line for the overview's list of sub-commands.
    static var abstract: String { get }
    /// The usage lines, each printed after `USAGE: ` or aligned under it.
    static var usage: [String] { get }
    /// What it does, as paragraphs of help.
    static var discussion: String { get }
    /// Its own options, in the order help lists them.
    static var options: [OptionSpec] { get }
    /// Options it accepts as another sub-command does, which help names in
    /// one line (`--output, ...: as for run`) instead of describing again.
    static var borrowed: BorrowedOptions? { get }
    /// Sections between the options and the example (the overview's list of
    /// sub-commands and exit codes).
    static var sections: [HelpSection] { get }
    static var examples: [String] { get }

    static func command(from arguments: ParsedArguments) throws(UsageError) -> HarnessCommand
}

extension SubCommand {
    static var borrowed: BorrowedOptions? { nil }
    static var sections: [HelpSection] { [] }

    /// Every option the parser accepts for this sub-command.
    static var accepted: [OptionSpec] { options + (borrowed?.options ?? []) }

    /// `mutate help NAME`, made from the declarations above.
    static var help: String {
        var text = "USAGE: " + usage.joined(separator: "\n       ") + "\n\n" + discussion + "\n"
        if !options.isEmpty {
            text += "\n" + (name == RunCommand.name ? "OPTIONS (run):" : "OPTIONS:") + "\n"
            // An option's further help lines sit under its first, in the second column.
            let rows = options.flatMap { option in option.help.enumerated().map { ($0.offset == 0 ? option.usage : "", $0.element) } }
            text += HelpSection.columns(rows).map { "  " + $0 + "\n" }.joined()
            if let borrowed {
                // One line per few flags, so the list stays within a terminal.
                var line = " "
                for (index, option) in borrowed.options.enumerated() {
                    let word = " " + option.flag + (index == borrowed.options.count - 1 ? ": as for \(borrowed.from)" : ",")
                    if line.count + word.count > 100 {
                        text += line + "\n"
                        line = " "
                    }
                    line += word
                }
                text += line + "\n"
            }
        }
        for section in sections {
            text += "\n\(section.title):\n" + section.lines.map { "  " + $0 + "\n" }.joined()
        }
        text += "\nEXAMPLE:\n" + examples.map { "  " + $0 + "\n" }.joined()
        return String(text.dropLast())
    }
}

/// Options a sub-command accepts as another one does.
struct BorrowedOptions {
    var from: String
    var options: [OptionSpec]
}

/// A titled list in a sub-command's help.
struct HelpSection {
    var title: String
    var lines: [String]

    init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }

    /// A list of two columns (a name, what it is).
    init(title: String, rows: [(String, String)]) {
        self.init(title: title, lines: Self.columns(rows))
    }

    /// Each row's first column padded to the widest one plus two spaces.
    static func columns(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
    }
}
