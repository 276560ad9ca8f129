/// A unified diff as `git diff` prints it: one `FilePatch` per file.
struct UnifiedDiff: Equatable, Sendable {
    var files: [FilePatch]

    init(files: [FilePatch]) { self.files = files }
}

/// The changes to one file.
struct FilePatch: Equatable, Sendable {
    /// Path before the change, relative to the package root; nil for a new file.
    var oldPath: String?
    /// Path after the change; nil for a deleted file.
    var newPath: String?
    var hunks: [Hunk]
    /// The blobs its `index` line names: the file before and after, as git
    /// stored them (`GitBlob`); nil when the diff has no `index` line.
    var blobs: BlobIDs? = nil

    /// The path this patch is about (the new path, or the old for a deletion).
    var path: String { newPath ?? oldPath ?? "" }
}

/// `index OLD..NEW`: the git blob ids of a file before and after a patch.
struct BlobIDs: Equatable, Sendable {
    var old: String
    var new: String
}

/// One `@@ -a,b +c,d @@` block.
struct Hunk: Equatable, Sendable {
    enum Line: Equatable, Sendable {
        case context(String)
        case removed(String)
        case added(String)

        /// The line as a diff writes it: ` `, `-` or `+`, then its text.
        var written: String {
            switch self {
            case .context(let text): " " + text
            case .removed(let text): "-" + text
            case .added(let text): "+" + text
            }
        }
    }

    /// The header line as written, used to name a hunk that no longer matches.
    var header: String
    var oldStart: Int
    var oldCount: Int
    var newStart: Int
    var newCount: Int
    var lines: [Line]
    /// `\ No newline at end of file` after the hunk's last old line.
    var oldHasNoFinalNewline = false
    /// `\ No newline at end of file` after the hunk's last new line.
    var newHasNoFinalNewline = false

    /// The lines the file must contain for the hunk to apply.
    var oldLines: [String] {
        lines.compactMap { line in
            switch line {
            case .context(let text), .removed(let text): text
            case .added: nil
            }
        }
    }

    /// The lines that replace them.
    var newLines: [String] {
        lines.compactMap { line in
            switch line {
            case .context(let text), .added(let text): text
            case .removed: nil
            }
        }
    }

    /// 1-based line range of the changed (removed) lines in the old file, or
    /// the line an insertion goes before: where a report points.
    var changedOldLines: ClosedRange<Int> {
        var line = max(oldStart, 1)
        var first: Int?
        var last: Int?
        for entry in lines {
            switch entry {
            case .context:
                line += 1
            case .removed:
                first = first ?? line
                last = line
                line += 1
            case .added:
                first = first ?? line
                last = last ?? line
            }
        }
        let start = first ?? max(oldStart, 1)
        return start...max(start, last ?? start)
    }
}

extension UnifiedDiff {
    /// The diff as `git diff` prints it, with an `index` line for each file
    /// whose blobs are known.
    var text: String {
        var out = ""
        for file in files {
            let old = file.oldPath ?? file.path, new = file.newPath ?? file.path
            out += "diff --git a/\(old) b/\(new)\n"
            if let blobs = file.blobs { out += "index \(blobs.old)..\(blobs.new)\n" }
            out += "--- \(file.oldPath.map { "a/" + $0 } ?? "/dev/null")\n+++ \(file.newPath.map { "b/" + $0 } ?? "/dev/null")\n"
            for hunk in file.hunks {
                out += hunk.header + "\n"
                let lastOld = hunk.lines.lastIndex { if case .added = $0 { false } else { true } }
                let lastNew = hunk.lines.lastIndex { if case .removed = $0 { false } else { true } }
                for (index, line) in hunk.lines.enumerated() {
                    out += line.written + "\n"
                    if (index == lastOld && hunk.oldHasNoFinalNewline) || (index == lastNew && hunk.newHasNoFinalNewline) {
                        out += "\\ No newline at end of file\n"
                    }
                }
            }
        }
        return out
    }
}
