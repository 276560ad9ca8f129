import Foundation

/// `mutate rebase`: a stale named mutant's patch carried onto today's
/// source (`PatchRebaser`), and its file rewritten with its headers kept
/// and a `Rebased:` line added.
enum MutantRebaser {
    /// What `PatchRebaser` makes of `mutant` in the package at `root`. The
    /// preimages its `index` lines name are read from the git repository
    /// that holds `root` by default (`GitBlob`). `reading` gives a file's
    /// text (by default the one at `root`; the lab's copy under a schema
    /// reads the package's).
    static func rebase(_ mutant: Mutant, root: URL, reading: ((String) -> String?)? = nil) -> PatchRebaser.Outcome {
        let read = reading ?? { (path: String) in try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }
        if case .success = mutant.diff.changes(reading: read) { return .applies }
        let kinds = Set(mutant.diff.files.map { ($0.path as NSString).pathExtension })
        return PatchRebaser.rebase(mutant.diff, reading: read, files: files(in: root, withExtensions: kinds),
                                   preimage: { GitBlob.text(of: $0, near: root) })
    }

    /// The package's files (relative paths, sorted) a hunk may have moved
    /// to: those with one of `extensions`, outside hidden folders, `.build`
    /// and symbolic links.
    static func files(in root: URL, withExtensions extensions: Set<String>) -> [String] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey],
                                                          options: [.skipsHiddenFiles])
        else { return [] }
        var found: [String] = []
        let prefix = root.standardizedFileURL.path + "/"
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            if url.lastPathComponent == ".build" || values?.isSymbolicLink == true {
                walker.skipDescendants()
                continue
            }
            let path = url.standardizedFileURL.path
            guard values?.isRegularFile == true, extensions.contains(url.pathExtension), path.hasPrefix(prefix) else { continue }
            found.append(String(path.dropFirst(prefix.count)))
        }
        return found.sorted()
    }

    /// The mutant file `text` with its diff replaced by `diff` and a
    /// `Rebased: STAMP` header (an earlier one is replaced); every other
    /// header is kept as written.
    static func rewrite(_ text: String, with diff: UnifiedDiff, stamp: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let diffStart = lines.firstIndex { $0.hasPrefix("diff ") || $0.hasPrefix("--- ") } ?? lines.count
        var headers: [String] = []
        var skipping = false
        for line in lines[..<diffStart] {
            // A blank line is kept as written and ends nothing: the parser
            // skips it, so an indented line after it still continues the
            // header before it (a dropped `Rebased:` one included).
            if line.trimmed.isEmpty {
                headers.append(line)
                continue
            }
            let continues = line.first == " " || line.first == "\t"
            if continues, skipping { continue }
            skipping = line.lowercased().hasPrefix("rebased:")
            if !skipping { headers.append(line) }
        }
        while headers.last?.trimmed.isEmpty == true { headers.removeLast() }
        headers.append("Rebased: \(stamp)")
        return headers.joined(separator: "\n") + "\n\n" + diff.text
    }
}
