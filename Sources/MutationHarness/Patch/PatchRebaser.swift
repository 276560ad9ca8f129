/// Carries a stale patch onto today's source when the lines it changes are
/// still there, only moved, re-indented or given new neighbours.
///
/// When the patch names the blob it was recorded against (its `index`
/// line) and the repository still has it, a hunk is first placed by that
/// preimage, as a three-way merge would: today's file is lined up with the
/// preimage, and the hunk lands where its changed lines (for an insertion,
/// the lines around it) are kept unchanged and together. Otherwise, or when
/// today's file changed those lines, each hunk's changed lines (its removed lines with the context between
/// them; for a pure insertion, the two lines around it) are looked for by
/// their text with indentation ignored. A hunk moves only when they occur
/// exactly once: in its own file, or (when they are gone from it) in one
/// other file of the package. Its added lines take the new place's
/// indentation, its context is taken from today's file. A hunk whose one
/// line is gone but which changes one operator or literal and nothing
/// else (the edits `explore` generates) is carried by that token
/// (`OneTokenEdit`): to the one line of its file still much like the old
/// one that holds the token among the same neighbours. A hunk that removes
/// a whole block (or a branch, its `}` kept) whose lines are gone is
/// carried by the line that opens it (`RemovedBlock`): the one block of its
/// file that opens with that line and still holds every removed line, in
/// order and much alike, is removed whole. A pure insertion whose
/// neighbours are no longer side by side, one of them reworded, is carried
/// by the other (`InsertionNeighbours`): to the one place where it stands
/// as it was next to a line much like the reworded one. Anything less
/// certain is refused with the reason and the nearest candidates: a
/// rebased mutant that changes another place than the original meant is
/// worse than a stale one.
enum PatchRebaser {
    /// What became of one patch.
    enum Outcome: Equatable {
        /// It applies as it is.
        case applies
        /// It was carried: the new diff, and one line per moved hunk saying where it went.
        case rebased(UnifiedDiff, moves: [String])
        /// It cannot be carried safely.
        case refused(Refusal)
    }

    struct Refusal: Error, Equatable, CustomStringConvertible {
        var reason: String
        /// The places most like the changed lines (`file:line (NN% alike)`), best first.
        var candidates: [String] = []

        var description: String {
            candidates.isEmpty ? reason : reason + "; nearest: " + candidates.joined(separator: ", ")
        }
    }

    /// One file's hunks carried: their patches, where each went, and
    /// whether an anchor (a token, a block) placed one.
    struct Carried {
        var patches: [FilePatch]
        var moves: [String]
        var anchored: Bool
    }

    /// How one file's hunks are carried (the file's patch, the package's
    /// reader and files, the preimage's text): `carry`, or in a test one
    /// that errs, to see the guard of "never wrong" refuse what it makes.
    typealias Carrier = (FilePatch, (String) -> String?, [String], String?) -> Result<Carried, Refusal>

    /// Rebases `diff` onto the package `read` gives (a path relative to the
    /// package, nil for no such file); `files` lists the package's files a
    /// hunk may have moved to; `preimage` gives the text of a blob id of a
    /// patch's `index` line (nil when unknown).
    static func rebase(_ diff: UnifiedDiff, reading read: (String) -> String?, files: [String],
                       preimage: (String) -> String? = { _ in nil }, carrier: Carrier = carry) -> Outcome
    {
        if case .success = diff.changes(reading: read) { return .applies }
        var rebased: [FilePatch] = []
        var moves: [String] = []
        var anchored = false
        for file in diff.files {
            guard let old = file.oldPath, let new = file.newPath, old == new else {
                return .refused(Refusal(reason: "\(file.path): a patch that creates, deletes or renames a file is not carried"))
            }
            if let content = read(old), (try? PatchApplier.apply(file, to: content)) != nil {
                rebased.append(file)
                continue
            }
            let blob = file.blobs.flatMap { preimage($0.old) }
            switch withoutActuallyEscaping(read, do: { carrier(file, $0, files, blob) }) {
            case .success(let carried):
                rebased += carried.patches
                moves += carried.moves
                anchored = anchored || carried.anchored
            case .failure(let refusal):
                return .refused(refusal)
            }
        }
        var result = UnifiedDiff(files: rebased)
        // The guard of "never wrong": it applies, and makes the original's change
        // (for a hunk carried by its anchor: the same token replaced by the same token).
        guard case .success(let changed) = result.changes(reading: read), sameChange(diff, result) || anchored && sameEdits(diff, result) else {
            return .refused(Refusal(reason: "the carried patch does not make the same change (a defect of rebase: please report it)"))
        }
        // Each file names the blobs it now goes between, so the next rebase can start from them.
        for index in result.files.indices {
            let path = result.files[index].path
            guard let before = read(path), let after = changed.first(where: { $0.path == path })?.content else { continue }
            result.files[index].blobs = BlobIDs(old: GitBlob.id(of: before), new: GitBlob.id(of: after))
        }
        return .rebased(result, moves: moves)
    }

