import Foundation

/// `mutate explore`: generated mutants run in the lab.
extension Harness {
    /// Runs a lab whose mutants are generated; maps its errors to exit codes.
    func runGenerated(_ configuration: LabConfiguration, explorer: Explorer, ignore: ExploreIgnore,
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

    func explore(_ options: ExploreOptions) -> HarnessExitCode {
        guard var configuration = configuration(options.run, output: ".build/mutation-report/explore") else { return .usage }
        configuration.buildOnly = options.list
        configuration.narrowing = options.narrowing
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
                let ignored = ignore.reason(for: point)
                if options.json {
                    print(ListedMutant(point, ignored: ignored).json)
                } else {
                    print("\(point.id)  \(point.summary)" + (ignored.map { "  (ignored: \($0))" } ?? ""))
                }
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
}
