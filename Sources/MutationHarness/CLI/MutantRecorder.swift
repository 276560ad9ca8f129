import Foundation

/// Why `mutate record` refused.
public struct RecordError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// `mutate record NAME`: the uncommitted change under `Sources/` becomes
/// `mutants/NAME.patch`, and those files go back to HEAD.
public struct MutantRecorder {
    let package: URL
    let mutants: URL

    public init(package: URL, mutants: URL) {
        self.package = package
        self.mutants = mutants
    }

    public func record(name: String, description: String, bug: String?) throws(RecordError) -> URL {
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
        let tests = changed.filter { $0.path.hasPrefix("Tests/") }.map(\.path)
        guard tests.isEmpty else {
            throw RecordError(message: "the change touches tests (\(tests.joined(separator: ", "))): a mutant changes Sources/ only; commit or stash the test change first")
        }
        let untracked = changed.filter { $0.code == "??" && $0.path.hasPrefix("Sources/") }.map(\.path)
        guard untracked.isEmpty else {
            throw RecordError(message: "new files under Sources/ are not tracked by git (\(untracked.joined(separator: ", "))): record takes changes to tracked files only")
        }
        let diff = try git(["diff", "--no-color", "--no-ext-diff", "--relative", "HEAD", "--", "Sources"])
        guard !diff.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RecordError(message: "there is no uncommitted change under Sources/: make the bug's change there first, then record it")
        }
        var header = "Mutant: \(name)\nDescription: \(description)\n"
        if let bug { header += "Bug: \(bug)\n" }
        let text = header + "\n" + diff
        do {
            _ = try MutantFileParser.parse(text, file: target.path)
        } catch {
            throw RecordError(message: "the recorded change is not a usable mutant: \(error)")
        }
        do {
            try FileManager.default.createDirectory(at: mutants, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target, options: .withoutOverwriting)
        } catch {
            throw RecordError(message: "cannot write \(target.path): \(error.localizedDescription)")
        }
        let files = changed.filter { $0.path.hasPrefix("Sources/") }.map(\.path)
        _ = try git(["checkout", "HEAD", "--"] + files)
        return target
    }

    private func git(_ arguments: [String]) throws(RecordError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", package.path] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw RecordError(message: "cannot run git: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RecordError(message: "git \(arguments.joined(separator: " ")) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