    /// Whether two diffs remove and add the same lines, indentation aside.
    static func sameChange(_ a: UnifiedDiff, _ b: UnifiedDiff) -> Bool {
        edits(a, byAnchor: false) == edits(b, byAnchor: false)
    }

    /// Whether two diffs make the same edits, a hunk that replaces one
    /// operator or literal counted by that token alone (its line may read
    /// differently around it), and one that removes a block or branch by
    /// the line that opens it (its body may read differently).
    static func sameEdits(_ a: UnifiedDiff, _ b: UnifiedDiff) -> Bool {
        edits(a, byAnchor: true) == edits(b, byAnchor: true)
    }

    /// Each hunk's edit, sorted: its removed and added lines, indentation
    /// aside; with `byAnchor`, a hunk an anchor can carry by what it
    /// changes (the token, or the block's first line) instead.
    private static func edits(_ diff: UnifiedDiff, byAnchor: Bool) -> [String] {
        diff.files.flatMap(\.hunks).map { hunk in
            let removed = hunk.lines.compactMap { if case .removed(let text) = $0 { text } else { nil } }
            let added = hunk.lines.compactMap { if case .added(let text) = $0 { text } else { nil } }
            if byAnchor, removed.count == 1, added.count == 1, let edit = OneTokenEdit(removed: removed[0], added: added[0]) {
                return "token \(edit.original) -> \(edit.replacement)"
            }
            if byAnchor, added.isEmpty, let block = RemovedBlock(removed: removed) {
                return "block \(block.lines[0].trimmed) \(block.includesCloser)"
            }
            return hunk.lines.compactMap { line in
                switch line {
                case .removed(let text): "-" + text.trimmed
                case .added(let text): "+" + text.trimmed
                case .context: nil
                }
            }.joined(separator: "\n")
        }.sorted()
    }

    // MARK: - One file

    private struct Located {
        var path: String
        /// 0-based index in that file of the hunk's first core line.
        var position: Int
        var hunk: Hunk
        /// The header the hunk had in the old patch.
        var original: String
        /// Which rule found the place.
        var how: String
        /// Placed by an anchor (one token, a block): its removed lines may read differently today.
        var anchored = false
    }

