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
