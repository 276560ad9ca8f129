import Foundation

/// `rebase`'s check that a carried patch still builds: the copy built as
/// the package, then with each mutant applied on its own; no test runs.
extension Lab {
    /// Builds the copy, then each of the lab's mutants on its own (restoring
    /// the copy after each). Returns why each mutant that does not build
    /// fails (its first compiler error, or its time limit), by name; a
    /// mutant that builds is not in it. The package itself must build
    /// (`LabError.baselineBuildFailed` otherwise). An interrupt throws
    /// `LabError.interrupted` with the copy restored. The configuration
    /// must be `buildOnly` (the baseline is only built).
    public func buildEach() throws -> [String: String] {
        precondition(configuration.buildOnly, "buildEach runs no test: its lab is configured to build only")
        let lock = try prepareCopy()
        defer { withExtendedLifetime(lock) {} }
        try runBaseline()
        var refusals: [String: String] = [:]
        for (index, mutant) in mutants.enumerated() {
            pause(at: "building")
            try checkInterruption()
            print("[\(index + 1)/\(mutants.count)] \(mutant.name): building...")
            let log = logs.appendingPathComponent("\(mutant.name).log")
            try? FileManager.default.removeItem(at: log)
            let pending = MutantResult(pending: mutant)
            let result: MutantResult
            switch mutant.diff.changes(reading: readOriginal) {
            case .success(let changes):
                result = try applying(changes) { try built(pending, log: log) }
            case .failure(let error):
                refusals[mutant.name] = "it does not apply: \(error.description)"
                continue
            }
            if result.status == .unviable { refusals[mutant.name] = result.reason ?? "the build failed" }
            let verdict = refusals[mutant.name] == nil ? "builds        " : "does not build"
            print("[\(index + 1)/\(mutants.count)] \(verdict) \(mutant.name) " + String(format: "(%.1fs)", result.buildSeconds))
        }
        return refusals
    }
}
