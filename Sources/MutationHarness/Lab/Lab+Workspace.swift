import Foundation

/// The scratch copy: claimed and locked, the interrupt and pause seams,
/// and the reports rewritten.
extension Lab {
    /// Claims and locks the scratch copy and syncs the package into it;
    /// the lock is held until the returned value goes.
    func prepareCopy() throws -> ScratchLock {
        let setupStart = Date()
        report.startedAt = ISO8601DateFormatter().string(from: setupStart)
        report.commit = Self.firstLine(of: ["git", "-C", configuration.packagePath.path, "rev-parse", "--short", "HEAD"])
        let lock = try claimScratch()
        holdsScratch = true
        do {
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        } catch {
            throw LabError.workspace("cannot create the output folder \(configuration.outputPath.path): \(error.localizedDescription)")
        }
        print("Copying \(configuration.packagePath.path) to \(workspace.root.path)")
        pause(at: "sync")
        do {
            let written = try workspace.sync(excluding: [configuration.outputPath, configuration.mutantsPath, configuration.scratchPath]
                                                + (incremental.map { [$0.file] } ?? []),
                                             isCancelled: { Interruption.requested != nil })
            print("  \(written) file(s) updated in the scratch copy")
        } catch {
            try checkInterruption()
            throw LabError.workspace(error.description)
        }
        // Asked in the copy's TMPDIR, which the sync has just made.
        report.toolchain = runner.toolchainVersion(swift: configuration.swift, environment: environment)
        pause(at: "synced")
        try checkInterruption()
        report.setupSeconds = Date().timeIntervalSince(setupStart)
        let forgotten = workspace.forgetInterruptedBuilds()
        if !forgotten.isEmpty { print("  the last run was cut short mid-mutant: rebuilding \(forgotten.joined(separator: ", ")) from scratch") }
        return lock
    }

    /// Checks the scratch folder may be used, marks it as the harness's, and
    /// locks it for this run.
    func claimScratch() throws -> ScratchLock {
        let root = workspace.root
        do {
            try ScratchRules.check(root: root, package: configuration.packagePath, defaultRoot: LabConfiguration.defaultScratch(for: configuration.packagePath))
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let marker = root.appendingPathComponent(ScratchRules.marker)
            if !FileManager.default.fileExists(atPath: marker.path) {
                try Data("A scratch copy made by `mutate`; the harness may delete anything in this folder.\n".utf8).write(to: marker)
            }
        } catch let error as WorkspaceError {
            throw LabError.workspace(error.description)
        } catch {
            throw LabError.workspace("cannot create the scratch folder \(root.path): \(error.localizedDescription)")
        }
        return try ScratchLock(root: root, wait: configuration.waitForLock) {
            print("Another mutate run is using \(root.path); waiting for it to finish (Ctrl-C to give up)...")
        }
    }

    /// The first line a short command prints, or nil when it fails.
    static func firstLine(of arguments: [String], environment: [String: String]? = nil) -> String? {
        guard let result = try? CapturedCommand.run(arguments, environment: environment), result.status == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// Stops here if the user asked the run to stop.
    func checkInterruption() throws {
        if let signal = Interruption.requested { throw LabError.interrupted(signal: signal) }
    }

    /// A test seam: with `MUTATE_TEST_PAUSE=<phase>` in the environment the
    /// run waits up to 30 s at that phase (`sync`, `synced`, `reports`,
    /// `recorded`, and `building`: before each of rebase's mutant builds)
    /// or until a signal comes, so a test can interrupt it there. The pause
    /// does not look at the signal itself: every caller checks it next, and
    /// that check is the one a test proves. `<phase>-deaf` never looks and
    /// never ends early. Nothing else reads the variable.
    func pause(at phase: String) {
        if configuration.pausePhase == phase + "-deaf" {
            // A main thread that never looks at the flag: only the interrupt handler's own exit ends the run.
            // (A signal may cut one sleep short, on whichever thread it lands: sleep again until the time is up.)
            print("paused at \(phase), deaf to signals")
            let end = Date().addingTimeInterval(120)
            while Date() < end { usleep(100_000) }
        }
        guard configuration.pausePhase == phase else { return }
        print("paused at \(phase)")
        for _ in 0..<600 where Interruption.requested == nil { usleep(50_000) }
    }

    func writeReports() throws {
        try writeReportFiles()
        pause(at: "reports")
        try checkInterruption()
    }

    /// Every report as the run has it now; no pause, no interrupt check
    /// (also the way out of a run that stops).
    func writeReportFiles() throws {
        try ReportWriter.write(report, to: configuration.outputPath, packagePath: configuration.packagePath, isCI: configuration.isCI,
                               reportURL: configuration.reportURL)
        reportsWritten = Date()
    }

    /// After a mutant: the reports rewritten if `reportInterval` has passed
    /// since the last time, the interrupt checked every time. Every report
    /// holds every mutant, so rewriting them after each one cost a whole
    /// run time that grew with the square of its mutants (1.5 s a mutant at
    /// 1,754, the harness's own thread busy while the tests waited); a run
    /// stopped by a signal rewrites them on its way out, and the last write
    /// follows the last mutant.
    func writeReportsIfDue() throws {
        guard Date().timeIntervalSince(reportsWritten) >= reportInterval else {
            pause(at: "recorded")
            try checkInterruption()
            return
        }
        try writeReports()
    }
}