    /// Carries one file's hunks by the strategies above, or refuses.
    static func carry(_ file: FilePatch, reading read: (String) -> String?, files: [String], preimage: String?) -> Result<Carried, Refusal> {
        var located: [Located] = []
        let today = read(file.path).map { TextFile($0).lines } ?? []
        let lineUp = preimage.map { PreimageLineUp(preimage: TextFile($0).lines, today: today) }
        for hunk in file.hunks {
            if hunk.oldHasNoFinalNewline || hunk.newHasNoFinalNewline {
                return .failure(Refusal(reason: "\(file.path): hunk '\(hunk.header)' touches the end of a file without a final newline; it is not carried"))
            }
            let core = Core(hunk)
            if let lineUp, let position = lineUp.place(of: hunk, leading: core.leadingCount, changed: core.oldLines.count),
               let place = core.rebuilt(at: position, in: today)
            {
                located.append(Located(path: file.path, position: position, hunk: place, original: hunk.header, how: "by its preimage (three-way)"))
                continue
            }
            // The file the hunk lands in, read once.
            var path = file.path
            var lines = today
            var found = core.places(in: lines)
            var how = core.isInsertion ? "by the lines around it" : "by its lines"
            if found.isEmpty {
                // Gone from its file: moved to exactly one other file?
                // Only within the same top folder: code of `Sources/` does not move into `Tests/`.
                let top = file.path.split(separator: "/").first
                var elsewhere: [(path: String, lines: [String], places: [Int])] = []
                for other in files where other != file.path && other.split(separator: "/").first == top {
                    guard let text = read(other) else { continue }
                    let otherLines = TextFile(text).lines
                    let places = core.places(in: otherLines)
                    if !places.isEmpty { elsewhere.append((other, otherLines, places)) }
                }
                if elsewhere.count == 1 {
                    (path, lines, found) = elsewhere[0]
                    how += ", moved to another file"
                } else if elsewhere.count > 1 {
                    return .failure(Refusal(reason: "\(file.path): the lines hunk '\(hunk.header)' changes are gone from it and found in \(elsewhere.count) other files",
                                            candidates: elsewhere.prefix(5).map { "\($0.path):\($0.places[0] + 1)" }))
                } else if let anchor = Anchor(core, in: lines) {
                    // One operator or literal, or a removed block, whose own lines were rewritten around it.
                    guard anchor.places.count == 1, let place = anchor.places.first else {
                        let gone = "\(file.path): the lines hunk '\(hunk.header)' changes are gone (\(core.summary)), and "
                        let candidates = anchor.places.isEmpty ? nearest(core, in: file.path, files: files, reading: read)
                            : anchor.places.prefix(5).map { "\(path):\($0.position + 1)" + ($0.likeness.map { " (\(Int(($0 * 100).rounded()))% alike)" } ?? "") }
                        return .failure(Refusal(reason: gone + (anchor.places.isEmpty ? anchor.none : anchor.many(anchor.places.count)), candidates: candidates))
                    }
                    located.append(Located(path: path, position: place.position, hunk: place.hunk, original: hunk.header, how: place.how, anchored: true))
                    continue
                } else {
                    return .failure(Refusal(reason: "\(file.path): the lines hunk '\(hunk.header)' changes are gone (\(core.summary))",
                                            candidates: nearest(core, in: file.path, files: files, reading: read)))
                }
            }
            if let lineUp, path == file.path, !core.isInsertion, !found.isEmpty,
               let own = lineUp.coreLines(of: hunk, leading: core.leadingCount, changed: core.oldLines.count)
            {
                // By the preimage, lines that were already there as other lines are another place.
                let others = found.filter { lineUp.holdsOtherLines($0..<($0 + core.oldLines.count), besides: own) }
                found.removeAll(where: others.contains)
                if found.isEmpty {
                    return .failure(Refusal(reason: "\(file.path): the lines hunk '\(hunk.header)' changes were changed since it was recorded; "
                                                + "the same text elsewhere in the file was already there as other lines (\(core.summary))",
                                            candidates: others.prefix(5).map { "\(path):\($0 + 1)" }))
                }
                if !others.isEmpty { how += ", the preimage ruling out \(others.count) other place(s)" }
            }
            if found.count > 1 {
                // The hunk's own context may tell them apart.
                let scored = found.map { ($0, core.contextScore(at: $0, in: lines)) }
                let best = scored.map(\.1).max() ?? 0
                let winners = scored.filter { $0.1 == best }
                guard winners.count == 1, best > 0 else {
                    return .failure(Refusal(reason: "\(file.path): the lines hunk '\(hunk.header)' changes occur \(found.count) times in \(path), and its context does not tell them apart",
                                            candidates: found.prefix(5).map { "\(path):\($0 + 1)" }))
                }
                found = [winners[0].0]
                how += ", told apart by its context"
            }
            guard let place = core.rebuilt(at: found[0], in: lines) else {
                return .failure(Refusal(reason: "\(file.path): the lines hunk '\(hunk.header)' changes were re-indented unevenly in \(path)"))
            }
            located.append(Located(path: path, position: found[0], hunk: place, original: hunk.header, how: how))
        }
        var patches: [FilePatch] = []
        var moves: [String] = []
        for path in Set(located.map(\.path)).sorted() {
            let here = located.filter { $0.path == path }.sorted { $0.position < $1.position }
            var shift = 0
            var end = 0
            var hunks: [Hunk] = []
            for entry in here {
                var hunk = entry.hunk
                guard hunk.oldStart - 1 >= end else {
                    return .failure(Refusal(reason: "\(file.path): two hunks land on overlapping lines of \(path)"))
                }
                end = hunk.oldStart - 1 + hunk.oldCount
                hunk.newStart = hunk.oldStart + shift
                shift += hunk.newCount - hunk.oldCount
                hunk.header = "@@ -\(hunk.oldStart),\(hunk.oldCount) +\(hunk.newStart),\(hunk.newCount) @@"
                hunks.append(hunk)
                moves.append("\(file.path) '\(entry.original)' -> \(path):\(entry.position + 1) (\(entry.how))")
            }
            patches.append(FilePatch(oldPath: path, newPath: path, hunks: hunks))
        }
        return .success(Carried(patches: patches, moves: moves, anchored: located.contains(where: \.anchored)))
    }

