import Foundation
import Testing
@testable import MutationHarness

/// `PatchRebaser` at its edges: indentation that moved by the same amount
/// or not, a hunk at either end of a file, places its context tells apart,
/// hunks that land on each other, the headers of the hunks it writes, the
/// nearest candidates a refusal names and the patches it never carries.
struct PatchRebaserEdgeTests {
    private static let path = "Sources/P/Policy.swift"

    /// `lines` as a file, each with its line break.
    private static func file(_ lines: [String]) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    /// A patch of `path` with these hunks (their lines, header first).
    private static func patch(_ hunks: [String]...) -> String {
        "--- a/\(path)\n+++ b/\(path)\n" + hunks.map(file).joined()
    }

    private func rebase(_ files: [String: String], patch: String) throws -> PatchRebaser.Outcome {
        PatchRebaser.rebase(try DiffParser.parse(patch), reading: { files[$0] }, files: files.keys.sorted())
    }

    /// The diff the rebase carried, or nil (recorded) when it did not.
    private func carried(_ outcome: PatchRebaser.Outcome) -> UnifiedDiff? {
        guard case .rebased(let diff, _) = outcome else {
            Issue.record("not carried: \(outcome)")
            return nil
        }
        return diff
    }

    /// The text `diff` makes of `file`'s `today`.
    private func applied(_ diff: UnifiedDiff, to today: String, at file: String = path) -> String? {
        guard case .success(let changes) = diff.changes(reading: { $0 == file ? today : nil }) else { return nil }
        return changes.first { $0.path == file }?.content ?? nil
    }

    private func refusal(_ outcome: PatchRebaser.Outcome) -> PatchRebaser.Refusal? {
        guard case .refused(let refusal) = outcome else {
            Issue.record("carried: \(outcome)")
            return nil
        }
        return refusal
    }

    @Test func trimmingAndIndentationTakeSpacesAndTabsFromBothEnds() {
        #expect("\t  a b \t ".trimmed == "a b" && " \t ".trimmed == "" && "a".trimmed == "a")
        #expect(" \t x y ".indentation == " \t " && "x ".indentation == "")
    }

    // MARK: - Indentation

    /// Two changed lines, eight and twelve spaces deep, `429` made `430`.
    private static let twoDeep = patch([
        "@@ -2,4 +2,4 @@",
        "     static func retries(_ status: Int) -> Bool {",
        "-        if status == 429 {",
        "-            return true",
        "+        if status == 430 {",
        "+            return true",
        "         }",
    ])

    /// Lines re-indented by the same white space added or removed are
    /// carried, with the added lines moved as far; lines that moved by
    /// different amounts, or from spaces to tabs, are refused.
    @Test(arguments: [
        ("            ", "                ", true),
        ("    ", "        ", true),
        ("    ", "            ", false),
        ("            ", "            ", false),
        ("            ", "        ", false),
        ("\t", "     ", false),
        ("            ", "\t               ", false),
        ("    ", "\t\t\t\t\t\t\t\t", false),
    ])
    func linesMovedTogetherAreCarriedAndOthersRefused(first: String, second: String, carried expected: Bool) throws {
        let today = Self.file(["// header", "enum Policy {", "    static func retries(_ status: Int) -> Bool {", first + "if status == 429 {",
                               second + "return true", "        }", "        return status >= 500", "    }", "}"])
        let outcome = try rebase([Self.path: today], patch: Self.twoDeep)
        guard expected else {
            #expect(refusal(outcome)?.reason.hasSuffix("were re-indented unevenly in \(Self.path)") == true, "\(outcome)")
            return
        }
        guard let diff = carried(outcome) else { return }
        #expect(applied(diff, to: today) == today.replacingOccurrences(of: "429", with: "430"))
        // Three lines of today's context either side, numbered from the file's first line.
        #expect(diff.files[0].hunks.map(\.header) == ["@@ -1,8 +1,8 @@"])
    }

