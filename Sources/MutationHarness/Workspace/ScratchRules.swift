import Foundation

/// Which folders may serve as a scratch copy, and which paths a mutant may
/// touch. The sync deletes whatever the package does not have, so a scratch
/// folder must never be one that holds the user's files.
enum ScratchRules {
    /// The file that marks a folder as created by the harness.
    static let marker = ".mutate-scratch"

    /// Refuses a scratch folder that is the package, lies inside it outside
    /// `.build/`, contains it, or is a non-empty folder the harness did not
    /// create. `defaultRoot` (the package's own `.build/mutate/scratch`) is
    /// adopted even without a marker: runs before the marker existed made it.
    static func check(root: URL, package: URL, defaultRoot: URL) throws(WorkspaceError) {
        let rootPath = realPath(root)
        let packagePath = realPath(package)
        if rootPath == packagePath {
            throw WorkspaceError(reason: "the scratch folder \(root.path) is the package itself: the harness would overwrite your sources; pick a folder under .build/ or a new, empty folder")
        }
        if isInside(rootPath, packagePath), !isInside(rootPath, packagePath + "/.build") {
            throw WorkspaceError(reason: "the scratch folder \(root.path) lies inside the package outside .build/: its files would be mixed with yours; pick a folder under .build/ or outside the package")
        }
        if isInside(packagePath, rootPath) {
            throw WorkspaceError(reason: "the scratch folder \(root.path) contains the package: the sync would delete files around it; pick a folder under .build/ or a new, empty folder")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw WorkspaceError(reason: "the scratch path \(root.path) is a file, not a folder")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let owned = entries.contains(marker) || realPath(defaultRoot) == rootPath
        if !entries.isEmpty, !owned {
            throw WorkspaceError(reason: "the scratch folder \(root.path) holds files the harness did not create (no \(marker) in it): the sync deletes everything the package lacks, so it refuses; pick a new or empty folder")
        }
    }

    /// Why a mutant may not touch `relative` (a path inside the package), or
    /// nil: only files the scratch copy holds can be mutated, so the check
    /// and the run agree.
    static func refusal(for relative: String, package: URL, excluded: [URL]) -> String? {
        let components = relative.split(separator: "/").map(String.init)
        guard let first = components.first else { return "an empty path" }
        if let hidden = components.first(where: { $0.hasPrefix(".") }) {
            return "'\(relative)' is inside '\(hidden)', which the scratch copy does not hold (hidden files and folders are not copied)"
        }
        if ScratchWorkspace.skipped.contains(first) {
            return "'\(relative)' is inside '\(first)/', which the scratch copy does not hold"
        }
        let target = package.appendingPathComponent(relative).standardizedFileURL.path
        if let folder = excluded.first(where: { isInside(target, $0.standardizedFileURL.path) || target == $0.standardizedFileURL.path }) {
            return "'\(relative)' is inside \(folder.path) (the mutants, output or scratch folder), which the scratch copy does not hold"
        }
        var prefix = package
        for component in components {
            prefix = prefix.appendingPathComponent(component)
            if let type = try? FileManager.default.attributesOfItem(atPath: prefix.path)[.type] as? FileAttributeType,
               type == .typeSymbolicLink
            {
                return "'\(relative)' goes through the symbolic link '\(prefix.path.dropFirst(package.path.count + 1))': a mutant may only change the files themselves"
            }
        }
        return nil
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The path with symbolic links resolved, for the parts that exist.
    static func realPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for part in rest { resolved.appendPathComponent(part) }
        return resolved.standardizedFileURL.path
    }
}
