/// The insertion anchor of `mutate rebase`: a patch that only inserts
/// lines, whose two neighbours are no longer side by side because one of
/// them was reworded (a message changed, an argument added), carried when
/// exactly one place of today's file has the other neighbour as it was,
/// a line that says something (a letter or digit: not a lone brace), next
/// to a line much like the reworded one.
///
/// An insertion whose exact neighbour is only a brace, or whose other
/// neighbour was rewritten rather than reworded, stays stale: its place is
/// not the same edit any more.
struct InsertionNeighbours: Equatable {
    /// The line the insertion follows and the line it goes before, indentation aside.
    var before: String
    var after: String

    /// How alike (1 - edit distance / length, indentation aside) the
    /// reworded neighbour must be to the one the patch has: the bar of the
    /// one-token anchor (`OneTokenEdit.likenessNeeded`).
    static let likenessNeeded = OneTokenEdit.likenessNeeded

    /// Which neighbour is today's line as it was.
    enum Kept: Equatable {
        case before
        case after
    }

    /// One place: the insertion goes before line `position` (0-based).
    struct Place: Equatable {
        var position: Int
        var kept: Kept
        /// How alike the other neighbour is to the one the patch has.
        var likeness: Double
    }

    /// The anchor of an insertion between `before` and `after`; nil when it
    /// lacks a neighbour on either side (the top or the end of a file).
    init?(before: String?, after: String?) {
        guard let before, let after else { return nil }
        self.before = before.trimmed
        self.after = after.trimmed
    }

    /// Every place of `lines` where one neighbour is as it was and says
    /// something, and the other is `likenessNeeded` alike, in the file's
    /// order. (A place where both are as they were is the insertion found
    /// by its lines, before this anchor is tried.)
    func places(in lines: [String]) -> [Place] {
        lines.indices.dropFirst().compactMap { position in
            let above = lines[position - 1].trimmed, below = lines[position].trimmed
            if above == before, before.tellsAPlace {
                let likeness = Suggestion.likeness(after, below)
                return likeness >= Self.likenessNeeded ? Place(position: position, kept: .before, likeness: likeness) : nil
            }
            if below == after, after.tellsAPlace {
                let likeness = Suggestion.likeness(before, above)
                return likeness >= Self.likenessNeeded ? Place(position: position, kept: .after, likeness: likeness) : nil
            }
            return nil
        }
    }
}
