import Foundation

/// Reading the named mutants (`list`, `check`, and every command that
/// loads them).
extension Harness {
    func resolve(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
    }

    func paths(_ common: CommonOptions) -> (package: URL, mutants: URL) {
        let package = resolve(common.packagePath)
        return (package, common.mutantsPath.map(resolve) ?? package.appendingPathComponent("mutants"))
    }

    /// The mutants, each checked against the one rule `check` and a run
    /// share: a patch may touch only files the scratch copy holds.
    func loadMutants(_ common: CommonOptions, excluding extra: [URL] = []) -> Result<[Mutant], HarnessExitCode> {
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

    func select(_ names: [String], from mutants: [Mutant]) -> Result<[Mutant], HarnessExitCode> {
        do {
            return .success(try MutantCatalog.select(names, from: mutants))
        } catch {
            printError("error: \(error)")
            return .failure(.usage)
        }
    }

    func list(_ common: CommonOptions, names: [String]) -> HarnessExitCode {
        let loaded = loadMutants(common).flatMap { select(names, from: $0) }
        guard case .success(let mutants) = loaded else { return loaded.failureCode }
        for mutant in mutants { print("\(mutant.name): \(mutant.description)") }
        return .passed
    }

    func check(_ common: CommonOptions) -> HarnessExitCode {
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
}
