/// Why a patch does not apply to today's source: the mutant is *stale*.
enum PatchApplyError: Error, Equatable, Sendable, CustomStringConvertible {
    case hunkDoesNotMatch(path: String, hunk: String)
    case fileMissing(path: String)
    case fileAlreadyExists(path: String)

    var description: String {
        switch self {
        case let .hunkDoesNotMatch(path, hunk): "\(path): hunk '\(hunk)' does not match the current source"
        case let .fileMissing(path): "\(path): the file to patch does not exist"
        case let .fileAlreadyExists(path): "\(path): the patch creates it, but it already exists"
        }
    }
}

/// A text file as lines, remembering whether it ends with a newline.
struct TextFile: Equatable, Sendable {
    var lines: [String]
    var endsWithNewline: Bool

    init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        endsWithNewline = text.hasSuffix("\n")
        if endsWithNewline || text.isEmpty { lines.removeLast() }
        self.lines = lines
    }

    init(lines: [String], endsWithNewline: Bool) {
        self.lines = lines
        self.endsWithNewline = endsWithNewline
    }

    var text: String {
        lines.joined(separator: "\n") + (endsWithNewline && !lines.isEmpty ? "\n" : "")
    }
}

/// Applies unified diffs exactly: every context and removed line must match
/// to the character. A hunk may sit at another line than its header says
/// (the file grew or shrank above it); the nearest match wins.
enum PatchApplier {
    /// Applies one file's hunks to its content. `nil` content means the file
    /// does not exist; a `nil` result means the patch deletes it.
    static func apply(_ patch: FilePatch, to content: String?) throws(PatchApplyError) -> String? {
        var touched = TouchedLines()
        return try apply(patch, to: content, touching: &touched)
    }

    /// Like `apply`, and notes in `touched` where in the original file the
    /// hunks landed (after any offset): the lines they remove or replace and
    /// the places they insert at.
    static func apply(_ patch: FilePatch, to content: String?, touching touched: inout TouchedLines) throws(PatchApplyError) -> String? {
        if patch.oldPath == nil {
            guard content == nil else { throw .fileAlreadyExists(path: patch.path) }
            let lines = patch.hunks.flatMap(\.newLines)
            return TextFile(lines: lines, endsWithNewline: !(patch.hunks.last?.newHasNoFinalNewline ?? false)).text
        }
        guard let content else { throw .fileMissing(path: patch.path) }
        var file = TextFile(content)
        var offset = 0
        var floor = 0
        // Lines earlier hunks added minus those they removed: a position in
        // the patched text less this is the same line in the original.
        var shift = 0
        for hunk in patch.hunks {
            let expected = max(hunk.oldStart - 1, 0) + offset
            guard let position = match(hunk.oldLines, in: file.lines, near: expected, notBefore: floor) else {
                throw .hunkDoesNotMatch(path: patch.path, hunk: hunk.header)
            }
            let touchesEnd = position + hunk.oldLines.count == file.lines.count
            if hunk.oldHasNoFinalNewline && (!touchesEnd || file.endsWithNewline) {
                throw .hunkDoesNotMatch(path: patch.path, hunk: hunk.header)
            }
            touched.note(hunk, landingAt: position - shift)
            shift += hunk.newLines.count - hunk.oldLines.count
            file.lines.replaceSubrange(position..<(position + hunk.oldLines.count), with: hunk.newLines)
            if touchesEnd { file.endsWithNewline = !hunk.newHasNoFinalNewline }
            offset += hunk.newLines.count - hunk.oldLines.count + (position - expected)
            floor = position + hunk.newLines.count
        }
        if patch.newPath == nil {
            guard file.lines.isEmpty else { throw .hunkDoesNotMatch(path: patch.path, hunk: patch.hunks.last?.header ?? "") }
            return nil
        }
        return file.text
    }

    /// The index nearest to `expected` where `needle` occurs, at or after `floor`.
    static func match(_ needle: [String], in haystack: [String], near expected: Int, notBefore floor: Int) -> Int? {
        let last = haystack.count - needle.count
        guard last >= floor else { return nil }
        func matches(at index: Int) -> Bool {
            index >= floor && index <= last && haystack[index..<(index + needle.count)].elementsEqual(needle)
        }
        let start = min(max(expected, floor), last)
        if matches(at: start) { return start }
        for distance in 1...max(1, haystack.count) {
            if matches(at: start - distance) { return start - distance }
            if matches(at: start + distance) { return start + distance }
            if start - distance < floor && start + distance > last { break }
        }
        return nil
    }
}

/// Where a patch lands in the original file: the 1-based lines it removes or
/// replaces, and the insertion points (an insertion before line `n` sits
/// between lines `n - 1` and `n`).
struct TouchedLines: Equatable, Sendable {
    var removed: [Int] = []
    var insertedBefore: [Int] = []

    /// Notes one hunk whose first old line is at 0-based index `start` of
    /// the original file.
    mutating func note(_ hunk: Hunk, landingAt start: Int) {
        var line = start + 1
        // Added lines right after removed ones replace them; others insert.
        var replacing = false
        var lastInsertion: Int?
        for entry in hunk.lines {
            switch entry {
            case .context:
                line += 1
                replacing = false
            case .removed:
                removed.append(line)
                line += 1
                replacing = true
            case .added:
                if !replacing, lastInsertion != line { insertedBefore.append(line) }
                lastInsertion = line
            }
        }
    }
}
