import Testing
@testable import MutationHarness

/// Where `rebase`'s preimage strategy places a hunk in today's file, as a
/// three-way merge would: only where the hunk's own lines and their
/// neighbours were kept together; nowhere when a change sits beside them.
struct PreimageLineUpTests {
    private static let preimage = ["a", "b", "c", "d", "e"]

    private static func hunk(at oldStart: Int, _ lines: [Hunk.Line]) -> Hunk {
        let old = lines.filter { if case .added = $0 { false } else { true } }.count
        let new = lines.filter { if case .removed = $0 { false } else { true } }.count
        return Hunk(header: "@@", oldStart: oldStart, oldCount: old, newStart: oldStart, newCount: new, lines: lines)
    }

    private static func place(_ hunk: Hunk, leading: Int, changed: Int, today: [String]) -> Int? {
        PreimageLineUp(preimage: preimage, today: today).place(of: hunk, leading: leading, changed: changed)
    }

    /// `c` changed, with `b` and `d` around it.
    private static let change = hunk(at: 2, [.context("b"), .removed("c"), .added("C"), .context("d")])

    @Test(arguments: [
        (["a", "b", "c", "d", "e"], 2),
        (["x", "y", "a", "b", "c", "d", "e"], 4),
        (["b", "c", "d"], 1),
        (["a", "B", "c", "d", "e"], nil),
        (["a", "b", "c", "D", "e"], nil),
        (["a", "b", "d", "e"], nil),
        (["a", "b", "z", "c", "d", "e"], nil),
        (["a", "b", "c", "z", "d", "e"], nil),
    ] as [([String], Int?)])
    func aChangedLineIsPlacedOnlyWithItsNeighboursKept(today: [String], expected: Int?) {
        #expect(Self.place(Self.change, leading: 1, changed: 1, today: today) == expected, "\(today)")
    }

    @Test func aChangeAtEitherEndOfTheFileHasOneNeighbour() {
        let first = Self.hunk(at: 1, [.removed("a"), .added("A"), .context("b")])
        #expect(Self.place(first, leading: 0, changed: 1, today: ["q", "a", "b", "c", "d", "e"]) == 1)
        #expect(Self.place(first, leading: 0, changed: 1, today: ["a", "B", "c", "d", "e"]) == nil)
        let last = Self.hunk(at: 4, [.context("d"), .removed("e"), .added("E")])
        #expect(Self.place(last, leading: 1, changed: 1, today: ["a", "b", "c", "d", "e", "z"]) == 4)
        #expect(Self.place(last, leading: 1, changed: 1, today: ["a", "b", "c", "D", "e"]) == nil)
        // Two changed lines: both kept, in order and together.
        // The first line's neighbour is the file's first line: it must be kept too.
        let second = Self.hunk(at: 1, [.context("a"), .removed("b"), .added("B"), .context("c")])
        #expect(Self.place(second, leading: 1, changed: 1, today: ["a", "b", "c", "d", "e"]) == 1)
        #expect(Self.place(second, leading: 1, changed: 1, today: ["A", "b", "c", "d", "e"]) == nil)
        let two = Self.hunk(at: 2, [.context("b"), .removed("c"), .removed("d"), .added("CD"), .context("e")])
        #expect(Self.place(two, leading: 1, changed: 2, today: ["q", "a", "b", "c", "d", "e"]) == 3)
        #expect(Self.place(two, leading: 1, changed: 2, today: ["a", "b", "c", "x", "d", "e"]) == nil)
    }

    /// An insertion goes between the lines on either side of it, which
    /// must still be there and next to each other (at the file's ends, the one there is).
    @Test(arguments: [
        (2, ["a", "b", "c", "d", "e"], 2),
        (2, ["x", "y", "a", "b", "c", "d", "e"], 4),
        (2, ["a", "B", "c", "d", "e"], nil),
        (2, ["a", "b", "C", "d", "e"], nil),
        (2, ["a", "b", "z", "c", "d", "e"], nil),
        (1, ["a", "b", "c", "d", "e"], 1),
        (1, ["A", "b", "c", "d", "e"], nil),
        (0, ["q", "a", "b", "c", "d", "e"], 1),
        (0, ["A", "b", "c", "d", "e"], nil),
        (5, ["q", "a", "b", "c", "d", "e"], 6),
        (5, ["a", "b", "c", "d", "E"], nil),
    ] as [(Int, [String], Int?)])
    func anInsertionGoesBetweenItsNeighboursStillTogether(before: Int, today: [String], expected: Int?) {
        // `X` inserted before preimage line `before` (0-based), with one line of context on each side where there is one.
        var lines: [Hunk.Line] = before > 0 ? [.context(Self.preimage[before - 1])] : []
        lines.append(.added("X"))
        if before < Self.preimage.count { lines.append(.context(Self.preimage[before])) }
        let hunk = Self.hunk(at: max(1, before), lines)
        #expect(Self.place(hunk, leading: before > 0 ? 1 : 0, changed: 0, today: today) == expected, "\(before) \(today)")
    }

    /// A hunk that does not apply to the preimage where its header says is not placed at all.
    @Test func aHunkThatDoesNotFitThePreimageIsNotPlaced() {
        let lineUp = PreimageLineUp(preimage: Self.preimage, today: Self.preimage)
        #expect(lineUp.coreLines(of: Self.change, leading: 1, changed: 1) == 2..<3)
        let shifted = Self.hunk(at: 3, [.context("b"), .removed("c"), .added("C"), .context("d")])
        #expect(lineUp.coreLines(of: shifted, leading: 1, changed: 1) == nil)
        #expect(lineUp.coreLines(of: Self.hunk(at: 4, [.context("d"), .context("e"), .removed("f")]), leading: 2, changed: 1) == nil, "past the end")
        #expect(lineUp.coreLines(of: Self.hunk(at: 0, [.removed("a")]), leading: 0, changed: 1) == nil, "before the start")
        #expect(lineUp.coreLines(of: Self.hunk(at: 0, [.added("X")]), leading: 0, changed: 0) == nil, "no old line")
        #expect(lineUp.coreLines(of: Self.hunk(at: 1, [.added("X")]), leading: 0, changed: 0) == nil, "no old line, at the first")
        #expect(lineUp.coreLines(of: Self.hunk(at: 5, [.removed("e")]), leading: 0, changed: 1) == 4..<5, "the last line")
    }

    /// Today's lines that were other preimage lines, not the hunk's own.
    @Test func linesKeptFromElsewhereAreTold() {
        let today = ["a", "b", "N", "c", "d", "e"]
        let lineUp = PreimageLineUp(preimage: Self.preimage, today: today)
        #expect(!lineUp.holdsOtherLines(1..<2, besides: 1..<2), "b is the hunk's own")
        #expect(lineUp.holdsOtherLines(0..<2, besides: 1..<2), "a is not")
        #expect(!lineUp.holdsOtherLines(2..<3, besides: 0..<0), "N is no preimage line")
        #expect(lineUp.holdsOtherLines(3..<4, besides: 1..<2), "c, now at 3")
        #expect(!lineUp.holdsOtherLines(3..<4, besides: 2..<3))
        // A preimage line gone today holds no line.
        let gone = PreimageLineUp(preimage: Self.preimage, today: ["a", "c", "d", "e"])
        #expect(!gone.holdsOtherLines(0..<1, besides: 0..<1))
        #expect(gone.holdsOtherLines(1..<2, besides: 0..<1), "c, now at 1")
    }
}
