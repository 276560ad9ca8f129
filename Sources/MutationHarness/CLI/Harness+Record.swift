import Foundation

/// `mutate record`: an uncommitted bug kept as a named mutant.
extension Harness {
    func record(_ options: RecordOptions) -> HarnessExitCode {
        do {
            let recorder = MutantRecorder(package: paths(options.common).package, mutants: paths(options.common).mutants)
            let plan = try recorder.plan(name: options.name, description: options.description, bug: options.bug, killedBy: options.killedBy,
                                     paths: options.paths)
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
