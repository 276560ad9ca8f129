import Foundation

/// The `mutate` command: parses arguments, runs a sub-command, returns the
/// exit code. Output goes through `print`, so tests can read it.
public struct Harness {
    private let print: (String) -> Void
    private let workingDirectory: URL

    public init(workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                print: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) })
    {
        // A directory URL, so relative paths resolve inside it, not beside it.
        self.workingDirectory = URL(fileURLWithPath: workingDirectory.path, isDirectory: true)
        self.print = print
    }

    public func main(_ arguments: [String]) -> HarnessExitCode {
        let command: HarnessCommand
        do {
            command = try OptionParser.parse(arguments)
        } catch {
            print("error: \(error)")
            return .usage
        }
        switch command {
        case .help:
            print(OptionParser.help)
            return .passed
        case .list(let common):
            return list(common)
        case .check(let common):
            return check(common)
        case .record(let options):
            return record(options)
        case .run(let options):
            return run(options)
        case let .merge(output, inputs, threshold):
            return merge(output: output, inputs: inputs, threshold: threshold)
        }
    }

    // MARK: - Sub-commands

    private func resolve(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
    }

    private func paths(_ common: CommonOptions) -> (package: URL, mutants: URL) {
        let package = resolve(common.packagePath)
        return (package, common.mutantsPath.map(resolve) ?? package.appendingPathComponent("mutants"))
    }

    private func loadMutants(_ common: CommonOptions) -> Result<[Mutant], HarnessExitCode> {
        let (package, folder) = paths(common)
        guard FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path) else {
            print("error: no Package.swift in \(package.path): pass the package folder with --package-path")
            return .failure(.usage)
        }
        do {
            return .success(try MutantCatalog.load(from: folder))
        } catch {
            print("error: \(error)")
            return .failure(.usage)
        }
    }

    private func list(_ common: CommonOptions) -> HarnessExitCode {
        let loaded = loadMutants(common)
        guard case .success(let mutants) = loaded else { return loaded.failureCode }
        for mutant in mutants { print("\(mutant.name): \(mutant.description)") }
        return .passed
    }

    private func check(_ common: CommonOptions) -> HarnessExitCode {
        let loaded = loadMutants(common)
        guard case .success(let mutants) = loaded else { return loaded.failureCode }
        let package = paths(common).package
        var stale = 0
        for mutant in mutants {
            switch Lab.apply(mutant.diff, reading: { try? String(contentsOf: package.appendingPathComponent($0), encoding: .utf8) }) {
            case .success: print("ok     \(mutant.name)")
            case .failure(let error):
                stale += 1
                print("stale  \(mutant.name): \(error)")
            }
        }
        print("\(mutants.count - stale) of \(mutants.count) mutants apply to the current source")
        return stale == 0 ? .passed : .brokenMutant
    }

    private func run(_ options: RunOptions) -> HarnessExitCode {
        let loaded = loadMutants(options.common)
        guard case .success(let all) = loaded else { return loaded.failureCode }
        var mutants: [Mutant]
        do {
            mutants = try MutantCatalog.select(options.mutants, from: all)
        } catch {
            print("error: \(error)")
            return .usage
        }
        if let shard = options.shard { mutants = MutantCatalog.shard(mutants, index: shard.index, count: shard.count) }
        let (package, mutantsFolder) = paths(options.common)
        var configuration = LabConfiguration(packagePath: package, mutantsPath: mutantsFolder, outputPath: options.outputPath.map(resolve),
                                             scratchPath: options.scratchPath.map(resolve))
        configuration.threshold = options.threshold
        configuration.timeoutMultiplier = options.timeoutMultiplier
        configuration.fixedTimeout = options.timeout
        configuration.shard = options.shard.map { "\($0.index)/\($0.count)" }
        if let swift = ProcessInfo.processInfo.environment["MUTATE_SWIFT"] { configuration.swift = swift }

        print("Running \(mutants.count) mutant(s) from \(mutantsFolder.path)" + (configuration.shard.map { " (shard \($0))" } ?? ""))
        InterruptHandler.install(output: configuration.outputPath, print: print)
        let report: LabReport
        do {
            report = try Lab(configuration: configuration, mutants: mutants, print: print).run()
        } catch let error as LabError {
            print("error: \(error)")
            if case .workspace = error { return .usage }
            return .baselineFailed
        } catch {
            print("error: \(error)")
            return .baselineFailed
        }
        print(ConsoleFormat.summary(report))
        print("Reports: \(configuration.outputPath.path)/report.md, report.json, junit.xml, logs/")
        return HarnessExitCode.gate(report)
    }

    private func merge(output: String, inputs: [String], threshold: Int?) -> HarnessExitCode {
        var reports: [LabReport] = []
        for input in inputs {
            do {
                reports.append(try ReportWriter.read(from: resolve(input)))
            } catch {
                print("error: cannot read \(resolve(input).path)/\(ReportWriter.resultsFile): \(error.localizedDescription)")
                return .usage
            }
        }
        var merged = reports[0]
        merged.shard = nil
        merged.threshold = threshold ?? reports.map(\.threshold).max() ?? 100
        merged.mutants = reports.flatMap(\.mutants).sorted { $0.name < $1.name }
        merged.tests = Array(Set(reports.flatMap(\.tests))).sorted()
        merged.setupSeconds = reports.map(\.setupSeconds).reduce(0, +)
        merged.baselineBuildSeconds = reports.map(\.baselineBuildSeconds).max() ?? 0
        merged.baselineTestSeconds = reports.map(\.baselineTestSeconds).max() ?? 0
        let names = merged.mutants.map(\.name)
        if Set(names).count != names.count {
            print("error: the shard reports overlap: a mutant appears in more than one")
            return .usage
        }
        do {
            try ReportWriter.write(merged, to: resolve(output), packagePath: URL(fileURLWithPath: merged.packagePath),
                                   isCI: ProcessInfo.processInfo.environment["CI"] != nil)
        } catch {
            print("error: cannot write \(resolve(output).path): \(error.localizedDescription)")
            return .usage
        }
        print(ConsoleFormat.summary(merged))
        return HarnessExitCode.gate(merged)
    }

    private func record(_ options: RecordOptions) -> HarnessExitCode {
        do {
            let path = try MutantRecorder(package: paths(options.common).package, mutants: paths(options.common).mutants)
                .record(name: options.name, description: options.description, bug: options.bug)
            print("Recorded \(path.path); Sources/ is back to HEAD. Run `swift run mutate --mutant \(options.name)` to see it killed.")
            return .passed
        } catch {
            print("error: \(error)")
            return .usage
        }
    }
}

extension Result where Failure == HarnessExitCode {
    fileprivate var failureCode: HarnessExitCode {
        if case .failure(let code) = self { return code }
        return .passed
    }
}

extension HarnessExitCode: Error {}
