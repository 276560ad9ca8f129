import Testing
@testable import MutationHarness

/// The line diff behind `rebase`'s dry run and its preimage strategy,
/// checked against every pair of short texts over two letters: `matches`
/// keeps a longest common subsequence, and the full diff rebuilds both texts.
struct LineDiffTests {
    /// Every text of up to `length` lines drawn from `a` and `b`.
    private static func texts(upTo length: Int) -> [[String]] {
        var all: [[String]] = [[]]
        var last: [[String]] = [[]]
        for _ in 0..<length {
            last = last.flatMap { [$0 + ["a"], $0 + ["b"]] }
            all += last
        }
        return all
    }

    /// The longest common subsequence's length, by plain recursion (the texts are short).
    private static func commonLength(_ old: ArraySlice<String>, _ new: ArraySlice<String>) -> Int {
        guard let first = old.first, let other = new.first else { return 0 }
        if first == other { return 1 + commonLength(old.dropFirst(), new.dropFirst()) }
        return max(commonLength(old.dropFirst(), new), commonLength(old, new.dropFirst()))
    }

    @Test func eachLineKeptIsALongestCommonSubsequence() {
        let texts = Self.texts(upTo: 4)
        var wrong: [String] = []
        for old in texts {
            for new in texts {
                let matches = LineDiff.matches(old, new)
                let pairs = matches.enumerated().compactMap { index, match in match.map { (index, $0) } }
                let inOrder = zip(pairs, pairs.dropFirst()).allSatisfy { $0.0 < $1.0 && $0.1 < $1.1 }
                let same = pairs.allSatisfy { old[$0.0] == new[$0.1] }
                if matches.count != old.count || !inOrder || !same || pairs.count != Self.commonLength(old[...], new[...]) {
                    wrong.append("\(old) -> \(new): \(matches)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test func theWholeDiffRebuildsBothTexts() {
        let texts = Self.texts(upTo: 4)
        var wrong: [String] = []
        for old in texts {
            for new in texts {
                let lines = LineDiff.unified(old, new, context: 10)
                let kept = lines.filter { !$0.hasPrefix("+") }.map { String($0.dropFirst()) }
                let made = lines.filter { !$0.hasPrefix("-") }.map { String($0.dropFirst()) }
                let changes = lines.filter { !$0.hasPrefix(" ") }.count
                let expected = old.count + new.count - 2 * Self.commonLength(old[...], new[...])
                if old == new ? !lines.isEmpty : (kept != old || made != new || changes != expected || lines.contains("@@")) {
                    wrong.append("\(old) -> \(new): \(lines)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// Three lines of context by default, `@@` between changes further apart.
    @Test func changesShowThreeLinesAroundThem() {
        let old = (1...12).map { "l\($0)" }
        var new = old
        new[0] = "L1"
        new[11] = "L12"
        #expect(LineDiff.unified(old, new) == ["-l1", "+L1", " l2", " l3", " l4", "@@", " l9", " l10", " l11", "-l12", "+L12"])
        new[5] = "L6"
        #expect(LineDiff.unified(old, new, context: 1) == ["-l1", "+L1", " l2", "@@", " l5", "-l6", "+L6", " l7", "@@", " l11", "-l12", "+L12"])
        #expect(LineDiff.unified(old, new).contains("@@") == false, "with three lines, the changes' context touches")
    }
}