    /// Up to three places in the package most like the hunk's changed lines.
    private static func nearest(_ core: Core, in path: String, files: [String], reading read: (String) -> String?) -> [String] {
        var scored: [(String, Int, Double)] = []
        // The patch's own file, and the files under its top folder that hold one of its lines as it was
        // (code of `Sources/` does not move into `Tests/`, as for a move).
        let wanted = Set(core.anchorLines.map(\.trimmed).filter { !$0.isEmpty })
        let top = path.split(separator: "/").first
        for candidate in [path] + files.filter({ $0 != path && $0.split(separator: "/").first == top }) {
            guard let text = read(candidate) else { continue }
            let lines = TextFile(text).lines
            guard candidate == path || lines.contains(where: { wanted.contains($0.trimmed) }) else { continue }
            for (index, score) in core.similarities(in: lines) where score >= 0.5 {
                scored.append((candidate, index, score))
            }
        }
        return scored.sorted { ($0.2, $1.0, $1.1) > ($1.2, $0.0, $0.1) }.prefix(3)
            .map { "\($0.0):\($0.1 + 1) (\(Int(($0.2 * 100).rounded()))% alike)" }
    }
}

/// Where an anchor puts a hunk whose own lines were rewritten: the one
/// operator or literal it changes (`OneTokenEdit`), or the block it removes
/// (`RemovedBlock`), each place with the hunk it makes there; and how a
/// refusal says that none, or several, were found.
private struct Anchor {
    struct Place {
        var position: Int
        var hunk: Hunk
        var how: String
        var likeness: Double?
    }

    var places: [Place]
    var none: String
    var many: (Int) -> String

    init?(_ core: Core, in lines: [String]) {
        if let edit = core.oneTokenEdit {
            places = edit.places(in: lines).map { place in
                let alike = Int((place.likeness * 100).rounded())
                return Place(position: place.line, hunk: Core.replacing(place.line...place.line, in: lines, with: [edit.applied(to: lines[place.line], at: place.token)]),
                             how: "its one changed `\(edit.original)` anchored by the tokens around it, the line rewritten (\(alike)% alike)",
                             likeness: place.likeness)
            }
            none = "no line like it holds its `\(edit.original)` among the same neighbours"
            many = { "\($0) lines hold its `\(edit.original)` among the same neighbours" }
        } else if let block = core.removedBlock {
            places = block.places(in: lines).map { range in
                Place(position: range.lowerBound, hunk: Core.replacing(range, in: lines),
                      how: "the \(block.includesCloser ? "block" : "branch") anchored by its first line, \(range.count) line(s) today")
            }
            none = "no block opening with its first line holds the others"
            many = { "\($0) blocks open with its first line" }
        } else if core.isInsertion, let insertion = InsertionNeighbours(before: core.leading.last, after: core.trailing.first) {
            places = insertion.places(in: lines).compactMap { place in
                let alike = Int((place.likeness * 100).rounded())
                let how = place.kept == .before ? "the insertion anchored by the line before it, the line after it reworded (\(alike)% alike)"
                    : "the insertion anchored by the line after it, the line before it reworded (\(alike)% alike)"
                return core.rebuilt(at: place.position, in: lines).map { Place(position: place.position, hunk: $0, how: how, likeness: place.likeness) }
            }
            none = "neither of its neighbours stands, as it was, next to a line much like the other"
            many = { "\($0) places hold one of its neighbours next to a line much like the other" }
        } else {
            return nil
        }
    }
}

