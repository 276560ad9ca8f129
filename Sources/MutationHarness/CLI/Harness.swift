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
    private let workingDirectory: URL
    private let environment: HarnessEnvironment
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
    private func stopped(by error: any Error, reports: URL?) -> HarnessExitCode {
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

    // MARK: - Sub-commands

    func resolve(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
    }

    private func paths(_ common: CommonOptions) -> (package: URL, mutants: URL) {
        let package = resolve(common.packagePath)
        return (package, common.mutantsPath.map(resolve) ?? package.appendingPathComponent("mutants"))
    }

    /// The mutants, each checked against the one rule `check` and a run
    /// share: a patch may touch only files the scratch copy holds.
    private func loadMutants(_ common: CommonOptions, excluding extra: [URL] = []) -> Result<[Mutant], HarnessExitCode> {
        let (package, folder) = paths(common)
        guard ScratchWorkspace.hasManifest(package) else {
            printError("error: \(WorkspaceError.noManifest(in: package))")
            return .failure(.usage)
        }
        let mutants: [Mutant]
        do {
            mutants = try MutantCatalog.load(from: folder)
        } catch {
            printError("error: \(error)")
            return .failure(.usage)
        }
        let excluded = [folder] + extra
        let refusals = mutants.flatMap { mutant in
            mutant.diff.files.flatMap { [$0.oldPath, $0.newPath].compactMap { $0 } }
                .compactMap { ScratchRules.refusal(for: $0, package: package, excluded: excluded) }
                .map { "\(mutant.filePath): \($0)" }
        }
        guard refusals.isEmpty else {
            // A path refused as both the old and the new file is named once.
            var named: Set<String> = []
            for refusal in refusals where named.insert(refusal).inserted { printError("error: \(refusal)") }
            printError("A mutant may change only files the scratch copy holds: the package's non-hidden files outside .build/ and mutants/, not through a symbolic link.")
            return .failure(.usage)
        }
        return .success(mutants)
    }

    private func select(_ names: [String], from mutants: [Mutant]) -> Result<[Mutant], HarnessExitCode> {
        do {
            return .success(try MutantCatalog.select(names, from: mutants))
        } catch {
            printError("error: \(error)")
            return .failure(.usage)
        }
    }

    private func list(_ common: CommonOptions, names: [String]) -> HarnessExitCode {
        let loaded = loadMutants(common).flatMap { select(names, from: $0) }
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
            switch mutant.diff.changes(reading: { try? String(contentsOf: package.appendingPathComponent($0), encoding: .utf8) }) {
            case .success: print("ok     \(mutant.name)")
            case .failure(let error):
                stale += 1
                print("stale  \(mutant.name): \(error)")
                switch MutantRebaser.rebase(mutant, root: package) {
                case .rebased(_, let moves):
                    print("       `mutate rebase \(mutant.name)` can carry it: " + moves.joined(separator: "; "))
                case .refused(let refusal):
                    print("       rebase cannot carry it: \(refusal)")
                case .applies:
                    break
                }
            }
        }
        print("\(mutants.count - stale) of \(mutants.count) mutants apply to the current source")
        return stale == 0 ? .passed : .brokenMutant
    }

    private func rebase(_ common: CommonOptions, names: [String], dryRun: Bool) -> HarnessExitCode {
        let loaded = loadMutants(common).flatMap { select(names, from: $0) }
        guard case .success(let mutants) = loaded else { return loaded.failureCode }
        let package = paths(common).package
        let commit = headCommit(package)
        let stamp = ISO8601DateFormatter.string(from: now(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
            + (commit.map { " onto \($0)" } ?? "")
        var counts = (applied: 0, rebased: 0, stale: 0)
        // Carried onto today's source, not yet written: each must build first.
        var carried: [(mutant: Mutant, file: URL, old: String, new: String, moves: [String])] = []
        for mutant in mutants {
            switch MutantRebaser.rebase(mutant, root: package) {
            case .applies:
                counts.applied += 1
                print("ok       \(mutant.name): applies as it is")
            case .refused(let refusal):
                counts.stale += 1
                print("stale    \(mutant.name): \(refusal)")
            case let .rebased(diff, moves):
                let file = URL(fileURLWithPath: mutant.filePath)
                guard let old = try? String(contentsOf: file, encoding: .utf8) else {
                    return fail(.usage, "cannot read \(file.path)")
                }
                let new = MutantRebaser.rewrite(old, with: diff, stamp: stamp)
                // What is written must read back as the same mutant.
                guard let reread = try? MutantFileParser.parse(new, file: file.path), reread.name == mutant.name, reread.diff == diff else {
                    counts.stale += 1
                    print("stale    \(mutant.name): the rebased file does not read back as the same mutant (a defect of rebase: please report it)")
                    continue
                }
                carried.append((reread, file, old, new, moves))
            }
        }
        let refusals: [String: String]
        switch buildEach(carried.map(\.mutant), package: package, mutantsFolder: paths(common).mutants) {
        case .success(let found): refusals = found
        case .failure(let code): return code
        }
        for (mutant, file, old, new, moves) in carried {
            if let refusal = refusals[mutant.name] {
                counts.stale += 1
                print("stale    \(mutant.name): carried (" + moves.joined(separator: "; ") + ") but it does not build there: \(refusal); its file is unchanged")
                continue
            }
            counts.rebased += 1
            print("rebased  \(mutant.name): " + moves.joined(separator: "; "))
            if dryRun {
                for line in LineDiff.unified(old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                                             new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) {
                    print("  " + line)
                }
                continue
            }
            do {
                try Data(new.utf8).write(to: file, options: .atomic)
            } catch {
                return fail(.usage, "cannot write \(file.path): \(error.localizedDescription) (it is unchanged)")
            }
        }
        let verb = dryRun ? "would be rebased" : "rebased"
        print("\(counts.rebased) \(verb), \(counts.stale) left stale, \(counts.applied) already apply"
            + (counts.rebased > 0 && !dryRun ? "; run the gate on them (`swift run mutate --mutant NAME`) to see each one killed" : ""))
        return counts.stale == 0 ? .passed : .brokenMutant
    }

    /// Builds the package, then each of `mutants` applied on its own, in
    /// the default scratch copy (its progress on standard error): why each
    /// one that does not build fails, by name. Nothing to build, nothing run.
    private func buildEach(_ mutants: [Mutant], package: URL, mutantsFolder: URL) -> Result<[String: String], HarnessExitCode> {
        guard !mutants.isEmpty else { return .success([:]) }
        var configuration = LabConfiguration(packagePath: package, mutantsPath: mutantsFolder,
                                             outputPath: package.appendingPathComponent(".build/mutation-report/rebase"))
        configuration.buildOnly = true
        configuration.swift = environment.swift
        configuration.pausePhase = environment.pausePhase
        printError("Building each carried mutant on today's source (\(mutants.count)), in the scratch copy:")
        InterruptHandler.install(grace: environment.interruptGrace)
        do {
            return .success(try Lab(configuration: configuration, mutants: mutants, runner: toolchain.runner, print: printError).buildEach())
        } catch {
            return .failure(stopped(by: error, reports: nil))
        }
    }

    private func run(_ options: RunOptions) -> HarnessExitCode {
        // A run of some mutants keeps its own report, not the full run's.
        guard let configuration = configuration(options, output: options.mutants.isEmpty ? nil : ".build/mutation-report/selected") else {
            return .usage
        }
        let package = configuration.packagePath
        let mutantsFolder = configuration.mutantsPath
        let insidePackage = [configuration.outputPath, configuration.scratchPath].filter {
            ScratchRules.isInside($0.path, package.path)
        }
        let loaded = loadMutants(options.common, excluding: insidePackage)
            .flatMap { select(options.mutants, from: $0) }
        guard case .success(var mutants) = loaded else { return loaded.failureCode }
        if let shard = options.shard { mutants = shard.slice(mutants) }

        print("Running \(mutants.count) mutant(s) from \(mutantsFolder.path)" + (configuration.shard.map { " (shard \($0))" } ?? ""))
        InterruptHandler.install(grace: environment.interruptGrace)
        let report: LabReport
        do {
            report = try Lab(configuration: configuration, mutants: mutants, runner: toolchain.runner, print: print).run()
        } catch {
            return stopped(by: error, reports: configuration.outputPath)
        }
        print(ConsoleFormat.summary(report))
        print(ConsoleFormat.verdict(report))
        print("Reports: \(configuration.outputPath.path)/report.md, report.json, junit.xml, logs/")
        return HarnessExitCode.gate(report)
    }

    /// The lab configuration for a run, explore or promote; nil (reported) for a refused scratch folder.
    private func configuration(_ options: RunOptions, output defaultOutput: String? = nil) -> LabConfiguration? {
        let (package, mutantsFolder) = paths(options.common)
        var configuration = LabConfiguration(packagePath: package, mutantsPath: mutantsFolder,
                                             outputPath: (options.outputPath ?? defaultOutput.map { package.appendingPathComponent($0).path }).map(resolve),
                                             scratchPath: options.scratchPath.map(resolve))
        guard ScratchWorkspace.hasManifest(package) else {
            printError("error: \(WorkspaceError.noManifest(in: package))")
            return nil
        }
        do {
            try ScratchRules.check(root: configuration.scratchPath, package: package, defaultRoot: LabConfiguration.defaultScratch(for: package))
        } catch {
            printError("error: \(error)")
            return nil
        }
        configuration.threshold = options.threshold
        configuration.timeoutMultiplier = options.timeoutMultiplier
        configuration.fixedTimeout = options.timeout
        configuration.waitForLock = options.wait
        configuration.stopAtFirstFailure = !options.allTests
        configuration.coverage = options.coverage
        configuration.schema = options.schema
        configuration.jobs = options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        configuration.shard = options.shard?.description
        configuration.swift = environment.swift
        configuration.isCI = environment.isCI
        configuration.reportURL = environment.reportURL
        configuration.pausePhase = environment.pausePhase
        return configuration
    }

    /// Runs a lab whose mutants are generated; maps its errors to exit codes.
    private func runGenerated(_ configuration: LabConfiguration, explorer: Explorer, ignore: ExploreIgnore,
                              found: Locked<Explorer.Found?>, useSchema: Bool,
                              selection: ExploreSelection = ExploreSelection(),
                              incremental: IncrementalRun? = nil) -> Result<LabReport, HarnessExitCode>
    {
        InterruptHandler.install(grace: environment.interruptGrace)
        // With --list (build only) standard output carries just the list.
        let print = configuration.buildOnly ? printError : print
        let findPoints = toolchain.findPoints
        let lab = Lab(configuration: configuration, mutants: [], runner: toolchain.runner, print: print) { workspace in
            var result: Explorer.Found
            if let cached = incremental?.cachedExploration(paths: explorer.paths) {
                print("The mutants of \(explorer.paths.joined(separator: ", ")) are the results file's (the package is unchanged)")
                result = Explorer.Found(points: cached.points.filter { explorer.changed?.contains($0.file, line: $0.line) ?? true },
                                        compilerVersion: cached.compilerVersion, warnings: cached.warnings, targets: cached.targets)
                incremental?.explored = cached
            } else {
                print("Reading the compiler's syntax tree of \(explorer.paths.joined(separator: ", "))...")
                result = try findPoints(explorer, workspace, print)
                if explorer.changed == nil {
                    incremental?.explored = ResultsFile.Explored(paths: explorer.paths, points: result.points, compilerVersion: result.compilerVersion,
                                                                 warnings: result.warnings, targets: result.targets)
                }
            }
            let generated = result.points.count
            for entry in ignore.unmatched(result.points, by: explorer) {
                printError("warning: mutants/\(ExploreIgnore.fileName):\(entry.line) names no generated mutant (\(entry.key)): "
                    + "the line it judged was edited or removed; find the mutant again with `mutate explore --list`, or drop the entry")
            }
            let unknown = selection.ids.subtracting(result.points.map(\.id))
            for id in unknown.sorted() {
                printError("warning: no generated mutant has the id \(id) in \(explorer.paths.joined(separator: ", ")); "
                    + "an id changes when its line is edited: `mutate explore --list` shows today's")
            }
            result.points = selection.apply(result.points)
            if result.points.count < generated { print("  \(result.points.count) of \(generated) generated mutants selected") }
            found.set(result)
            for warning in result.warnings { printError("warning: \(warning)") }
            return ignore.split(result.points) { FileManager.default.contents(atPath: workspace.root.appendingPathComponent($0).path) }
        }
        incremental?.explorePaths = explorer.paths
        lab.incremental = incremental
        // The tests that can reach a mutant's code run first; the whole
        // suite only if they do not kill it.
        let placed = { (mutant: Mutant) -> (file: String, targets: [PackageTargets.Target])? in
            guard let targets = found.value?.targets, let file = mutant.diff.files.first?.path else { return nil }
            return (file, targets)
        }
        lab.testTargets = { placed($0).flatMap { PackageTargets.testTargets(reaching: $0.file, in: $0.targets) } }
        lab.mutatedModule = { placed($0).flatMap { PackageTargets.owner(of: $0.file, in: $0.targets)?.path } }
        // (A build-only lab runs no mutant, so it never builds the schema.)
        if useSchema {
            // One build for every generated mutant; what does not type-check there runs as a patch.
            let root = configuration.scratchPath
            lab.schemaBuilder = { excluded in
                let points = ignore.schemaPoints(found.value?.points ?? [], excluding: excluded)
                var sources: [String: [UInt8]] = [:]
                for file in Set(points.map(\.file)) {
                    sources[file] = FileManager.default.contents(atPath: root.appendingPathComponent(file).path).map { [UInt8]($0) }
                }
                return Schema.build(points: points, sources: sources, module: { $0.split(separator: "/").prefix(2).joined(separator: "/") })
            }
        }
        do {
            return .success(try lab.run())
        } catch {
            return .failure(stopped(by: error, reports: configuration.outputPath))
        }
    }

    private func explore(_ options: ExploreOptions) -> HarnessExitCode {
        guard var configuration = configuration(options.run, output: ".build/mutation-report/explore") else { return .usage }
        configuration.buildOnly = options.list
        let ignore: ExploreIgnore
        do {
            ignore = try ExploreIgnore.load(from: configuration.mutantsPath)
        } catch {
            return fail(.usage, "\(error)")
        }
        var explorer = Explorer(paths: options.paths.isEmpty ? ["Sources"] : options.paths)
        for path in explorer.paths where !FileManager.default.fileExists(atPath: configuration.packagePath.appendingPathComponent(path).path) {
            return fail(.usage, "\(path) does not exist in \(configuration.packagePath.path)")
        }
        if let ref = options.inDiff {
            do {
                explorer.changed = try ChangedLines.since(ref, in: configuration.packagePath)
            } catch {
                return fail(.usage, "\(error)")
            }
        }
        let incremental: IncrementalRun?
        let pullRequest: PullRequestChange?
        switch prepareIncremental(options, configuration: configuration) {
        case .failure(let code): return code
        case .success(let prepared): (incremental, pullRequest) = prepared
        }
        let found = Locked<Explorer.Found?>(nil)
        let selection = ExploreSelection(sample: options.sample, shard: options.run.shard, ids: Set(options.ids))
        let outcome = runGenerated(configuration, explorer: explorer, ignore: ignore, found: found, useSchema: options.run.schema,
                                   selection: selection, incremental: incremental)
        guard case .success(var report) = outcome else { return outcome.failureCode }
        if let pullRequest { report = judge(pullRequest, report, incremental: incremental, paths: explorer.paths, configuration: configuration) }
        let points = found.value?.points ?? []
        if options.list {
            for point in points {
                let ignored = ignore.reason(for: point).map { "  (ignored: \($0))" } ?? ""
                print("\(point.id)  \(point.summary)\(ignored)")
            }
            print("\(points.count) mutant(s) generated by \(found.value?.compilerVersion ?? "the compiler")")
            return .passed
        }
        print(ConsoleFormat.summary(report))
        print("Compiler: \(found.value?.compilerVersion ?? "unknown")")
        for survivor in report.mutants where survivor.status == .survived {
            print("survived  \(survivor.name)  \(survivor.description)")
        }
        print("Reports: \(configuration.outputPath.path)/report.md, report.json, junit.xml, summary.md, logs/")
        print("Kill a survivor with a test, then keep it: `swift run mutate promote ID NAME --description TEXT`; "
            + "or list it in mutants/\(ExploreIgnore.fileName) with a reason.")
        if let code = incrementalVerdict(report) { return code }
        guard options.gates else { return .passed }
        print(ConsoleFormat.verdict(report))
        return HarnessExitCode.gate(report)
    }

    private func promote(_ options: PromoteOptions) -> HarnessExitCode {
        guard var configuration = configuration(options.run, output: ".build/mutation-report/explore") else { return .usage }
        configuration.buildOnly = true
        let target = configuration.mutantsPath.appendingPathComponent("\(options.name).patch")
        // Refused before the build, not after it.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: configuration.mutantsPath.path, isDirectory: &isFolder), !isFolder.boolValue {
            return fail(.usage, "cannot write \(target.path): \(configuration.mutantsPath.path) is a file, not a folder")
        }
        if FileManager.default.fileExists(atPath: target.path) || ((try? MutantCatalog.load(from: configuration.mutantsPath))?.contains { $0.name == options.name } ?? false) {
            return fail(.usage, "a mutant named '\(options.name)' exists already in \(configuration.mutantsPath.path)")
        }
        let explorer = Explorer(paths: options.paths.isEmpty ? ["Sources"] : options.paths)
        let found = Locked<Explorer.Found?>(nil)
        let outcome = runGenerated(configuration, explorer: explorer, ignore: ExploreIgnore(), found: found, useSchema: false)
        guard case .success = outcome else { return outcome.failureCode }
        let scratch = ScratchWorkspace(package: configuration.packagePath, root: configuration.scratchPath)
        guard let point = found.value?.points.first(where: { $0.id == options.id }),
              let source = scratch.read(point.file)
        else {
            return fail(.usage, "no generated mutant with id '\(options.id)' in \(explorer.paths.joined(separator: ", ")): run `swift run mutate explore --list`")
        }
        let text = "Mutant: \(options.name)\nDescription: \(options.description)\nPromoted-From: explore \(point.id) (\(point.summary))\n\n"
            + GeneratedMutant.diff(for: point, source: Array(source.utf8))
        do {
            _ = try MutantFileParser.parse(text, file: target.path)
            try FileManager.default.createDirectory(at: configuration.mutantsPath, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target, options: .withoutOverwriting)
        } catch {
            return fail(.usage, "cannot write \(target.path): \(error)")
        }
        print("Promoted \(point.id) (\(point.summary)) to \(target.path); `swift run mutate --mutant \(options.name)` runs it in the gate.")
        return .passed
    }

    private func merge(output: String, inputs: [String], threshold: Int?) -> HarnessExitCode {
        var reports: [LabReport] = []
        for input in inputs {
            do {
                reports.append(try ReportWriter.read(from: resolve(input)))
            } catch {
                return fail(.usage, "cannot read \(resolve(input).path)/\(ReportWriter.resultsFile): \(error.localizedDescription)")
            }
        }
        if let problem = Shard.problem(merging: zip(inputs, reports).map { ($0, $1.shard) }) {
            return fail(.usage, "\(problem)")
        }
        var merged = reports[0]
        merged.shard = nil
        merged.threshold = threshold ?? reports.map(\.threshold).max() ?? 100
        merged.mutants = reports.flatMap(\.mutants).sorted { $0.name < $1.name }
        merged.tests = Array(Set(reports.flatMap(\.tests))).sorted()
        merged.testLocations = reports.reduce(into: [String: TestLocation]()) { all, report in
            all.merge(report.testLocations ?? [:]) { current, _ in current }
        }
        merged.setupSeconds = reports.map(\.setupSeconds).reduce(0, +)
        merged.coverageSeconds = reports.compactMap(\.coverageSeconds).reduce(nil) { ($0 ?? 0) + $1 }
        merged.baselineBuildSeconds = reports.map(\.baselineBuildSeconds).reduce(0, max)
        merged.baselineTestSeconds = reports.map(\.baselineTestSeconds).reduce(0, max)
        let names = merged.mutants.map(\.name)
        if Set(names).count != names.count {
            return fail(.usage, "the shard reports overlap: a mutant appears in more than one")
        }
        do {
            try ReportWriter.write(merged, to: resolve(output), packagePath: URL(fileURLWithPath: merged.packagePath),
                                   isCI: environment.isCI)
            // Each shard's logs come along, so the merged report's links work.
            let logs = resolve(output).appendingPathComponent("logs")
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            for input in inputs {
                let shardLogs = resolve(input).appendingPathComponent("logs")
                for file in (try? FileManager.default.contentsOfDirectory(atPath: shardLogs.path)) ?? [] {
                    let target = logs.appendingPathComponent(file)
                    try? FileManager.default.removeItem(at: target)
                    try FileManager.default.copyItem(at: shardLogs.appendingPathComponent(file), to: target)
                }
            }
        } catch {
            return fail(.usage, "cannot write \(resolve(output).path): \(error.localizedDescription)")
        }
        print(ConsoleFormat.summary(merged))
        print(ConsoleFormat.verdict(merged))
        return HarnessExitCode.gate(merged)
    }

    private func record(_ options: RecordOptions) -> HarnessExitCode {
        do {
            let recorder = MutantRecorder(package: paths(options.common).package, mutants: paths(options.common).mutants)
            let plan = try recorder.plan(name: options.name, description: options.description, bug: options.bug, paths: options.paths)
            if options.dryRun {
                print(plan.text)
                print("(dry run: nothing written, nothing restored)")
                return .passed
            }
            print("Recording \(plan.files.count) file(s) into \(plan.target.path), then restoring them to HEAD:")
            for file in plan.files { print("  \(file.isNew ? "new     " : "modified") \(file.path)") }
            try recorder.write(plan)
            print("Recorded \(plan.target.path); those files are back to HEAD. Run `swift run mutate --mutant \(options.name)` to see it killed.")
            return .passed
        } catch {
            return fail(.usage, "\(error)")
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
