/// One file's new content after a diff is applied; nil deletes it.
struct FileChange {
    var path: String
    var content: String?
}

extension UnifiedDiff {
    /// The files this diff changes and their new contents (nil: deleted),
    /// read through `read` (a path relative to the package), or the first
    /// hunk that does not apply. Nothing is written: `check` uses it on the
    /// package, the lab on its scratch copy.
    func changes(reading read: (String) -> String?) -> Result<[FileChange], PatchApplyError> {
        var changes: [FileChange] = []
        for file in files {
            let content: String?
            switch Result(catching: { () throws(PatchApplyError) in try PatchApplier.apply(file, to: read(file.oldPath ?? file.path)) }) {
            case .success(let applied): content = applied
            case .failure(let error): return .failure(error)
            }
            if let old = file.oldPath, old != file.newPath { changes.append(FileChange(path: old, content: nil)) }
            if let new = file.newPath { changes.append(FileChange(path: new, content: content)) }
        }
        return .success(changes)
    }
}

extension UnifiedDiff {
    /// Where each file's hunks land in today's source (see `TouchedLines`),
    /// by path; nil when the diff does not apply. A file the diff creates
    /// or deletes is in `wholeFiles` instead.
    func touchedLines(reading read: (String) -> String?) -> (lines: [String: TouchedLines], wholeFiles: [String])? {
        var lines: [String: TouchedLines] = [:]
        var wholeFiles: [String] = []
        for file in files {
            guard let old = file.oldPath, file.newPath != nil else {
                wholeFiles.append(file.path)
                continue
            }
            var touched = TouchedLines()
            guard (try? PatchApplier.apply(file, to: read(old), touching: &touched)) != nil else { return nil }
            if old != file.newPath { wholeFiles.append(file.path) }
            lines[old, default: TouchedLines()].removed += touched.removed
            lines[old, default: TouchedLines()].insertedBefore += touched.insertedBefore
        }
        return (lines, wholeFiles)
    }
}
