/// Today's file lined up with the preimage a patch was recorded against
/// (the blob its `index` line names): where a hunk of that patch lands
/// today, as a three-way merge places it, or nil where a merge would
/// conflict or could not tell.
struct PreimageLineUp {
    let preimage: [String]
    /// For each preimage line, its index in today's file when it is kept
    /// there unchanged (`LineDiff.matches`).
    let kept: [Int?]

    init(preimage: [String], today: [String]) {
        self.preimage = preimage
        kept = LineDiff.matches(preimage, today)
    }

    /// The 0-based position in today's file of the hunk's first changed
    /// line (for a pure insertion, the line it goes before). The hunk must
    /// apply to the preimage exactly where its header says, and today's
    /// file must have kept its `changed` old lines (after `leading` lines of
    /// context) and the line on either side of them unchanged and together;
    /// for an insertion, the lines on either side of it, still next to each
    /// other.
    func place(of hunk: Hunk, leading: Int, changed: Int) -> Int? {
        guard let core = coreLines(of: hunk, leading: leading, changed: changed) else { return nil }
        let first = core.lowerBound
        if changed > 0 {
            // Its lines and the line on either side kept, in the same order
            // and next to each other: a change beside the mutant's is a
            // conflict, as in a merge.
            guard let position = kept[first] else { return nil }
            for offset in -1...changed where (0..<preimage.count).contains(first + offset) {
                guard kept[first + offset] == position + offset else { return nil }
            }
            return position
        }
        let before = first > 0 ? kept[first - 1] : nil
        let after = first < preimage.count ? kept[first] : nil
        if first > 0, before == nil { return nil }
        if first < preimage.count, after == nil { return nil }
        if let before, let after, after != before + 1 { return nil }
        return before.map { $0 + 1 } ?? after
    }

    /// The preimage lines (0-based) of the hunk's changed lines (after
    /// `leading` lines of context), when the hunk applies to the preimage
    /// exactly where its header says; nil otherwise. A hunk with no old
    /// lines at all (`-5,0`) counts its lines differently and is not placed.
    func coreLines(of hunk: Hunk, leading: Int, changed: Int) -> Range<Int>? {
        let old = hunk.oldLines
        let start = hunk.oldStart - 1
        guard !old.isEmpty, start >= 0, start + old.count <= preimage.count,
              Array(preimage[start..<(start + old.count)]) == old
        else { return nil }
        return (start + leading)..<(start + leading + changed)
    }

    /// Whether any of today's lines `range` is a preimage line kept from
    /// outside `own` (0-based preimage lines): such lines were already
    /// there, as other lines, when the patch was recorded.
    func holdsOtherLines(_ range: Range<Int>, besides own: Range<Int>) -> Bool {
        kept.indices.contains { index in
            guard let today = kept[index] else { return false }
            return range.contains(today) && !own.contains(index)
        }
    }
}