    /// A pure insertion takes the indentation change of the line above it
    /// (not the one below, which may sit deeper); at a file's first line,
    /// of the line below.
    @Test func anInsertionMovesAsTheLineAboveItOrAtTheTopTheLineBelow() throws {
        let insertion = Self.patch([
            "@@ -2,2 +2,3 @@",
            "     static func retries(_ status: Int) -> Bool {",
            "+        if status == 400 { return true }",
            "         if status == 429 { return true }",
        ])
        let today = Self.file(["// header", "    enum Policy {", "        static func retries(_ status: Int) -> Bool {",
                               "            if status == 429 { return true }", "        }", "    }"])
        let diff = try #require(carried(try rebase([Self.path: today], patch: insertion)))
        #expect(applied(diff, to: today) == today.replacingOccurrences(of: "Bool {\n", with: "Bool {\n            if status == 400 { return true }\n"))

        let atTop = Self.patch(["@@ -1,2 +1,3 @@", "+  w = 0", "   x = 1", "   y = 2"])
        let indented = Self.file(["    x = 1", "    y = 2"])
        let top = try #require(carried(try rebase([Self.path: indented], patch: atTop)))
        #expect(applied(top, to: indented) == "    w = 0\n" + indented)
    }

    // MARK: - The insertion anchor

    /// An early exit inserted after a `guard`, whose next line's message was
    /// since reworded: placed after the `guard`, the one place where it stands
    /// next to a line much like the old one.
    private static let earlyExit = patch([
        "@@ -2,3 +2,4 @@",
        "     guard let header = decode(data), header.format == name else {",
        "+        return nil",
        "         throw FileError(reason: \"\\(path) is not a results file of `mutate explore`: not touched\")",
        "     }",
    ])

    @Test func anInsertionWhoseNextLineWasRewordedFollowsTheLineBeforeIt() throws {
        let today = Self.file(["// header", "    let other = 1", "    guard let header = decode(data), header.format == name else {",
                               "        throw FileError(reason: \"\\(path) is not a results file of `mutate` or `mutate explore`: not touched\")", "    }"])
        let outcome = try rebase([Self.path: today], patch: Self.earlyExit)
        let diff = try #require(carried(outcome))
        #expect(applied(diff, to: today) == today.replacingOccurrences(of: "name else {\n", with: "name else {\n        return nil\n"))
        guard case .rebased(_, let moves) = outcome else { return }
        #expect(moves.count == 1 && moves[0].hasSuffix("(the insertion anchored by the line before it, the line after it reworded (88% alike))"), "\(moves)")

        // The line before it reworded, the one after it as it was.
        let insertion = Self.patch(["@@ -1,2 +1,3 @@", "     let total = values.reduce(0, +) // sum", "+    log(total)", "     return total * scale"])
        let reworded = Self.file(["    let total = values.reduce(0, +) // the sum", "    return total * scale"])
        let after = try rebase([Self.path: reworded], patch: insertion)
        #expect(applied(try #require(carried(after)), to: reworded) == reworded.replacingOccurrences(of: "sum\n", with: "sum\n    log(total)\n"))
        guard case .rebased(_, let afterMoves) = after else { return }
        #expect(afterMoves.first?.contains("anchored by the line after it, the line before it reworded") == true, "\(afterMoves)")
    }

    /// Three quarters alike is alike enough, whichever neighbour was reworded.
    @Test func anInsertionIsCarriedByEitherNeighbourWithTheOtherThreeQuartersAlike() throws {
        let guarded = Self.patch(["@@ -1,2 +1,3 @@", "     guard ok else {", "+        log()", "         call(ab)"])
        let first = try rebase([Self.path: Self.file(["    guard ok else {", "        call(xy)"])], patch: guarded)
        guard case .rebased(let diff, let moves) = first else { Issue.record("not carried: \(first)"); return }
        #expect(applied(diff, to: Self.file(["    guard ok else {", "        call(xy)"])) == Self.file(["    guard ok else {", "        log()", "        call(xy)"]))
        #expect(moves.first?.hasSuffix("anchored by the line before it, the line after it reworded (75% alike))") == true, "\(moves)")

        let returning = Self.patch(["@@ -1,2 +1,3 @@", "     call(ab)", "+    log()", "     return total"])
        let second = try rebase([Self.path: Self.file(["    call(xy)", "    return total"])], patch: returning)
        guard case .rebased(let secondDiff, let secondMoves) = second else { Issue.record("not carried: \(second)"); return }
        #expect(applied(secondDiff, to: Self.file(["    call(xy)", "    return total"])) == Self.file(["    call(xy)", "    log()", "    return total"]))
        #expect(secondMoves.first?.hasSuffix("anchored by the line after it, the line before it reworded (75% alike))") == true, "\(secondMoves)")
    }