/// A hunk split into leading context, the core (first to last changed line,
/// with the context between) and trailing context.
private struct Core {
    var leading: [String]
    var core: [Hunk.Line]
    var trailing: [String]

    init(_ hunk: Hunk) {
        let changed = hunk.lines.indices.filter { if case .context = hunk.lines[$0] { false } else { true } }
        let first = changed.first ?? 0, last = changed.last ?? -1
        func text(_ line: Hunk.Line) -> String {
            switch line { case .context(let text), .removed(let text), .added(let text): text }
        }
        leading = hunk.lines[..<first].map(text)
        core = Array(hunk.lines[first...last])
        trailing = hunk.lines[(last + 1)...].map(text)
    }

    /// The core's lines in the old file.
    var oldLines: [String] {
        core.compactMap { if case .added = $0 { nil } else { $0.text } }
    }

    var anchorLines: [String] { anchor.lines }

    /// The one operator or literal the core changes, when it is one line
    /// replaced by one line that differs from it in that token alone.
    var oneTokenEdit: OneTokenEdit? {
        guard core.count == 2, case .removed(let removed) = core[0], case .added(let added) = core[1] else { return nil }
        return OneTokenEdit(removed: removed, added: added)
    }

    /// The block or branch the core removes, when it removes one and nothing else.
    var removedBlock: RemovedBlock? {
        let removed = core.compactMap { if case .removed(let text) = $0 { text } else { nil } }
        guard removed.count == core.count else { return nil }
        return RemovedBlock(removed: removed)
    }

    /// A hunk that replaces lines `range` of `lines` with `added` (none: it
    /// removes them), with today's three lines of context either side.
    static func replacing(_ range: ClosedRange<Int>, in lines: [String], with added: [String] = []) -> Hunk {
        let before = Array(lines[max(0, range.lowerBound - 3)..<range.lowerBound])
        let after = Array(lines[(range.upperBound + 1)..<min(lines.count, range.upperBound + 4)])
        let body: [Hunk.Line] = before.map { .context($0) } + lines[range].map { .removed($0) } + added.map { .added($0) } + after.map { .context($0) }
        return Hunk(header: "", oldStart: range.lowerBound - before.count + 1, oldCount: before.count + range.count + after.count, newStart: 0,
                    newCount: before.count + added.count + after.count, lines: body)
    }

    /// How many context lines come before the first changed line.
    var leadingCount: Int { leading.count }

    var isInsertion: Bool { oldLines.isEmpty }

    /// The text looked for: the core's old lines, or for a pure insertion
    /// the lines on either side of it.
    private var anchor: (lines: [String], offset: Int) {
        if !oldLines.isEmpty { return (oldLines, 0) }
        return ((leading.last.map { [$0] } ?? []) + (trailing.first.map { [$0] } ?? []), leading.isEmpty ? 0 : 1)
    }

    var summary: String {
        oldLines.isEmpty ? "an insertion between \(anchor.lines.map { "'\($0.trimmed)'" }.joined(separator: " and "))"
            : "'\(oldLines.first { !$0.trimmed.isEmpty }?.trimmed ?? "")'" + (oldLines.count > 1 ? " and \(oldLines.count - 1) more line(s)" : "")
    }

    /// 0-based positions of the core's first old line where the anchor
    /// occurs in `lines`, indentation and trailing spaces aside.
    func places(in lines: [String]) -> [Int] {
        let (needle, offset) = anchor
        guard !needle.isEmpty, needle.contains(where: { !$0.trimmed.isEmpty }), lines.count >= needle.count else { return [] }
        let wanted = needle.map(\.trimmed)
        return (0...(lines.count - needle.count)).filter { start in
            wanted.indices.allSatisfy { lines[start + $0].trimmed == wanted[$0] }
        }.map { $0 + offset }
    }

