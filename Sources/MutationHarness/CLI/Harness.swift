import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `mutate` command: parses arguments, runs a sub-command, returns the
/// exit code. Results go through `print` (standard output), errors and
/// warnings through `printError` (standard error), so tests can read both.
public struct Harness {
    let print: (String) -> Void
    let printError: (String) -> Void
    let workingDirectory: URL
    let environment: HarnessEnvironment
    /// Builds, tests and reads the syntax tree; tests replace it so the
    /// sub-commands run without spawning a toolchain.
    var toolchain = HarnessToolchain()
    /// Draws the verdicts `--verify-reused` re-runs; tests give a seeded one.
    var makeRandom: () -> any RandomNumberGenerator = { SystemRandomNumberGenerator() }
    /// Today's date and the package's commit for `Rebased:` headers; tests fix them.
    var now: () -> Date = Date.init
    var headCommit: (URL) -> String? = { package in
        guard let result = try? CapturedCommand.run(["git", "-C", package.path, "rev-parse", "--short", "HEAD"]), result.status == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self).trimmed.split(separator: "\n").first.map(String.init)
    }

    public init(workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                print: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
                printError: ((String) -> Void)? = nil)
    {
        environment = HarnessEnvironment(ProcessInfo.processInfo.environment)
        // A directory URL, so relative paths resolve inside it, not beside it.
        self.workingDirectory = URL(fileURLWithPath: workingDirectory.path, isDirectory: true)
        self.print = print
        self.printError = printError ?? print
    }

    /// Prints `error: message` on standard error and returns `code`: every
    /// refusal ends through here, so none can lose its message.
    func fail(_ code: HarnessExitCode, _ message: String) -> HarnessExitCode {
        printError("error: \(message)")
        return code
    }

    /// Says why a lab stopped before its verdict and returns its exit code
    /// (`HarnessExitCode.stopped(by:)`): one message and one code for the
    /// gate and `explore` alike.
    func stopped(by error: any Error, reports: URL?) -> HarnessExitCode {
        if case .interrupted(let signal)? = error as? LabError {
            if let reports {
                printError("interrupted by signal \(signal): no verdict for the mutant that was running; "
                    + "\(reports.path)/report.md lists the mutants that finished (the rest are pending)")
            } else {
                printError("interrupted by signal \(signal): nothing was written")
            }
        } else {
            printError("error: \(error)")
        }
        return HarnessExitCode.stopped(by: error)
    }

    /// The command as the `mutate` executable runs it: errors on standard
    /// error, SIGINT and SIGTERM handled, every process it starts killed
    /// before it exits. Never returns.
    public static func runAsCommand(_ arguments: [String]) -> Never {
        // A parent (Foundation's `Process`, for one) may have blocked SIGTERM.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        ProcessTree.adoptOrphans()
        let harness = Harness(printError: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        let code = harness.main(arguments)
        ProcessTree.sweep()
        Interruption.finish { interrupted in
            exit(interrupted ? HarnessExitCode.interrupted.rawValue : code.rawValue)
        }
    }

    public func main(_ arguments: [String]) -> HarnessExitCode {
        let command: HarnessCommand
        do {
            command = try OptionParser.parse(arguments)
        } catch {
            return fail(.usage, "\(error)")
        }
        switch command {
        case .help(let subcommand):
            print(HelpText.text(for: subcommand))
            return .passed
        case .version:
            print("mutate \(HelpText.version)")
            return .passed
        case let .list(common, names):
            return list(common, names: names)
        case .check(let common):
            return check(common)
        case let .rebase(common, names, dryRun):
            return rebase(common, names: names, dryRun: dryRun)
        case .record(let options):
            return record(options)
        case .run(let options):
            return run(options)
        case let .merge(output, inputs, threshold):
            return merge(output: output, inputs: inputs, threshold: threshold)
        case .explore(let options):
            return explore(options)
        case .promote(let options):
            return promote(options)
        }
    }
}

extension Result where Failure == HarnessExitCode {
    var failureCode: HarnessExitCode {
        if case .failure(let code) = self { return code }
        return .passed
    }
}

extension HarnessExitCode: Error {}
