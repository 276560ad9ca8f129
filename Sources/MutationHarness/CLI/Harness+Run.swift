import Foundation

/// `mutate [run]`: the gate on the named mutants.
extension Harness {
    func run(_ options: RunOptions) -> HarnessExitCode {
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

        let loadedIncremental = loadIncremental(options, configuration: configuration, named: true)
        guard case .success(let incremental) = loadedIncremental else { return loadedIncremental.failureCode }

        print("Running \(mutants.count) mutant(s) from \(mutantsFolder.path)" + (configuration.shard.map { " (shard \($0))" } ?? ""))
        InterruptHandler.install(grace: environment.interruptGrace)
        let report: LabReport
        do {
            let lab = Lab(configuration: configuration, mutants: mutants, runner: toolchain.runner, print: print)
            lab.incremental = incremental
            report = try lab.run()
        } catch {
            return stopped(by: error, reports: configuration.outputPath)
        }
        print(ConsoleFormat.summary(report))
        print(ConsoleFormat.verdict(report))
        print("Reports: \(configuration.outputPath.path)/report.md, report.json, junit.xml, logs/")
        if let code = incrementalVerdict(report) { return code }
        return HarnessExitCode.gate(report)
    }

    /// The lab configuration for a run, explore or promote; nil (reported) for a refused scratch folder.
    func configuration(_ options: RunOptions, output defaultOutput: String? = nil) -> LabConfiguration? {
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
        // `--jobs N` is kept exact; by default more start while a core is idle.
        configuration.spareJobs = options.jobs == nil ? 3 * configuration.jobs : 0
        configuration.shard = options.shard?.description
        configuration.swift = environment.swift
        configuration.isCI = environment.isCI
        configuration.reportURL = environment.reportURL
        configuration.pausePhase = environment.pausePhase
        return configuration
    }
}
