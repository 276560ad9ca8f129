import Foundation

/// Why `mutate record` refused.
struct RecordError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// What `mutate record` will write and restore.
struct RecordPlan {
    /// `mutants/NAME.patch`.
    var target: URL
    /// The whole mutant file: headers, then the diff.
    var text: String
    /// The files it records (package-relative) and whether each is new.
    var files: [(path: String, isNew: Bool)]
}

/// `mutate record NAME [PATH...]`: the uncommitted change under `Sources/`
/// (or just the given files) becomes `mutants/NAME.patch`, and those files go
/// back to HEAD (new files are removed: the patch holds them).
struct MutantRecorder {
    let package: URL
    let mutants: URL

    init(package: URL, mutants: URL) {
        self.package = package
        self.mutants = mutants
    }

    /// Reads the change and builds the mutant file; writes nothing.
    func plan(name: String, description: String, bug: String?, killedBy: [String] = [], paths: [String]) throws(RecordError) -> RecordPlan {
        let target = mutants.appendingPathComponent("\(name).patch")
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw RecordError(message: "\(target.path) exists already: choose another name or delete it first")
        }
        if let existing = try? MutantCatalog.load(from: mutants), existing.contains(where: { $0.name == name }) {
            throw RecordError(message: "a mutant named '\(name)' exists already in \(mutants.path)")
        }
        guard (try? git(["rev-parse", "--is-inside-work-tree"]))?.trimmingCharacters(in: .whitespacesAndNewlines) == "true" else {
            throw RecordError(message: "\(package.path) is not inside a git work tree: record reads the change with git")
        }
        // Porcelain paths are relative to the repository root; the package may sit below it.
        let prefix = try git(["rev-parse", "--show-prefix"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let status = try git(["status", "--porcelain", "--untracked-files=all", "--", "."])
        let changed = status.split(separator: "\n").map { line -> (code: String, path: String) in
            (String(line.prefix(2)), String(line.dropFirst(3).dropFirst(prefix.count)))
        }
        var selected: [(code: String, path: String)]
        if paths.isEmpty {
            let tests = changed.filter { $0.path.hasPrefix("Tests/") }.map(\.path)
            guard tests.isEmpty else {
                throw RecordError(message: "the change touches tests (\(tests.joined(separator: ", "))): a mutant changes Sources/ only; commit or stash the test change first, or name the files to record")
            }
            selected = changed.filter { $0.path.hasPrefix("Sources/") }
        } else {
            selected = []
            for path in paths {
                let relative = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: package.path, isDirectory: true))
                    .standardizedFileURL.path.dropFirst(package.standardizedFileURL.path.count + 1)
                guard relative.hasPrefix("Sources/") else {
                    throw RecordError(message: "\(path) is not under Sources/: a mutant changes the package's sources only")
                }
                guard let entry = changed.first(where: { $0.path == relative }) else {
                    throw RecordError(message: "\(path) has no uncommitted change: make the bug's change in it first")
                }
                selected.append(entry)
            }
        }
        guard !selected.isEmpty else {
            throw RecordError(message: "there is no uncommitted change under Sources/: make the bug's change there first, then record it")
        }
        let tracked = selected.filter { $0.code != "??" }.map(\.path)
        let untracked = selected.filter { $0.code == "??" }.map(\.path)
        var diff = tracked.isEmpty ? "" : try git(["diff", "--no-color", "--no-ext-diff", "--relative", "HEAD", "--"] + tracked)
        for file in untracked {
            // `--no-index` exits 1 when the files differ, which they do.
            diff += try git(["diff", "--no-color", "--no-ext-diff", "--no-index", "--", "/dev/null", file], allowing: [1])
        }
        guard !diff.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RecordError(message: "the selected files differ from HEAD only in ways git does not show as a diff (mode or line endings?)")
        }
        var header = "Mutant: \(name)\nDescription: \(description)\n"
        if let bug { header += "Bug: \(bug)\n" }
        if !killedBy.isEmpty { header += "Killed-By: \(killedBy.joined(separator: " "))\n" }
        let text = header + "\n" + diff
        do {
            _ = try MutantFileParser.parse(text, file: target.path)
        } catch {
            throw RecordError(message: "the recorded change is not a usable mutant: \(error)")
        }
        return RecordPlan(target: target, text: text, files: tracked.map { ($0, false) } + untracked.map { ($0, true) })
    }

    /// Writes the mutant file, then restores the recorded files.
    func write(_ plan: RecordPlan) throws(RecordError) {
        do {
            try FileManager.default.createDirectory(at: mutants, withIntermediateDirectories: true)
            try Data(plan.text.utf8).write(to: plan.target, options: .withoutOverwriting)
        } catch {
            throw RecordError(message: "cannot write \(plan.target.path): \(error.localizedDescription)")
        }
        let tracked = plan.files.filter { !$0.isNew }.map(\.path)
        if !tracked.isEmpty { _ = try git(["checkout", "HEAD", "--"] + tracked) }
        for file in plan.files where file.isNew {
            do {
                try FileManager.default.removeItem(at: package.appendingPathComponent(file.path))
            } catch {
                throw RecordError(message: "recorded, but cannot remove the new file \(file.path): \(error.localizedDescription)")
            }
        }
    }

    private func git(_ arguments: [String], allowing allowed: Set<Int32> = []) throws(RecordError) -> String {
        let result: CapturedOutput
        do {
            result = try CapturedCommand.run(["git", "-C", package.path] + arguments)
        } catch {
            throw RecordError(message: "cannot run git: \(error.localizedDescription)")
        }
        guard result.status == 0 || allowed.contains(result.status) else {
            throw RecordError(message: "git \(arguments.joined(separator: " ")) failed: \(result.errorText)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }
}