    /// How many of the hunk's context lines stand next to the core at
    /// `position`; only lines with a letter or digit count (a closing brace
    /// or a blank line tells nothing apart).
    func contextScore(at position: Int, in lines: [String]) -> Int {
        let before = leading.reversed().enumerated().filter { index, text in
            text.tellsAPlace && position - 1 - index >= 0 && lines[position - 1 - index].trimmed == text.trimmed
        }.count
        let after = position + oldLines.count
        let following = trailing.enumerated().filter { index, text in
            text.tellsAPlace && after + index < lines.count && lines[after + index].trimmed == text.trimmed
        }.count
        return before + following
    }

    /// For each position, how alike the lines there are to the anchor
    /// (0...1), each line weighed by its length: a long line that matches
    /// says more than a closing brace.
    func similarities(in lines: [String]) -> [(Int, Double)] {
        let needle = anchor.lines.map(\.trimmed)
        let total = Double(needle.map { max($0.count, 1) }.reduce(0, +))
        guard !needle.isEmpty, lines.count >= needle.count else { return [] }
        return (0...(lines.count - needle.count)).map { start in
            let score = needle.indices.map { Suggestion.likeness(needle[$0], lines[start + $0].trimmed) * Double(max(needle[$0].count, 1)) }
                .reduce(0, +) / total
            return (start + anchor.offset, score)
        }
    }

    /// The hunk rebuilt at `position` of `lines`: context and removed lines
    /// as they read today, added lines moved by the same change of
    /// indentation as the lines they sit among; nil when the old lines'
    /// indentation did not all change the same way.
    func rebuilt(at position: Int, in lines: [String]) -> Hunk? {
        let old = oldLines
        var shift: (from: String, to: String)?
        for (index, text) in old.enumerated() where !text.trimmed.isEmpty {
            let from = text.indentation, to = lines[position + index].indentation
            if let shift, (shift.from, shift.to) != (from, to), !Core.sameShift(shift, (from, to)) { return nil }
            shift = shift ?? (from, to)
        }
        if shift == nil, old.isEmpty, let neighbour = leading.last ?? trailing.first {
            // A pure insertion: its neighbours say how far it moved.
            let index = leading.isEmpty ? position : position - 1
            if index >= 0, index < lines.count { shift = (neighbour.indentation, lines[index].indentation) }
        }
        func moved(_ text: String) -> String {
            guard let shift, !text.trimmed.isEmpty, text.hasPrefix(shift.from) else { return text }
            return shift.to + text.dropFirst(shift.from.count)
        }
        let contextBefore = Array(lines[max(0, position - 3)..<position])
        let contextAfter = Array(lines[min(lines.count, position + old.count)..<min(lines.count, position + old.count + 3)])
        var result: [Hunk.Line] = contextBefore.map { .context($0) }
        var cursor = position
        for line in core {
            switch line {
            case .context:
                result.append(.context(lines[cursor]))
                cursor += 1
            case .removed:
                result.append(.removed(lines[cursor]))
                cursor += 1
            case .added(let text):
                result.append(.added(moved(text)))
            }
        }
        result += contextAfter.map { .context($0) }
        let oldCount = result.filter { if case .added = $0 { false } else { true } }.count
        let newCount = result.filter { if case .removed = $0 { false } else { true } }.count
        return Hunk(header: "", oldStart: position - contextBefore.count + 1, oldCount: oldCount, newStart: 0, newCount: newCount, lines: result)
    }

    /// Two indentation changes that add or remove the same white space.
    private static func sameShift(_ a: (from: String, to: String), _ b: (from: String, to: String)) -> Bool {
        if a.to.hasPrefix(a.from), b.to.hasPrefix(b.from) { return a.to.dropFirst(a.from.count) == b.to.dropFirst(b.from.count) }
        if a.from.hasPrefix(a.to), b.from.hasPrefix(b.to) { return a.from.dropFirst(a.to.count) == b.from.dropFirst(b.to.count) }
        return false
    }
}

private extension Hunk.Line {
    var text: String {
        switch self { case .context(let text), .removed(let text), .added(let text): text }
    }
}

extension String {
    /// Whether the line or token holds a letter or digit: a brace, a `.` or
    /// a blank line tells no place from another.
    var tellsAPlace: Bool { contains { $0.isLetter || $0.isNumber } }

    /// Without leading and trailing spaces and tabs.
    var trimmed: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }

    /// The leading spaces and tabs.
    var indentation: String { String(prefix { $0 == " " || $0 == "\t" }) }
}
