import Foundation

/// A command line the harness cannot use.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { "\(message)\nRun `mutate --help` for usage." }
}

/// The parsed command line.
public enum HarnessCommand: Equatable {
    case run(RunOptions)
    case list(CommonOptions)
    case check(CommonOptions)
    case record(RecordOptions)
    case merge(output: String, inputs: [String], threshold: Int?)
    case help
}

/// Options every sub-command shares.
public struct CommonOptions: Equatable {
    public var packagePath = "."
    public var mutantsPath: String?
}

public struct RunOptions: Equatable {
    public var common = CommonOptions()
    public var outputPath: String?
    public var scratchPath: String?
    public var mutants: [String] = []
    public var threshold = 100
    public var timeoutMultiplier = 3.0
    public var timeout: Double?
    public var shard: (index: Int, count: Int)?

    public static func == (lhs: RunOptions, rhs: RunOptions) -> Bool {
        lhs.common == rhs.common && lhs.outputPath == rhs.outputPath && lhs.scratchPath == rhs.scratchPath && lhs.mutants == rhs.mutants
            && lhs.threshold == rhs.threshold && lhs.timeoutMultiplier == rhs.timeoutMultiplier && lhs.timeout == rhs.timeout
            && lhs.shard?.index == rhs.shard?.index && lhs.shard?.count == rhs.shard?.count
    }
}

public struct RecordOptions: Equatable {
    public var common = CommonOptions()
    public var name: String
    public var description: String
    public var bug: String?
}

/// Parses `mutate`'s arguments (without the program name).
public enum OptionParser {
    public static func parse(_ arguments: [String]) throws(UsageError) -> HarnessCommand {
        var arguments = arguments[...]
        if arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" { return .help }
        let subcommand = arguments.first.flatMap { ["run", "check", "record", "merge", "list"].contains($0) ? $0 : nil }
        if subcommand != nil { arguments.removeFirst() }

        var run = RunOptions()
        var positional: [String] = []
        var description: String?
        var bug: String?
        var list = subcommand == "list"
        var thresholdGiven = false
        while let argument = arguments.popFirst() {
            func value() throws(UsageError) -> String {
                guard let next = arguments.popFirst(), !next.hasPrefix("--") else { throw UsageError(message: "\(argument) needs a value") }
                return next
            }
            switch argument {
            case "--package-path": run.common.packagePath = try value()
            case "--mutants": run.common.mutantsPath = try value()
            case "--output": run.outputPath = try value()
            case "--scratch": run.scratchPath = try value()
            case "--mutant": run.mutants.append(try value())
            case "--threshold":
                let text = try value()
                guard let threshold = Int(text), (0...100).contains(threshold) else {
                    throw UsageError(message: "--threshold takes a whole percentage from 0 to 100, not '\(text)'")
                }
                run.threshold = threshold
                thresholdGiven = true
            case "--timeout-multiplier":
                let text = try value()
                guard let multiplier = Double(text), multiplier > 0, multiplier.isFinite else {
                    throw UsageError(message: "--timeout-multiplier takes a positive number, not '\(text)'")
                }
                run.timeoutMultiplier = multiplier
            case "--timeout":
                let text = try value()
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw UsageError(message: "--timeout takes a positive number of seconds, not '\(text)'")
                }
                run.timeout = seconds
            case "--shard":
                let text = try value()
                let parts = text.split(separator: "/")
                guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
                    throw UsageError(message: "--shard takes K/N with 1 <= K <= N, such as 2/3, not '\(text)'")
                }
                run.shard = (index, count)
            case "--list": list = true
            case "--description": description = try value()
            case "--bug": bug = try value()
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(message: "unknown option '\(argument)'") }
                positional.append(argument)
            }
        }

        switch subcommand {
        case "check":
            guard positional.isEmpty else { throw UsageError(message: "check takes no arguments, found '\(positional[0])'") }
            return .check(run.common)
        case "record":
            guard positional.count == 1 else { throw UsageError(message: "record takes one mutant name: mutate record NAME --description TEXT") }
            guard MutantFileParser.isValidName(positional[0]) else {
                throw UsageError(message: "mutant name '\(positional[0])' must be lower-case letters, digits and dashes, such as retry-on-400")
            }
            guard let description, !description.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError(message: "record needs --description TEXT: what a user would see if this bug came back")
            }
            return .record(RecordOptions(common: run.common, name: positional[0], description: description, bug: bug))
        case "merge":
            guard let output = run.outputPath else { throw UsageError(message: "merge needs --output DIR for the merged report") }
            guard !positional.isEmpty else { throw UsageError(message: "merge needs the shard report folders to merge") }
            return .merge(output: output, inputs: positional, threshold: thresholdGiven ? run.threshold : nil)
        default:
            guard positional.isEmpty else { throw UsageError(message: "unexpected argument '\(positional[0])'") }
            return list ? .list(run.common) : .run(run)
        }
    }

    public static let help = """
        USAGE: mutate [run] [options]
               mutate list | check [--package-path DIR] [--mutants DIR]
               mutate record NAME --description TEXT [--bug TEXT]
               mutate merge --output DIR SHARD_REPORT_DIR...

        Runs every hand-written mutant in mutants/ against the package's test
        suite in a scratch copy under .build/mutate, writes a kill report, and
        gates on the score. The package's own files are never written.

        OPTIONS (run):
          --package-path DIR        the package to mutate (default: .)
          --mutants DIR             the mutant patches (default: PACKAGE/mutants)
          --output DIR              reports and logs (default: PACKAGE/.build/mutation-report)
          --scratch DIR             the kept scratch copy (default: PACKAGE/.build/mutate/scratch)
          --mutant NAME             run only this mutant (repeatable)
          --threshold PCT           lowest passing score, 0-100 (default: 100)
          --timeout-multiplier X    test limit = baseline test time x X + 30 s (default: 3)
          --timeout SECONDS         a fixed test time limit per mutant instead
          --shard K/N               run the K-th of N slices of the mutants (CI fan-out)
          --list                    print the mutants and exit

        SUB-COMMANDS:
          check     every patch still applies to today's source (no build)
          record    turn the uncommitted change under Sources/ into mutants/NAME.patch,
                    then restore those files
          merge     combine the reports of several --shard runs and gate on the total

        EXIT CODES:
          0    gate passed
          2    usage error, or a mutant file or folder that cannot be used
          3    a mutant survived: the score is under the threshold
          4    a mutant is stale or unviable (fix the mutant), or its run said nothing
          5    the unmutated package does not build, has a red suite, or has no tests
          130  interrupted
        """
}