    /// The insertion anchor carries nothing it cannot place for certain:
    /// a neighbour kept only as a lone brace, another neighbour rewritten
    /// rather than reworded, or two places that fit.
    @Test func anInsertionIsNotCarriedByABraceARewrittenNeighbourOrTwoPlaces() throws {
        let braceFirst = Self.patch(["@@ -1,2 +1,3 @@", "     }", "+    close(listener)", "     state.unlock()"])
        let braceLast = Self.patch(["@@ -1,2 +1,3 @@", "     state.unlock()", "+    close(listener)", "     }"])
        for (patch, today) in [(braceFirst, ["    }", "    state.unlock(true)"]), (braceLast, ["    state.unlock(true)", "    }"])] {
            let brace = try #require(refusal(try rebase([Self.path: Self.file(today)], patch: patch)))
            #expect(brace.reason.hasSuffix("neither of its neighbours stands, as it was, next to a line much like the other"), "a lone brace kept, the other 78% alike: \(brace)")
        }
        let rewrittenBefore = Self.patch(["@@ -1,2 +1,3 @@", "     call(ab)", "+    log()", "     return total"])
        let before = try #require(refusal(try rebase([Self.path: Self.file(["    call(something else)", "    return total"])], patch: rewrittenBefore)))
        #expect(before.reason.hasSuffix("neither of its neighbours stands, as it was, next to a line much like the other"), "\(before)")

        // 66% alike: rewritten, not reworded.
        let rewritten = Self.file(["// header", "    guard let header = decode(data), header.format == name else {",
                                   "        throw FileError(reason: \"\\(path) holds no results of `mutate`: left as it is\")", "    }"])
        let gone = try #require(refusal(try rebase([Self.path: rewritten], patch: Self.earlyExit)))
        #expect(gone.reason.hasSuffix("neither of its neighbours stands, as it was, next to a line much like the other"), "\(gone)")

        let twice = Self.file(["    guard let header = decode(data), header.format == name else {",
                               "        throw FileError(reason: \"\\(path) is not a results file of `mutate` or `mutate explore`: not touched\")", "    }",
                               "    guard let header = decode(data), header.format == name else {",
                               "        throw FileError(reason: \"\\(path) is not a results file of `mutate` or `mutate explorer`: not touched\")", "    }"])
        let two = try #require(refusal(try rebase([Self.path: twice], patch: Self.earlyExit)))
        #expect(two.reason.hasSuffix("2 places hold one of its neighbours next to a line much like the other"), "\(two)")
        #expect(two.candidates == ["\(Self.path):2 (88% alike)", "\(Self.path):5 (87% alike)"], "best first: \(two.candidates)")

        // A file that is gone holds no place.
        let missing = try #require(refusal(try rebase(["Sources/P/Other.swift": "let other = 1\n"], patch: Self.earlyExit)))
        #expect(missing.reason.contains("changes are gone"), "\(missing)")

        // A line changed in two places is no insertion: where it is gone, its neighbours standing side by side do not carry it.
        let twoTokens = Self.patch(["@@ -1,3 +1,3 @@", "     guard let header = decode(data), header.format == name else {",
                                    "-        if status >= 500 && retries < 3 { return nil }", "+        if status >= 400 && retries < 5 { return nil }",
                                    "         throw FileError(reason: \"\\(path) is not a results file of `mutate explore`: not touched\")"])
        let since = Self.file(["    guard let header = decode(data), header.format == name else {",
                               "        throw FileError(reason: \"\\(path) is not a results file of `mutate` or `mutate explore`: not touched\")", "    }"])
        let changed = try #require(refusal(try rebase([Self.path: since], patch: twoTokens)))
        #expect(changed.reason.contains("changes are gone"), "\(changed)")
    }

