import Foundation

/// `mutate rebase`: stale mutants carried onto today's source, each built
/// before its file is rewritten.
extension Harness {
    func rebase(_ common: CommonOptions, names: [String], dryRun: Bool) -> HarnessExitCode {
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
    func buildEach(_ mutants: [Mutant], package: URL, mutantsFolder: URL) -> Result<[String: String], HarnessExitCode> {
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
}
