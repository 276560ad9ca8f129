import Foundation

/// Why the scratch copy could not be prepared.
public struct WorkspaceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// A copy of the package under `.build/mutate/scratch` where mutants are
/// applied, built and tested. It is kept between runs so builds stay
/// incremental: syncing rewrites only files whose bytes differ. The user's
/// package is only ever read.
public struct ScratchWorkspace: Sendable {
    /// The package being mutated.
    public let package: URL
    /// The copy.
    public let root: URL
    /// `TMPDIR` for every build and test process.
    public let temporaryDirectory: URL
    /// `HOME` for every test process.
    public let homeDirectory: URL

    /// Top-level entries never copied.
    static let skipped: Set<String> = [".build", ".git", ".swiftpm", "mutants", ".mutate"]

    public init(package: URL, root: URL) {
        self.package = package.standardizedFileURL
        self.root = root.standardizedFileURL
        temporaryDirectory = self.root.appendingPathComponent(".mutate/tmp", isDirectory: true)
        homeDirectory = self.root.appendingPathComponent(".mutate/home", isDirectory: true)
    }

    /// Makes the copy's files byte-identical to the package's (plus nothing
    /// else), leaving unchanged files untouched. Returns how many files were
    /// written.
    @discardableResult
    public func sync(excluding excluded: [URL] = []) throws(WorkspaceError) -> Int {
        let manager = FileManager.default
        guard manager.fileExists(atPath: package.appendingPathComponent("Package.swift").path) else {
            throw WorkspaceError(reason: "no Package.swift in \(package.path): pass the package folder with --package-path")
        }
        let excludedPaths = Set(excluded.map { $0.standardizedFileURL.path })
        let (sourceFiles, sourceDirectories) = try listEntries(in: package, excluding: excludedPaths)
        var written = 0
        do {
            // TMPDIR and HOME start empty each run: the toolchain leaves a
            // `TemporaryDirectory.*` folder in TMPDIR on every invocation.
            for directory in [temporaryDirectory, homeDirectory] where manager.fileExists(atPath: directory.path) {
                try manager.removeItem(at: directory)
            }
            for directory in [root, temporaryDirectory, homeDirectory] {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            // Empty folders matter to SwiftPM (a target's folder must exist).
            for relative in sourceDirectories {
                try manager.createDirectory(at: root.appendingPathComponent(relative), withIntermediateDirectories: true)
            }
            for relative in sourceFiles {
                let source = package.appendingPathComponent(relative)
                let target = root.appendingPathComponent(relative)
                let bytes = try Data(contentsOf: source)
                if manager.contents(atPath: target.path) != bytes {
                    try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try bytes.write(to: target, options: .atomic)
                    written += 1
                }
            }
            let wanted = Set(sourceFiles)
            for relative in try listEntries(in: root, excluding: []).files where !wanted.contains(relative) {
                try manager.removeItem(at: root.appendingPathComponent(relative))
            }
        } catch let error as WorkspaceError {
            throw error
        } catch {
            throw WorkspaceError(reason: "cannot copy the package into \(root.path): \(error.localizedDescription)")
        }
        return written
    }

    /// Reads a file of the copy, by path relative to the package root.
    public func read(_ relative: String) -> String? {
        FileManager.default.contents(atPath: root.appendingPathComponent(relative).path).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// Writes (or, for nil, deletes) a file of the copy.
    public func write(_ relative: String, _ content: String?) throws {
        let url = root.appendingPathComponent(relative)
        if let content {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url, options: .atomic)
        } else if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }

    /// Relative paths of the regular files and folders below `base`,
    /// skipping hidden entries, the build folder and the mutants folder at the top.
    private func listEntries(in base: URL, excluding excluded: Set<String>) throws(WorkspaceError) -> (files: [String], directories: [String]) {
        let manager = FileManager.default
        guard let top = try? manager.contentsOfDirectory(atPath: base.path) else { return ([], []) }
        var result: [String] = []
        var directories: [String] = []
        let basePath = base.standardizedFileURL.path
        for entry in top.sorted() where !entry.hasPrefix(".") && !Self.skipped.contains(entry) {
            let url = base.appendingPathComponent(entry)
            if excluded.contains(url.standardizedFileURL.path) { continue }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                result.append(entry)
                continue
            }
            directories.append(entry)
            guard let walker = manager.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey]) else { continue }
            for case let file as URL in walker {
                let name = file.lastPathComponent
                if name.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                if excluded.contains(file.standardizedFileURL.path) {
                    walker.skipDescendants()
                    continue
                }
                let values = try? file.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
                let relative = String(file.standardizedFileURL.path.dropFirst(basePath.count + 1))
                if values?.isDirectory == true {
                    directories.append(relative)
                } else if values?.isRegularFile == true {
                    result.append(relative)
                }
            }
        }
        return (result, directories)
    }
}