    /// Lines of one depth moved from spaces to a tab are carried, the added
    /// lines moved with them and the unchanged line between them as it reads
    /// today; an added line that is blank, or shallower than the old lines,
    /// is kept as it was written.
    @Test func linesOfOneDepthMovedToTabsAreCarried() throws {
        let patch = Self.patch(["@@ -2,5 +2,7 @@", " func f() {", "-        a = 1", "+        a = 2", "+        ", "+    // shallow", "         keep()",
                                "-        b = 1", "+        b = 2", " }"])
        let today = Self.file(["// header", "func f() {", "\ta = 1", "\tkeep()", "\tb = 1", "}"])
        let diff = try #require(carried(try rebase([Self.path: today], patch: patch)))
        #expect(applied(diff, to: today) == Self.file(["// header", "func f() {", "\ta = 2", "        ", "    // shallow", "\tkeep()", "\tb = 2", "}"]))
    }

    // MARK: - Places the context tells apart

    /// `x = 1` made `x = 2`, with two lines of context either side.
    private static let amongNeighbours = patch(["@@ -1,5 +1,5 @@", " z()", " a()", "-x = 1", "+x = 2", " f()", " g()"])

    /// Of the places that hold the changed line, the one with the most of
    /// the hunk's context around it, counted only where lines exist (a place
    /// at either end of the file has fewer neighbours); a tie is refused.
    @Test(arguments: [
        (["a()", "x = 1", "e()", "x = 1"], 1),
        (["x = 1", "h()", "x = 1", "f()"], 2),
        (["a()", "x = 1", "h()", "i()", "e()", "x = 1", "f()", "g()"], 5),
        (["z()", "a()", "x = 1", "q()", "x = 1", "f()"], 2),
        (["x = 1", "x = 1"], nil),
    ] as [([String], Int?)])
    func theContextAtEitherEndOfTheFileChoosesThePlace(today lines: [String], place: Int?) throws {
        let today = Self.file(lines)
        let outcome = try rebase([Self.path: today], patch: Self.amongNeighbours)
        guard let place else {
            #expect(refusal(outcome)?.reason.hasSuffix("and its context does not tell them apart") == true, "\(outcome)")
            return
        }
        var expected = lines
        expected[place] = "x = 2"
        let diff = try #require(carried(outcome))
        #expect(applied(diff, to: today) == Self.file(expected))
    }

    // MARK: - Hunks that meet

    /// Two hunks whose lines of context would overlap today are refused;
    /// two that only touch are carried, numbered where they land.
    @Test func twoHunksThatWouldOverlapAreRefusedAndTwoThatTouchAreCarried() throws {
        func patch(secondAt line: Int) -> String {
            Self.patch(["@@ -1,7 +1,7 @@", " a()", " b()", " c()", "-x = 1", "+x = 2", " d()", " e()", " f()"],
                       ["@@ -\(line),7 +\(line),7 @@", " f1()", " f2()", " f3()", "-y = 1", "+y = 2", " g()", " h()", " i()"])
        }
        // The first hunk's context ends on `f()`; the second's begins on it.
        let overlapping = Self.file(["a0()", "b()", "c()", "x = 1", "d()", "e()", "f1()", "f2()", "f3()", "y = 1", "g()", "h()", "i()"])
        let overlap = try rebase([Self.path: overlapping], patch: patch(secondAt: 7))
        #expect(refusal(overlap)?.reason == "\(Self.path): two hunks land on overlapping lines of \(Self.path)", "\(overlap)")

        let touching = Self.file(["a0()", "b()", "c()", "x = 1", "d()", "e()", "f()", "f1()", "f2()", "f3()", "y = 1", "g()", "h()", "i()"])
        let diff = try #require(carried(try rebase([Self.path: touching], patch: patch(secondAt: 8))))
        #expect(diff.files[0].hunks.map(\.header) == ["@@ -1,7 +1,7 @@", "@@ -8,7 +8,7 @@"])
        #expect(applied(diff, to: touching) == touching.replacingOccurrences(of: "= 1", with: "= 2"))
    }

