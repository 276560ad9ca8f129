import Foundation

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

/// The parsed command line.
enum HarnessCommand: Equatable {
    case run(RunOptions)
    case list(CommonOptions, mutants: [String])
    case check(CommonOptions)
    case rebase(CommonOptions, mutants: [String], dryRun: Bool)
    case record(RecordOptions)
    case merge(output: String, inputs: [String], threshold: Int?)
    case explore(ExploreOptions)
    case promote(PromoteOptions)
    /// Help for one sub-command, or (nil) the overview.
    case help(String?)
    case version
}

/// Options every sub-command that reads mutants shares.
struct CommonOptions: Equatable {
    var packagePath = "."
    var mutantsPath: String?
}

struct RunOptions: Equatable {
    var common = CommonOptions()
    var outputPath: String?
    var scratchPath: String?
    var mutants: [String] = []
    var threshold = 100
    var timeoutMultiplier = 3.0
    var timeout: Double?
    var shard: Shard?
    var wait = false
    /// `--all-tests`: every chosen test runs to the end, so the report names
    /// every test that kills each mutant (the matrix), not just the first.
    var allTests = false
    /// `--no-coverage`: no coverage pass; every mutant runs the whole suite
    /// (the reference the selection is checked against).
    var coverage = true
    /// `--no-schema`: every mutant is built on its own (slower; the
    /// reference the schema is checked against).
    var schema = true
    /// `--jobs N`: schema mutants tested at once (nil: one per core).
    var jobs: Int?
}

/// `mutate explore [PATH...]`.
struct ExploreOptions: Equatable {
    var run = RunOptions()
    /// Folders or files to mutate, relative to the package (default `Sources`).
    var paths: [String] = []
    var list = false
    var inDiff: String?
    /// Only with `--threshold`: explore gates like a run; without, it reports.
    var gates = false
    /// `--sample N`: only the N mutants whose ids sort first. Ids are hashes
    /// of the mutation, so this is a fixed, reproducible sample.
    var sample: Int?
    /// `--id ID` (repeatable): only these generated mutants, such as the
    /// survivors of the last run once tests for them are written.
    var ids: [String] = []
    /// `--incremental FILE`: verdicts kept there by key and reused while the key holds.
    var incremental: String?
    /// `--verify-reused N`: reused verdicts re-run to check the file.
    var verifyReused = ExploreOptions.defaultVerifyReused
    /// `--pr-gate REF`: gate a pull request on the lines changed since its
    /// merge base with REF and on the base's recorded score.
    var prGate: String?

    static let defaultVerifyReused = 3
}

/// `mutate promote ID NAME --description TEXT [PATH...]`.
struct PromoteOptions: Equatable {
    var run = RunOptions()
    var id: String
    var name: String
    var description: String
    var paths: [String] = []
}

/// `--shard K/N`.
struct Shard: Equatable, Sendable {
    var index: Int
    var count: Int

    /// Every `count`-th item starting at the `index`-th (1-based): the
    /// shards of one list never overlap and together hold all of it.
    func slice<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }
}

struct RecordOptions: Equatable {
    var common = CommonOptions()
    var name: String
    var description: String
    var bug: String?
    /// Record only these paths (relative to the package); empty: every change under Sources/.
    var paths: [String] = []
    var dryRun = false
}

/// Parses `mutate`'s arguments (without the program name), in the manner of
/// swift-argument-parser: `--flag value` and `--flag=value`, options checked
/// against the sub-command they are given to, did-you-mean for typos.
enum OptionParser {
    static let subcommands = ["run", "list", "check", "record", "rebase", "merge", "explore", "promote", "help"]

    /// The options each sub-command takes (`true`: takes a value).
    static let options: [String: [String: Bool]] = {
        let common = ["--package-path": true, "--mutants": true]
        let run = common.merging([
            "--output": true, "--scratch": true, "--mutant": true, "--threshold": true, "--timeout-multiplier": true,
            "--timeout": true, "--shard": true, "--wait": false, "--list": false, "--all-tests": false, "--no-coverage": false,
            "--no-schema": false, "--jobs": true,
        ]) { $1 }
        return [
            "run": run,
            "list": common.merging(["--mutant": true]) { $1 },
            "check": common,
            "rebase": common.merging(["--dry-run": false]) { $1 },
            "record": common.merging(["--description": true, "--bug": true, "--dry-run": false]) { $1 },
            "merge": ["--output": true, "--threshold": true],
            "explore": run.merging(["--in-diff": true, "--sample": true, "--id": true, "--incremental": true, "--verify-reused": true, "--pr-gate": true]) { $1 }.filter { $0.key != "--mutant" },
            "promote": common.merging(["--description": true, "--scratch": true, "--wait": false]) { $1 },
        ]
    }()

