import Foundation

/// Why the scratch copy could not be prepared.
struct WorkspaceError: Error, Equatable, Sendable, CustomStringConvertible {
    var reason: String
    var description: String { reason }

    /// The folder given as the package holds no manifest.
    static func noManifest(in package: URL) -> WorkspaceError {
        WorkspaceError(reason: "no Package.swift in \(package.path): pass the package folder with --package-path")
    }
}

/// A copy of the package under `.build/mutate/scratch` where mutants are
/// applied, built and tested. It is kept between runs so builds stay
/// incremental: syncing rewrites only files whose bytes differ. The user's
/// package is only ever read.
struct ScratchWorkspace: Sendable {
    /// The package being mutated.
    let package: URL
    /// The copy.
    let root: URL
    /// `TMPDIR` for every build and test process and every other command
    /// that starts the toolchain's driver.
    let temporaryDirectory: URL
    /// `HOME` for every test process.
    let homeDirectory: URL

    /// Top-level entries never copied.
    static let skipped: Set<String> = [".build", ".git", ".swiftpm", "mutants", ".mutate"]

    init(package: URL, root: URL) {
        self.package = package.standardizedFileURL
        self.root = root.standardizedFileURL
        temporaryDirectory = self.root.appendingPathComponent(".mutate/tmp", isDirectory: true)
        homeDirectory = self.root.appendingPathComponent(".mutate/home", isDirectory: true)
    }

