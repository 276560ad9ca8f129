import Foundation
import Testing
@testable import MutationHarness

/// `SourceDigests` at its edges: a map whose lines start before the file
/// or run past it, a function of two lines (no body), the line after a
/// function, and which function holds a line when they nest.
struct SourceDigestsTests {
    /// Four lines: `f` (1-3), then a declaration that ends the file (no
    /// line break after it: the lexer counts an empty fifth line otherwise).
    private static let text = "func f() {\n    a()\n}\nlet y = 2"

    private func digests(_ text: String, _ spans: [Int: ClosedRange<Int>]) -> SourceDigests {
        SourceDigests(source: Array(text.utf8), fallback: "whole", functions: spans.mapValues {
            .init(name: "f", file: "S.swift", firstLine: $0.lowerBound, lastLine: $0.upperBound, count: 1)
        })
    }

    /// A stale map's lines before the first or past the last count for
    /// nothing; the file's last line counts like any other.
    @Test func linesOutsideTheFileCountForNothing() {
        let stale = digests(Self.text, [0: 0...2, 1: 3...9])
        #expect(stale.functions[0] == digests(Self.text, [0: 1...2]).functions[0])
        #expect(stale.functions[1] == digests(Self.text, [1: 3...4]).functions[1])
        let edited = digests(Self.text.replacingOccurrences(of: "y = 2", with: "y = 3"), [0: 0...2, 1: 3...9])
        #expect(edited.functions[1] != stale.functions[1] && edited.functions[0] == stale.functions[0])
    }

    /// A function's first and last lines are outside its body, and so is
    /// every line after it; a function of two lines has no body at all.
    @Test func theLinesAroundABodyAreTheRestOfTheFile() {
        let spans = [0: 1...3]
        let base = digests(Self.text, spans)
        #expect(digests(Self.text.replacingOccurrences(of: "y = 2", with: "y = 3"), spans).outside != base.outside, "the line after f")
        #expect(digests(Self.text.replacingOccurrences(of: "a()", with: "b()"), spans).outside == base.outside, "f's body")
        let twoLines = "func g() {\n}\nlet y = 2\n"
        let noBody = digests(twoLines, [0: 1...2])
        #expect(digests(twoLines.replacingOccurrences(of: "{\n}", with: "{\n};"), [0: 1...2]).outside != noBody.outside)
    }

    /// The innermost function whose body holds the lines: not one whose
    /// last line they reach.
    @Test func theInnermostBodyHoldsALine() {
        let nested = digests(Self.text, [0: 1...10, 1: 3...6, 2: 2...4])
        #expect(nested.function(holding: [4])?.index == 1 && nested.function(holding: [3])?.index == 2)
        #expect(nested.function(holding: [6])?.index == 0 && nested.function(holding: [10]) == nil)
    }
}