    static func parse(_ arguments: [String]) throws(UsageError) -> HarnessCommand {
        var arguments = arguments[...]
        if arguments.first == "--version" { return .version }
        var subcommand = "run"
        if let first = arguments.first, !first.hasPrefix("-") {
            guard subcommands.contains(first) else {
                throw UsageError(message: "unknown sub-command '\(first)'" + suggestion(for: first, among: subcommands))
            }
            subcommand = first
            arguments.removeFirst()
        }
        if subcommand == "help" {
            guard let topic = arguments.first else { return .help(nil) }
            guard options[topic] != nil else {
                throw UsageError(message: "no help for '\(topic)'" + suggestion(for: topic, among: Array(options.keys)))
            }
            return .help(topic)
        }
        if arguments.contains("--help") || arguments.contains("-h") { return .help(subcommand == "run" ? nil : subcommand) }

        let allowed = options[subcommand] ?? [:]
        var values: [(flag: String, value: String?)] = []
        var positional: [String] = []
        while let argument = arguments.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            var flag = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let takesValue = allowed[flag] else {
                let known = options.values.contains { $0[flag] != nil }
                if known {
                    throw UsageError(message: "\(flag) does not apply to `mutate \(subcommand)`", subcommand: subcommand)
                }
                throw UsageError(message: "unknown option '\(flag)'" + suggestion(for: flag, among: Array(allowed.keys)), subcommand: subcommand)
            }
            if takesValue {
                if let inline {
                    values.append((flag, inline))
                } else {
                    guard let next = arguments.popFirst(), !next.hasPrefix("--") else {
                        throw UsageError(message: "\(flag) needs a value", subcommand: subcommand)
                    }
                    values.append((flag, next))
                }
            } else {
                guard inline == nil else { throw UsageError(message: "\(flag) takes no value", subcommand: subcommand) }
                values.append((flag, nil))
            }
        }
        return try build(subcommand, values, positional)
    }

    private static func build(_ subcommand: String, _ values: [(flag: String, value: String?)], _ positional: [String]) throws(UsageError)
        -> HarnessCommand
    {
        func last(_ flag: String) -> String? { values.last { $0.flag == flag }?.value ?? nil }
        func all(_ flag: String) -> [String] { values.filter { $0.flag == flag }.compactMap(\.value) }
        func has(_ flag: String) -> Bool { values.contains { $0.flag == flag } }

        var common = CommonOptions()
        common.packagePath = last("--package-path") ?? "."
        common.mutantsPath = last("--mutants")
        var threshold: Int?
        if let text = last("--threshold") {
            guard let value = Int(text), (0...100).contains(value) else {
                throw UsageError(message: "--threshold takes a whole percentage from 0 to 100, not '\(text)'", subcommand: subcommand)
            }
            threshold = value
        }

        switch subcommand {
        case "check":
            guard positional.isEmpty else { throw UsageError(message: "check takes no arguments, found '\(positional[0])'", subcommand: subcommand) }
            return .check(common)
        case "rebase":
            for name in positional where !MutantFileParser.isValidName(name) {
                throw UsageError(message: MutantFileParser.nameRule(name), subcommand: subcommand)
            }
            return .rebase(common, mutants: positional, dryRun: has("--dry-run"))
        case "list":
            guard positional.isEmpty else { throw UsageError(message: "list takes no arguments, found '\(positional[0])'", subcommand: subcommand) }
            return .list(common, mutants: all("--mutant"))
        case "record":
            guard let name = positional.first else {
                throw UsageError(message: "record takes a mutant name: mutate record NAME --description TEXT [PATH...]", subcommand: subcommand)
            }
            guard MutantFileParser.isValidName(name) else {
                throw UsageError(message: MutantFileParser.nameRule(name), subcommand: subcommand)
            }
            guard let description = last("--description"), !description.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError(message: "record needs --description TEXT: what a user would see if this bug came back", subcommand: subcommand)
            }
            return .record(RecordOptions(common: common, name: name, description: description, bug: last("--bug"),
                                         paths: Array(positional.dropFirst()), dryRun: has("--dry-run")))
        case "explore":
            var explore = ExploreOptions(run: try runOptions(common: common, threshold: threshold, values: values, has: has, last: last))
            explore.paths = positional
            if has("--list") { explore.list = true }
            explore.inDiff = last("--in-diff")
            if threshold != nil { explore.gates = true }
            if let text = last("--sample") {
                guard let count = Int(text), count >= 1 else {
                    throw UsageError(message: "--sample takes a number of mutants of at least 1, not '\(text)'", subcommand: subcommand)
                }
                explore.sample = count
            }
            explore.ids = values.filter { $0.flag == "--id" }.compactMap(\.value)
            explore.incremental = last("--incremental")
            if let text = last("--verify-reused") {
                guard explore.incremental != nil else {
                    throw UsageError(message: "--verify-reused checks verdicts reused from a results file: it needs --incremental FILE", subcommand: subcommand)
                }
                guard let count = Int(text), count >= 0 else {
                    throw UsageError(message: "--verify-reused takes a number of reused verdicts to re-run, 0 or more, not '\(text)'", subcommand: subcommand)
                }
                explore.verifyReused = count
            }
            explore.prGate = last("--pr-gate")
            if explore.prGate != nil {
                guard explore.incremental != nil else {
                    throw UsageError(message: "--pr-gate compares the score with the base branch's, which a results file records: it needs --incremental FILE", subcommand: subcommand)
                }
                let partial = [("--in-diff", explore.inDiff != nil), ("--sample", explore.sample != nil), ("--id", !explore.ids.isEmpty),
                               ("--shard", explore.run.shard != nil)].filter(\.1).map(\.0)
                guard partial.isEmpty else {
                    throw UsageError(message: "--pr-gate judges the whole package's score, and \(partial.joined(separator: ", ")) runs part of it: give one or the other", subcommand: subcommand)
                }
            }
            if explore.incremental != nil, explore.list {
                throw UsageError(message: "--incremental keeps verdicts, and --list runs none: give one or the other", subcommand: subcommand)
            }
            return .explore(explore)
        case "promote":
            guard positional.count >= 2 else {
                throw UsageError(message: "promote takes a generated mutant's id and a name: mutate promote ID NAME --description TEXT", subcommand: subcommand)
            }
            guard MutantFileParser.isValidName(positional[1]) else { throw UsageError(message: MutantFileParser.nameRule(positional[1]), subcommand: subcommand) }
            guard let description = last("--description"), !description.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError(message: "promote needs --description TEXT: what a user would see if this bug came back", subcommand: subcommand)
            }
            var run = RunOptions(common: common)
            run.scratchPath = last("--scratch")
            if has("--wait") { run.wait = true }
            return .promote(PromoteOptions(run: run, id: positional[0], name: positional[1], description: description,
                                           paths: Array(positional.dropFirst(2))))
        case "merge":
            guard let output = last("--output") else { throw UsageError(message: "merge needs --output DIR for the merged report", subcommand: subcommand) }
            guard !positional.isEmpty else { throw UsageError(message: "merge needs the shard report folders to merge", subcommand: subcommand) }
            return .merge(output: output, inputs: positional, threshold: threshold)
        default:
            if let word = positional.first, subcommands.contains(word) {
                throw UsageError(message: "the sub-command comes first: mutate \(word) [OPTIONS], not '\(word)' after an option", subcommand: nil)
            }
            guard positional.isEmpty else {
                throw UsageError(message: "unexpected argument '\(positional[0])'" + suggestion(for: positional[0], among: subcommands), subcommand: nil)
            }
            if has("--list") {
                if let other = values.first(where: { !["--list", "--mutant", "--package-path", "--mutants"].contains($0.flag) }) {
                    throw UsageError(message: "\(other.flag) does not apply to --list (it only prints the mutants)")
                }
                return .list(common, mutants: all("--mutant"))
            }
            return .run(try runOptions(common: common, threshold: threshold, values: values, has: has, last: last))
        }
    }

    private static func runOptions(common: CommonOptions, threshold: Int?, values: [(flag: String, value: String?)],
                                   has: (String) -> Bool, last: (String) -> String?) throws(UsageError) -> RunOptions
    {
        var run = RunOptions(common: common)
        run.outputPath = last("--output")
        run.scratchPath = last("--scratch")
        run.mutants = values.filter { $0.flag == "--mutant" }.compactMap(\.value)
        if let threshold { run.threshold = threshold }
        if has("--wait") { run.wait = true }
        if has("--all-tests") { run.allTests = true }
        if has("--no-coverage") { run.coverage = false }
        if has("--no-schema") { run.schema = false }
        if let text = last("--jobs") {
            guard let jobs = Int(text), jobs >= 1 else {
                throw UsageError(message: "--jobs takes a number of mutants tested at once of at least 1, not '\(text)'")
            }
            run.jobs = jobs
        }
        if let text = last("--timeout-multiplier") {
            guard let multiplier = Double(text), multiplier > 0, multiplier.isFinite else {
                throw UsageError(message: "--timeout-multiplier takes a positive number, not '\(text)'")
            }
            run.timeoutMultiplier = multiplier
        }
        if let text = last("--timeout") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw UsageError(message: "--timeout takes a positive number of seconds, not '\(text)'")
            }
            run.timeout = seconds
        }
        if let text = last("--shard") {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
                throw UsageError(message: "--shard takes K/N with 1 <= K <= N, such as 2/3, not '\(text)'")
            }
            run.shard = Shard(index: index, count: count)
        }
        return run
    }

    /// ", did you mean 'X'?" when a known word is close enough, else "".
    static func suggestion(for word: String, among candidates: [String]) -> String {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= max(2, word.count / 3) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return "" }
        return "; did you mean '\(best.0)'?"
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i]
            for j in 1...b.count {
                current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