    /// An operator carried by its anchor is written as a hunk with three
    /// lines of today's context either side, numbered where it lands.
    @Test func aHunkCarriedByItsTokenIsNumberedWhereItLands() throws {
        let patch = Self.patch([
            "@@ -2,3 +2,3 @@",
            "     func answer(_ request: Request) -> Response {",
            "-        guard request.body.count <= Self.maximumBodyBytes else { return reject(413, \"too_large\") }",
            "+        guard request.body.count < Self.maximumBodyBytes else { return reject(413, \"too_large\") }",
            "         return accept(request)",
        ])
        let today = Self.file(["import Foundation", "", "struct Collector {", "    /// Answers before reading a body it would refuse.", "    func answer(method: String, bodyLength: Int) -> Response? {",
                               "        guard bodyLength <= Self.maximumBodyBytes else { return reject(413, \"too_large\") }", "        return nil", "    }", "}",
                               "", "// end"])
        let diff = try #require(carried(try rebase([Self.path: today], patch: patch)))
        #expect(diff.files[0].hunks.map(\.header) == ["@@ -3,7 +3,7 @@"])
        #expect(applied(diff, to: today) == today.replacingOccurrences(of: "bodyLength <=", with: "bodyLength <"))
    }

    // MARK: - Refusals

    /// A patch that renames a file, or a hunk at the end of a file without
    /// a final newline, is refused for that reason.
    @Test func aRenameAndAMissingFinalNewlineAreRefusedByName() throws {
        let rename = "--- a/Sources/P/Old.swift\n+++ b/\(Self.path)\n@@ -1,1 +1,1 @@\n-let x = 1\n+let x = 2\n"
        let renamed = try rebase([Self.path: "let x = 1\n", "Sources/P/Old.swift": "let y = 1\n"], patch: rename)
        #expect(refusal(renamed)?.reason == "\(Self.path): a patch that creates, deletes or renames a file is not carried", "\(renamed)")

        let lastLine = Self.patch(["@@ -1,2 +1,2 @@", " let a = 0", "-let x = 1", "\\ No newline at end of file", "+let x = 2"])
        let outcome = try rebase([Self.path: "// header\nlet a = 1\nlet x = 1"], patch: lastLine)
        #expect(refusal(outcome)?.reason == "\(Self.path): hunk '@@ -1,2 +1,2 @@' touches the end of a file without a final newline; it is not carried",
                "\(outcome)")
    }

    /// A removed blank line is not looked for among today's blank lines,
    /// and a file shorter than the changed lines is no place for them.
    @Test func blankLinesAndAShortFileAreNoPlace() throws {
        let blank = Self.patch(["@@ -2,3 +2,2 @@", "     if status == 429 { return true }", "-", "     return status >= 500"])
        let today = Self.file(["enum Policy {", "    if status == 430 { return true }", "", "    return status >= 500", "}"])
        #expect(refusal(try rebase([Self.path: today], patch: blank))?.reason.contains("changes are gone") == true)

        let twoLines = Self.patch(["@@ -1,3 +1,2 @@", " // top", "-let a = 0", "-let x = 1", "+let x = 2"])
        #expect(refusal(try rebase([Self.path: "// x\n"], patch: twoLines))?.reason
            == "\(Self.path): the lines hunk '@@ -1,3 +1,2 @@' changes are gone ('let a = 0' and 1 more line(s))")
        // A file of exactly the changed lines holds them.
        let exactly = Self.file(["let a = 0", "let x = 1"])
        #expect(try #require(carried(try rebase([Self.path: exactly], patch: twoLines))).files[0].hunks.map(\.header) == ["@@ -1,2 +1,1 @@"])
    }

    /// A hunk that removes a block and adds a line is no removed block: when
    /// its lines are gone, no anchor carries it.
    @Test func aBlockReplacedByALineIsNotCarriedByItsOpener() throws {
        let patch = Self.patch(["@@ -1,5 +1,3 @@", " func f() {", "-    if x {", "-        a()", "-    }", "+    y()", " }"])
        let today = Self.file(["// header", "func f() {", "    if x {", "        b()", "    }", "}"])
        #expect(refusal(try rebase([Self.path: today], patch: patch))?.reason
            == "\(Self.path): the lines hunk '@@ -1,5 +1,3 @@' changes are gone ('if x {' and 2 more line(s))")
    }

    /// A file of a patch that still applies is kept as it was written while
    /// another file's hunk is carried.
    @Test func aFileThatAppliesKeepsItsHunkWhileAnotherIsCarried() throws {
        let patch = "--- a/Sources/P/A.swift\n+++ b/Sources/P/A.swift\n@@ -2,1 +2,1 @@\n-a = 1\n+a = 2\n"
            + "--- a/\(Self.path)\n+++ b/\(Self.path)\n@@ -1,2 +1,2 @@\n y()\n-x = 1\n+x = 2\n"
        let files = ["Sources/P/A.swift": "// a\na = 1\n// b\n// c\n// d\n// e\n", Self.path: "// header\nx = 1\n"]
        let diff = try #require(carried(try rebase(files, patch: patch)))
        #expect(diff.files.map(\.path) == ["Sources/P/A.swift", Self.path])
        #expect(diff.files[0].hunks.map(\.header) == ["@@ -2,1 +2,1 @@"] && diff.files[0].hunks[0].lines.count == 2)
    }

    /// The nearest candidates are scored by their lines' likeness weighed
    /// by length, best first, then by path and line; only the patch's own
    /// file (once) and the files of its top folder that hold one of its
    /// lines as it was are looked at.
    @Test func theNearestAreWeighedByLengthAndOrderedByPathAndLine() throws {
        let patch = Self.patch(["@@ -1,3 +1,2 @@", " func f() {", "-    let value = 12345678", "-}", "+    let value = 0"])
        // `12345670` for `12345678` (19 of 20 alike) and `}` as it was (1 of 1): 20 of 21 weighed, 95%.
        let near = Self.file(["func f() {", "    let value = 12345670", "}", "// end"])
        // Without a line of the patch as it was (93% alike): not a place the code went.
        let unrelated = near.replacingOccurrences(of: "}\n", with: "};\n")
        let files = [Self.path: near, "Sources/P/B.swift": near, "Sources/P/0.swift": unrelated, "Tests/P/A.swift": near]
        let refused = try #require(refusal(try rebase(files, patch: patch)))
        #expect(refused.reason.hasPrefix("\(Self.path): the lines hunk '@@ -1,3 +1,2 @@' changes are gone"), "\(refused)")
        #expect(refused.candidates == ["Sources/P/B.swift:2 (95% alike)", "\(Self.path):2 (95% alike)"])
        // Three at most.
        let more = files.merging(["Sources/P/C.swift": near, "Sources/P/D.swift": near]) { $1 }
        #expect(refusal(try rebase(more, patch: patch))?.candidates.map { $0.prefix(17) } == ["Sources/P/B.swift", "Sources/P/C.swift", "Sources/P/D.swift"])
    }

    /// Another file of the top folder is looked at when it holds one of the
    /// patch's lines as it was, indentation aside: indented lines count.
    @Test func aFileHoldingAnIndentedLineOfThePatchIsAmongTheNearest() throws {
        let patch = Self.patch(["@@ -1,3 +1,2 @@", "     if ok {", "-        let value = 12345678", "-    }", "+        let value = 0"])
        let near = Self.file(["    if ok {", "        let value = 12345670", "    }", "// end"])
        let refused = try #require(refusal(try rebase([Self.path: "// moved\n", "Sources/P/B.swift": near], patch: patch)))
        #expect(refused.candidates.contains { $0.hasPrefix("Sources/P/B.swift:2 ") }, "\(refused)")
    }

    /// A line exactly half alike is near; an insertion's nearest place is
    /// named by the line where it would go.
    @Test func halfAlikeIsNearAndAnInsertionIsNamedWhereItWouldGo() throws {
        let token = Self.patch(["@@ -1,2 +1,2 @@", " // top", "-ab", "+ac"])
        #expect(refusal(try rebase([Self.path: "ax\n"], patch: token))?.candidates == ["\(Self.path):1 (50% alike)"])

        let insertion = Self.patch(["@@ -1,2 +1,3 @@", "     if a {", "+        c()", "         b()"])
        let today = Self.file(["    if a2 {", "        b2()"])
        let refused = try #require(refusal(try rebase([Self.path: today], patch: insertion)))
        #expect(refused.reason == "\(Self.path): the lines hunk '@@ -1,2 +1,3 @@' changes are gone (an insertion between 'if a {' and 'b()'), "
                + "and neither of its neighbours stands, as it was, next to a line much like the other")
        #expect(refused.candidates == ["\(Self.path):2 (82% alike)"])
    }

    /// Six places are named as five: lines found in six other files, or
    /// six times in the file with no context to tell them apart.
    @Test func aRefusalNamesAtMostFivePlaces() throws {
        let moved = "func retries() -> Bool {\n    return status >= 500\n}\n"
        let patch = "--- a/Sources/P/Gone.swift\n+++ b/Sources/P/Gone.swift\n@@ -1,3 +1,3 @@\n func retries() -> Bool {\n-    return status >= 500\n+    return status >= 400\n }\n"
        var files = ["Sources/P/Gone.swift": "// moved\n"]
        for index in 1...6 { files["Sources/P/\(index).swift"] = moved }
        let elsewhere = try #require(refusal(try rebase(files, patch: patch)))
        #expect(elsewhere.reason.hasSuffix("found in 6 other files") && elsewhere.candidates.count == 5, "\(elsewhere)")

        let repeated = Self.patch(["@@ -1,2 +1,2 @@", " y()", "-x = 1", "+x = 2"])
        let sixTimes = Self.file(["// x"] + Array(repeating: "x = 1", count: 6))
        let found = try #require(refusal(try rebase([Self.path: sixTimes], patch: repeated)))
        #expect(found.reason.contains("occur 6 times") && found.candidates.count == 5, "\(found)")

        let token = Self.patch(["@@ -1,2 +1,2 @@", " // top", "-    return status >= 500", "+    return status > 500"])
        let sixLines = Self.file(Array(repeating: "    return status >= 500 && ok", count: 6))
        let anchored = try #require(refusal(try rebase([Self.path: sixLines], patch: token)))
        #expect(anchored.reason.hasSuffix("6 lines hold its `>=` among the same neighbours") && anchored.candidates.count == 5, "\(anchored)")
    }

    // MARK: - The guard of "never wrong"

    /// Whatever a strategy makes is checked before it is kept: a patch that
    /// does not apply, changes another line, or (unless an anchor placed
    /// it) changes the same token on a line that reads differently, is
    /// refused as a defect; an anchor's token edit on its new line is kept.
    @Test func whatAStrategyMakesIsRefusedUnlessItMakesTheSameChange() throws {
        let patch = Self.patch(["@@ -1,2 +1,2 @@", " // top", "-let q = z >= 1", "+let q = z > 1"])
        let today = Self.file(["let a = x >= 1", "let b = y >= 1"])
        func outcome(_ lines: [String], anchored: Bool) throws -> PatchRebaser.Outcome {
            let made = try DiffParser.parse(Self.patch(lines))
            return PatchRebaser.rebase(try DiffParser.parse(patch), reading: { $0 == Self.path ? today : nil }, files: [Self.path],
                                      carrier: { _, _, _, _ in .success(PatchRebaser.Carried(patches: made.files, moves: ["made up"], anchored: anchored)) })
        }
        let defect = "the carried patch does not make the same change (a defect of rebase: please report it)"
        let sameToken = ["@@ -1,1 +1,1 @@", "-let a = x >= 1", "+let a = x > 1"]
        #expect(refusal(try outcome(["@@ -1,1 +1,1 @@", "-let c = w >= 1", "+let c = w > 1"], anchored: true))?.reason == defect, "does not apply")
        #expect(refusal(try outcome(["@@ -2,1 +2,1 @@", "-let b = y >= 1", "+let b = y < 1"], anchored: true))?.reason == defect, "another edit")
        #expect(refusal(try outcome(sameToken, anchored: false))?.reason == defect, "the same token on another line, no anchor")
        guard case .rebased(let diff, let moves) = try outcome(sameToken, anchored: true) else {
            Issue.record("an anchor's token edit is kept")
            return
        }
        #expect(moves == ["made up"] && applied(diff, to: today) == today.replacingOccurrences(of: "x >= 1", with: "x > 1"))
    }

    /// Two diffs make the same edits only when every removed and added
    /// line matches: a token edit is read by its token only when it is one
    /// line for one line, and a removed block by its opener only when
    /// nothing is added.
    @Test func anAnchorReadsAnEditOnlyOfItsOwnShape() {
        func diff(removed: [String], added: [String]) -> UnifiedDiff {
            UnifiedDiff(files: [FilePatch(oldPath: Self.path, newPath: Self.path, hunks: [
                Hunk(header: "", oldStart: 1, oldCount: removed.count, newStart: 1, newCount: added.count,
                     lines: removed.map { .removed($0) } + added.map { .added($0) }),
            ])])
        }
        #expect(!PatchRebaser.sameEdits(diff(removed: ["x = 1", "a()"], added: ["x = 2"]), diff(removed: ["x = 1", "b()"], added: ["x = 2"])))
        #expect(!PatchRebaser.sameEdits(diff(removed: ["x = 1"], added: ["x = 2", "a()"]), diff(removed: ["x = 1"], added: ["x = 2", "b()"])))
        let block = ["if x {", "    a()", "}"], reworded = ["if x {", "    b()", "}"]
        #expect(PatchRebaser.sameEdits(diff(removed: block, added: []), diff(removed: reworded, added: [])))
        #expect(!PatchRebaser.sameChange(diff(removed: block, added: []), diff(removed: reworded, added: [])))
        #expect(!PatchRebaser.sameEdits(diff(removed: block, added: ["y()"]), diff(removed: reworded, added: ["y()"])))
    }
}

