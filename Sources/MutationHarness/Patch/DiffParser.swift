/// Why a diff could not be read.
struct DiffParseError: Error, Equatable, Sendable, CustomStringConvertible {
    var line: Int
    var reason: String
    var description: String { "line \(line): \(reason)" }
}

/// Reads unified diffs (`git diff` output, `diff -u` output).
enum DiffParser {
    static func parse(_ text: String, firstLineNumber: Int = 1) throws(DiffParseError) -> UnifiedDiff {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var files: [FilePatch] = []
        var index = 0
        func fail(_ reason: String) -> DiffParseError { DiffParseError(line: index + firstLineNumber, reason: reason) }

        // The blob ids of the `index` line before the file's `---` line.
        var blobs: BlobIDs?
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("diff --git ") { blobs = nil }
            if line.hasPrefix("index ") { blobs = blobIDs(line) }
            if line.hasPrefix("diff --git ") || line.hasPrefix("index ") || line.hasPrefix("new file mode")
                || line.hasPrefix("deleted file mode") || line.hasPrefix("similarity index") || line.hasPrefix("old mode")
                || line.hasPrefix("new mode") || line.isEmpty
            {
                index += 1
                continue
            }
            if line.hasPrefix("--- ") {
                let old = try path(of: line.dropFirst(4), prefix: "a/", at: index + firstLineNumber)
                index += 1
                guard index < lines.count, lines[index].hasPrefix("+++ ") else { throw fail("'--- ' is not followed by '+++ '") }
                let new = try path(of: lines[index].dropFirst(4), prefix: "b/", at: index + firstLineNumber)
                index += 1
                guard old != nil || new != nil else { throw fail("both sides are /dev/null") }
                var patch = FilePatch(oldPath: old, newPath: new, hunks: [], blobs: blobs)
                blobs = nil
                while index < lines.count, lines[index].hasPrefix("@@") {
                    patch.hunks.append(try parseHunk(lines, &index, firstLineNumber: firstLineNumber))
                }
                guard !patch.hunks.isEmpty else { throw fail("file \(patch.path) has no hunk") }
                files.append(patch)
                continue
            }
            if line.hasPrefix("Binary files") || line.hasPrefix("GIT binary patch") {
                throw fail("binary patches are not supported")
            }
            throw fail("unexpected line '\(line.prefix(60))'")
        }
        guard !files.isEmpty else { throw DiffParseError(line: firstLineNumber, reason: "no diff found (expected '--- a/...' and '+++ b/...')") }
        return UnifiedDiff(files: files)
    }

    /// `index 5562565..7728557 100644` -> the two ids; nil for anything else.
    private static func blobIDs(_ line: String) -> BlobIDs? {
        let words = line.split(separator: " ")
        let ids = words.count >= 2 ? words[1].split(separator: ".", omittingEmptySubsequences: true) : []
        guard ids.count == 2, words[1].contains(".."), ids.allSatisfy({ GitBlob.isID(String($0)) }) else { return nil }
        return BlobIDs(old: String(ids[0]), new: String(ids[1]))
    }

    private static func path(of raw: Substring, prefix: String, at line: Int) throws(DiffParseError) -> String? {
        var text = String(raw)
        if let tab = text.firstIndex(of: "\t") { text = String(text[..<tab]) }
        if text == "/dev/null" { return nil }
        if text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
        let components = text.split(separator: "/")
        guard !text.isEmpty, !text.hasPrefix("/"), !components.contains("..") else {
            throw DiffParseError(line: line, reason: "path '\(text)' must be relative to the package root and stay inside it")
        }
        return text
    }

    private static func parseHunk(_ lines: [String], _ index: inout Int, firstLineNumber: Int) throws(DiffParseError) -> Hunk {
        let header = lines[index]
        guard let ranges = parseHeader(header) else {
            throw DiffParseError(line: index + firstLineNumber, reason: "malformed hunk header '\(header)'")
        }
        var hunk = Hunk(header: header, oldStart: ranges.0, oldCount: ranges.1, newStart: ranges.2, newCount: ranges.3, lines: [])
        index += 1
        var oldSeen = 0
        var newSeen = 0
        var lastKind: Character = " "
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("\\") {
                if lastKind == "-" { hunk.oldHasNoFinalNewline = true }
                else if lastKind == "+" { hunk.newHasNoFinalNewline = true }
                else { hunk.oldHasNoFinalNewline = true; hunk.newHasNoFinalNewline = true }
                index += 1
                continue
            }
            if oldSeen >= hunk.oldCount && newSeen >= hunk.newCount { break }
            // A blank context line whose space an editor stripped counts as
            // context, but not the empty string after the text's last newline.
            if line.isEmpty && index == lines.count - 1 { break }
            let kind = line.first ?? " "
            let text = line.isEmpty ? "" : String(line.dropFirst())
            switch kind {
            case " ":
                hunk.lines.append(.context(text)); oldSeen += 1; newSeen += 1
            case "-":
                hunk.lines.append(.removed(text)); oldSeen += 1
            case "+":
                hunk.lines.append(.added(text)); newSeen += 1
            default:
                throw DiffParseError(line: index + firstLineNumber, reason: "hunk \(header) ends early: expected \(hunk.oldCount) old and \(hunk.newCount) new lines")
            }
            lastKind = kind
            index += 1
        }
        guard oldSeen == hunk.oldCount, newSeen == hunk.newCount else {
            throw DiffParseError(line: index + firstLineNumber, reason: "hunk \(header) ends early: expected \(hunk.oldCount) old and \(hunk.newCount) new lines")
        }
        return hunk
    }

    /// `@@ -12,5 +12,6 @@ ...` -> (12, 5, 12, 6); a missing count is 1.
    static func parseHeader(_ header: String) -> (Int, Int, Int, Int)? {
        let parts = header.split(separator: " ")
        guard parts.count >= 4, parts[0] == "@@", parts[3] == "@@" || parts[3].hasPrefix("@@"),
              parts[1].hasPrefix("-"), parts[2].hasPrefix("+"),
              let old = range(parts[1].dropFirst()), let new = range(parts[2].dropFirst())
        else { return nil }
        return (old.0, old.1, new.0, new.1)
    }

    private static func range(_ text: Substring) -> (Int, Int)? {
        let pieces = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let start = Int(pieces[0]), start >= 0 else { return nil }
        if pieces.count == 1 { return (start, 1) }
        guard pieces.count == 2, let count = Int(pieces[1]), count >= 0 else { return nil }
        return (start, count)
    }
}