    /// Whether `package` holds a manifest, `Package.swift`.
    static func hasManifest(_ package: URL) -> Bool {
        FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path)
    }

    /// Makes the copy's files byte-identical to the package's (plus nothing
    /// else), leaving unchanged files untouched, and symbolic links links
    /// again. A relative `path:` dependency in the manifest is rewritten to
    /// the folder it names from the package. Returns how many entries were
    /// written. `isCancelled` is asked between files.
    @discardableResult
    func sync(excluding excluded: [URL] = [], isCancelled: () -> Bool = { false }) throws(WorkspaceError) -> Int {
        let manager = FileManager.default
        guard Self.hasManifest(package) else {
            throw WorkspaceError.noManifest(in: package)
        }
        let excludedPaths = Set(excluded.map { $0.standardizedFileURL.path })
        let source = try listEntries(in: package, excluding: excludedPaths)
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
            try removeWhatChangedKind(from: source)
            // Empty folders matter to SwiftPM (a target's folder must exist).
            for relative in source.directories {
                try manager.createDirectory(at: root.appendingPathComponent(relative), withIntermediateDirectories: true)
            }
            for relative in source.files {
                if isCancelled() { throw WorkspaceError(reason: "interrupted while copying the package") }
                let target = root.appendingPathComponent(relative)
                let bytes = copied(try Data(contentsOf: package.appendingPathComponent(relative)), as: relative)
                if Self.isLink(target) { try manager.removeItem(at: target) }
                if manager.contents(atPath: target.path) != bytes {
                    try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try bytes.write(to: target, options: .atomic)
                    written += 1
                }
            }
            for (relative, destination) in source.links {
                let target = root.appendingPathComponent(relative)
                if (try? manager.destinationOfSymbolicLink(atPath: target.path)) == destination { continue }
                if Self.isLink(target) || manager.fileExists(atPath: target.path) { try manager.removeItem(at: target) }
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.createSymbolicLink(atPath: target.path, withDestinationPath: destination)
                written += 1
            }
            let copy = try listEntries(in: root, excluding: [])
            let wanted = Set(source.files).union(source.links.keys)
            for relative in copy.files + Array(copy.links.keys) where !wanted.contains(relative) {
                try manager.removeItem(at: root.appendingPathComponent(relative))
            }
        } catch let error as WorkspaceError {
            throw error
        } catch {
            throw WorkspaceError(reason: "cannot copy the package into \(root.path): \(error.localizedDescription)")
        }
        return written
    }

    /// The copy's files (as the package has them right after `sync`), each
    /// with the SHA-256 of its bytes; a symbolic link by where it points.
    func fileDigests() throws(WorkspaceError) -> [String: String] {
        let entries = try listEntries(in: root, excluding: [])
        var digests: [String: String] = [:]
        for relative in entries.files {
            guard let bytes = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path) else {
                throw WorkspaceError(reason: "cannot read \(root.appendingPathComponent(relative).path)")
            }
            digests[relative] = SHA256.hex(bytes)
        }
        for (relative, destination) in entries.links { digests[relative] = SHA256.hex("link " + destination) }
        return digests
    }

    /// Removes from the copy every entry the package now has as another kind
    /// (a link that is now a folder or a file, a file that is now a folder,
    /// and the reverse), before anything is written: a folder made, or a
    /// file written, through a link the copy still holds would land where
    /// the link points, possibly in the user's files.
    private func removeWhatChangedKind(from source: (files: [String], directories: [String], links: [String: String])) throws {
        let manager = FileManager.default
        let copy = try listEntries(in: root, excluding: [])
        let files = Set(source.files), directories = Set(source.directories)
        var gone = copy.links.filter { source.links[$0.key] != $0.value }.map(\.key)
        gone += copy.files.filter { directories.contains($0) || source.links[$0] != nil }
        gone += copy.directories.filter { files.contains($0) || source.links[$0] != nil }
        for relative in gone.sorted() where Self.isLink(root.appendingPathComponent(relative))
            || manager.fileExists(atPath: root.appendingPathComponent(relative).path)
        {
            try manager.removeItem(at: root.appendingPathComponent(relative))
        }
    }

    /// Where `noteInterrupted` keeps the files of a mutant whose run was cut short.
    private var interruptedList: URL { root.appendingPathComponent(".mutate-interrupted") }

    /// Remembers that a mutant touching `files` did not finish (interrupted,
    /// or its build or tests failed to start): its object files may be newer
    /// than the restored sources, and a build system may trust them.
    func noteInterrupted(_ files: [String]) {
        let previous = (try? String(contentsOf: interruptedList, encoding: .utf8)) ?? ""
        try? Data((previous + files.map { $0 + "\n" }.joined()).utf8).write(to: interruptedList, options: .atomic)
    }

    /// After a run that was cut short mid-mutant: removes the build folders
    /// of the modules whose sources it had mutated, so they are compiled
    /// again from the restored sources. Returns the modules' names.
    func forgetInterruptedBuilds() -> [String] {
        guard let text = try? String(contentsOf: interruptedList, encoding: .utf8) else { return [] }
        let manager = FileManager.default
        var modules: Set<String> = []
        for file in text.split(separator: "\n") {
            let parts = file.split(separator: "/")
            // Sources/<Target>/...: the target's folder names its module.
            if parts.count > 2, parts[0] == "Sources" { modules.insert(String(parts[1])) }
        }
        let build = root.appendingPathComponent(".build")
        let configurations = ((try? manager.contentsOfDirectory(atPath: build.path)) ?? []).map { build.appendingPathComponent($0) }
            .flatMap { [$0, $0.appendingPathComponent("debug")] }
        for module in modules {
            let names = [module, module.replacingOccurrences(of: "-", with: "_")]
            for folder in configurations {
                for name in names { try? manager.removeItem(at: folder.appendingPathComponent("\(name).build")) }
            }
        }
        try? manager.removeItem(at: interruptedList)
        return modules.sorted()
    }

    /// Reads a file of the copy, by path relative to the package root. A
    /// manifest the sync rewrote (`ManifestPaths`: its relative `path:`
    /// dependencies named by absolute path) reads as the package has it,
    /// so a mutant's patch of those lines applies as it does to the
    /// package; `write` rewrites it again.
    func read(_ relative: String) -> String? {
        let held = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path)
        guard ManifestPaths.isManifest(relative), let held, let own = FileManager.default.contents(atPath: package.appendingPathComponent(relative).path),
              copied(own, as: relative) == held
        else { return held.flatMap { String(data: $0, encoding: .utf8) } }
        return String(data: own, encoding: .utf8)
    }

    /// The bytes of the package's file `relative` as the copy holds them: a
    /// manifest with its relative `path:` dependencies made absolute
    /// (`ManifestPaths`), any other file as it is.
    private func copied(_ bytes: Data, as relative: String) -> Data {
        guard ManifestPaths.isManifest(relative), let text = String(data: bytes, encoding: .utf8) else { return bytes }
        return Data(ManifestPaths.rewrite(text, package: package).utf8)
    }

    /// Writes (or, for nil, deletes) a file of the copy.
    ///
    /// A mutant is applied and restored within a second when its tests are
    /// quick; a build system that compares modification times in whole
    /// seconds would then take the restored file for the one it compiled.
    /// Each write therefore gets a modification time in a later whole second
    /// than the file had. A manifest is written as the sync copies one
    /// (`ManifestPaths`).
    func write(_ relative: String, _ content: String?) throws {
        let url = root.appendingPathComponent(relative)
        if let content {
            let previous = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try copied(Data(content.utf8), as: relative).write(to: url, options: .atomic)
            // Judged by the time the write gave the file, not by the clock
            // read after it: the clock may have moved to the next second
            // while the file still has the previous one's.
            let written = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            if let previous, floor(previous.timeIntervalSince1970) >= floor(written?.timeIntervalSince1970 ?? 0) {
                let later = Date(timeIntervalSince1970: floor(previous.timeIntervalSince1970) + 1)
                try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: url.path)
            }
        } else if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }

    /// Relative paths of the regular files, folders and symbolic links
    /// (with where they point) below `base`, skipping hidden entries and, at
    /// the top, the build and mutants folders. A link is not followed; one
    /// that leads out of `base` by a relative path is given the absolute
    /// path, so it points at the same place from the copy (and one inside
    /// the copy keys as it is written, wherever the copy is).
    private func listEntries(in base: URL, excluding excluded: Set<String>) throws(WorkspaceError)
        -> (files: [String], directories: [String], links: [String: String])
    {
        let manager = FileManager.default
        var files: [String] = []
        var directories: [String] = []
        var links: [String: String] = [:]
        func walk(_ relative: String) {
            let folder = relative.isEmpty ? base : base.appendingPathComponent(relative)
            guard let entries = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
            for entry in entries.sorted() where !entry.hasPrefix(".") {
                if relative.isEmpty, Self.skipped.contains(entry) { continue }
                let path = relative.isEmpty ? entry : relative + "/" + entry
                let url = base.appendingPathComponent(path)
                if excluded.contains(url.standardizedFileURL.path) { continue }
                let type = (try? manager.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
                switch type {
                case .typeSymbolicLink?:
                    guard var destination = try? manager.destinationOfSymbolicLink(atPath: url.path) else { continue }
                    if !destination.hasPrefix("/") {
                        let resolved = URL(fileURLWithPath: destination, relativeTo: url.deletingLastPathComponent()).standardizedFileURL.path
                        if !ScratchRules.isInside(resolved, base.path) { destination = resolved }
                    }
                    links[path] = destination
                case .typeDirectory?:
                    directories.append(path)
                    walk(path)
                case .typeRegular?:
                    files.append(path)
                default:
                    continue
                }
            }
        }
        walk("")
        return (files, directories, links)
    }

    private static func isLink(_ url: URL) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType) == .typeSymbolicLink
    }
}
