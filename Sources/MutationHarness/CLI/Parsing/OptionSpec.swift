/// One option of a sub-command, declared once: the parser reads whether it
/// takes a value, the help prints its line.
struct OptionSpec: Equatable, Sendable {
    var flag: String
    /// The value's placeholder in help (`DIR`, `N`); nil for a flag that
    /// takes no value.
    var value: String?
    /// What it does: one help line per element.
    var help: [String]

    init(_ flag: String, _ value: String? = nil, help: String...) {
        self.flag = flag
        self.value = value
        self.help = help
    }

    var takesValue: Bool { value != nil }

    /// How help writes it: `--flag VALUE`, or `--flag`.
    var usage: String { flag + (value.map { " " + $0 } ?? "") }

    /// `--package-path DIR`, worded for the sub-command.
    static func packagePath(_ help: String = "the package (default: .)") -> OptionSpec {
        OptionSpec("--package-path", "DIR", help: help)
    }

    /// `--mutants DIR`, worded for the sub-command.
    static func mutants(_ help: String = "the mutant patches (default: PACKAGE/mutants)") -> OptionSpec {
        OptionSpec("--mutants", "DIR", help: help)
    }
}
