import Foundation

/// A sub-command's arguments after the parser checked each option against
/// its declaration: the options in order, and the rest.
struct ParsedArguments {
    var subcommand: String
    var values: [(flag: String, value: String?)] = []
    var positional: [String] = []

    /// The last value given for `flag` (the one that counts).
    func last(_ flag: String) -> String? { values.last { $0.flag == flag }?.value ?? nil }
    /// Every value given for a repeatable `flag`, in order.
    func all(_ flag: String) -> [String] { values.filter { $0.flag == flag }.compactMap(\.value) }
    func has(_ flag: String) -> Bool { values.contains { $0.flag == flag } }

    /// A usage error that points to this sub-command's help.
    func error(_ message: String) -> UsageError { UsageError(message: message, subcommand: subcommand) }

    var common: CommonOptions {
        CommonOptions(packagePath: last("--package-path") ?? ".", mutantsPath: last("--mutants"))
    }

    /// `--threshold PCT`: a whole percentage.
    func threshold() throws(UsageError) -> Int? {
        guard let text = last("--threshold") else { return nil }
        guard let value = Int(text), (0...100).contains(value) else {
            throw error("--threshold takes a whole percentage from 0 to 100, not '\(text)'")
        }
        return value
    }

    /// A description no one can leave blank (record, promote).
    func description(for what: String) throws(UsageError) -> String {
        guard let description = last("--description"), !description.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw error("\(what) needs --description TEXT: what a user would see if this bug came back")
        }
        return description
    }

    /// A mutant name as the mutant files require it.
    func checkName(_ name: String) throws(UsageError) {
        guard MutantFileParser.isValidName(name) else { throw error(MutantFileParser.nameRule(name)) }
    }

    func noPositional() throws(UsageError) {
        guard positional.isEmpty else { throw error("\(subcommand) takes no arguments, found '\(positional[0])'") }
    }

    /// The options of a run (the gate's, and explore's besides its own).
    func runOptions() throws(UsageError) -> RunOptions {
        var run = RunOptions(common: common)
        run.outputPath = last("--output")
        run.scratchPath = last("--scratch")
        run.mutants = all("--mutant")
        if let threshold = try threshold() { run.threshold = threshold }
        run.wait = has("--wait")
        run.allTests = has("--all-tests")
        run.coverage = !has("--no-coverage")
        run.schema = !has("--no-schema")
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
            guard let shard = Shard(text) else {
                throw UsageError(message: "--shard takes K/N with 1 <= K <= N, such as 2/3, not '\(text)'")
            }
            run.shard = shard
        }
        run.incremental = last("--incremental")
        if let text = last("--verify-reused") {
            guard run.incremental != nil else {
                throw error("--verify-reused checks verdicts reused from a results file: it needs --incremental FILE")
            }
            guard let count = Int(text), count >= 0 else {
                throw error("--verify-reused takes a number of reused verdicts to re-run, 0 or more, not '\(text)'")
            }
            run.verifyReused = count
        }
        return run
    }
}