extension PatchRebaserEdgeTests {
    /// A refusal with no candidate reads as its reason alone; candidates
    /// follow "; nearest: ", best first.
    @Test func aRefusalWithoutCandidatesIsItsReasonAlone() {
        #expect(PatchRebaser.Refusal(reason: "gone").description == "gone")
        #expect(PatchRebaser.Refusal(reason: "gone", candidates: ["A.swift:3 (80% alike)", "B.swift:1 (60% alike)"]).description
            == "gone; nearest: A.swift:3 (80% alike), B.swift:1 (60% alike)")
    }
}

extension PatchRebaserEdgeTests {
    /// Two hunks of one file, one still in it and one moved to another
    /// file, each land in the patch of the file they went to.
    @Test func hunksOfOneFileCarriedToTwoFilesLandEachInItsOwnFile() throws {
        let patch = "--- a/Sources/P/A.swift\n+++ b/Sources/P/A.swift\n@@ -1,1 +1,1 @@\n-let a = 1\n+let a = 2\n@@ -5,1 +5,1 @@\n-let b = 1\n+let b = 2\n"
        let files = ["Sources/P/A.swift": "// header\nlet a = 1\n", "Sources/P/B.swift": "let b = 1\n"]
        let diff = try #require(carried(try rebase(files, patch: patch)))
        #expect(diff.files.map(\.path) == ["Sources/P/A.swift", "Sources/P/B.swift"])
        #expect(diff.files.map { $0.hunks.count } == [1, 1])
        guard case .success(let changes) = diff.changes(reading: { files[$0] }) else {
            Issue.record("the carried diff does not apply")
            return
        }
        #expect(Dictionary(uniqueKeysWithValues: changes.map { ($0.path, $0.content) })
            == ["Sources/P/A.swift": "// header\nlet a = 2\n", "Sources/P/B.swift": "let b = 2\n"])
    }
}
