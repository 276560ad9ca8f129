import Testing
@testable import MutationHarness

struct PatchApplierTests {
    let source = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"

    private func patch(_ diff: String) throws -> FilePatch {
        try #require(try DiffParser.parse(diff).files.first)
    }

    @Test func appliesAHunkWhereTheHeaderSays() throws {
        let file = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -4,3 +4,3 @@
             line 4
            -line 5
            +LINE FIVE
             line 6
            """)
        let result = try PatchApplier.apply(file, to: source)
        #expect(result == source.replacingOccurrences(of: "line 5\n", with: "LINE FIVE\n"))
    }

    /// Where the old lines occur more than once, the hunk lands where its
    /// header says, not one or two lines off.
    @Test func aHunkAmongIdenticalLinesLandsOnItsOwnLine() throws {
        let file = try patch("--- a/F.swift\n+++ b/F.swift\n@@ -3 +3 @@\n-x\n+y\n")
        #expect(try PatchApplier.apply(file, to: "x\nx\nx\nx\nx\n") == "x\nx\ny\nx\nx\n")
    }

    /// A later hunk never lands inside the lines an earlier hunk wrote, even
    /// when they are nearer to where it was expected.
    @Test func aLaterHunkNeverLandsInTheTextAnEarlierOneWrote() throws {
        let file = try patch("--- a/F.swift\n+++ b/F.swift\n@@ -2 +2 @@\n-a\n+k\n@@ -3 +3 @@\n-k\n+Z\n")
        #expect(try PatchApplier.apply(file, to: "k\na\nb\nc\nk\n") == "k\nk\nb\nc\nZ\n")
    }

    @Test func appliesAHunkAtAnOffsetWhenTheFileMoved() throws {
        let file = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -4,3 +4,3 @@
             line 10
            -line 11
            +line eleven
             line 12
            """)
        let result = try PatchApplier.apply(file, to: source)
        #expect(result?.contains("line 10\nline eleven\nline 12\n") == true)
        #expect(result?.contains("line 11\n") == false)
    }

    /// Lines that moved up since the patch was made are found above where
    /// the header says, not past it.
    @Test func appliesAHunkAboveWhereTheHeaderSaysWhenLinesWereRemoved() throws {
        let file = try patch("--- a/F.swift\n+++ b/F.swift\n@@ -12,3 +12,3 @@\n line 4\n-line 5\n+line five\n line 6\n")
        #expect(try PatchApplier.apply(file, to: source) == source.replacingOccurrences(of: "line 5\n", with: "line five\n"))
        #expect(PatchApplier.match(["line 5"], in: source.split(separator: "\n").map(String.init), near: 12, notBefore: 0) == 4)
    }

    /// A patch that deletes a file must remove every line of it: one that
    /// leaves lines behind is another file than the one it was made from.
    @Test func aDeletionThatLeavesLinesDoesNotApply() throws {
        let file = try patch("--- a/F.swift\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n")
        #expect(try PatchApplier.apply(file, to: "a\nb\n") == nil, "the whole file: deleted")
        #expect(throws: PatchApplyError.hunkDoesNotMatch(path: "F.swift", hunk: "@@ -1,2 +0,0 @@")) { try PatchApplier.apply(file, to: "a\nb\nc\n") }
    }

    /// A rename writes the new path and deletes the old one.
    @Test func aRenameDeletesTheOldPath() throws {
        let diff = try DiffParser.parse("--- a/Old.swift\n+++ b/New.swift\n@@ -1 +1 @@\n-a\n+b\n")
        let changes = try diff.changes(reading: { $0 == "Old.swift" ? "a\n" : nil }).get()
        #expect(changes.map(\.path) == ["Old.swift", "New.swift"])
        #expect(changes.map(\.content) == [nil, "b\n"])
    }

    /// A file named by a diff must be changed by at least one hunk.
    @Test func aFileWithoutAHunkIsRefused() {
        #expect(throws: DiffParseError(line: 3, reason: "file x.swift has no hunk")) { try DiffParser.parse("--- a/x.swift\n+++ b/x.swift\n") }
    }

    /// A hunk holds exactly the lines its header counts, on both sides; a
    /// range with a comma and no count is malformed.
    @Test func aHunkMustHoldTheNewLinesItsHeaderCounts() {
        #expect(throws: DiffParseError(line: 6, reason: "hunk @@ -1 +1,2 @@ ends early: expected 1 old and 2 new lines")) {
            try DiffParser.parse("--- a/x.swift\n+++ b/x.swift\n@@ -1 +1,2 @@\n-a\n+b\n")
        }
        #expect(DiffParser.parseHeader("@@ -1, +1 @@") == nil)
    }

    /// A hunk at the file's first line lands there even when the same line
    /// comes again just below; an insertion at the very top, or a hunk of
    /// context only, points at line 1.
    @Test func aHunkAtTheTopLandsOnTheFirstLine() throws {
        let file = try patch("--- a/F.swift\n+++ b/F.swift\n@@ -1 +1 @@\n-x\n+y\n")
        #expect(try PatchApplier.apply(file, to: "x\nx\nx\n") == "y\nx\nx\n")
        let top = try #require(try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -0,0 +1 @@\n+x\n").files.first?.hunks.first)
        #expect(top.changedOldLines == 1...1)
        let context = try #require(try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n a\n").files.first?.hunks.first)
        #expect(context.changedOldLines == 1...1)
    }

    /// A binary patch is refused by name, whichever way git wrote it.
    @Test(arguments: ["Binary files a/Icon.png and b/Icon.png differ", "GIT binary patch"])
    func aBinaryPatchIsRefusedByName(line: String) {
        #expect(throws: DiffParseError(line: 1, reason: "binary patches are not supported")) { try DiffParser.parse(line + "\n") }
    }

    @Test func appliesSeveralHunksInOrder() throws {
        let file = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -1,2 +1,3 @@
             line 1
            +inserted
             line 2
            @@ -18,3 +19,2 @@
             line 18
            -line 19
             line 20
            """)
        let lines = try #require(try PatchApplier.apply(file, to: source)).split(separator: "\n")
        #expect(lines.prefix(3) == ["line 1", "inserted", "line 2"])
        #expect(lines.suffix(2) == ["line 18", "line 20"])
        #expect(lines.count == 20)
    }

    /// Lines 7, 13 and 21 are all `dup`; the second hunk changes line 13.
    /// The first hunk added four lines, so it is now line 17: the nearest
    /// `dup` to where the earlier hunks moved it, not another one.
    @Test func aLaterHunkWhoseLinesRepeatLandsWhereTheEarlierHunksMovedIt() throws {
        let lines = (0..<25).map { [6, 12, 20].contains($0) ? "dup" : "l\($0)" }
        let source = lines.joined(separator: "\n") + "\n"
        let file = try patch("--- a/A.swift\n+++ b/A.swift\n@@ -5,1 +5,5 @@\n-l4\n+l4\n+n1\n+n2\n+n3\n+n4\n@@ -13,1 +17,1 @@\n-dup\n+DUP\n")
        var expected = lines
        expected[12] = "DUP"
        expected.insert(contentsOf: ["n1", "n2", "n3", "n4"], at: 5)
        #expect(try PatchApplier.apply(file, to: source) == expected.joined(separator: "\n") + "\n")
        // The same hunk after one that was found further down than its header said.
        let moved = "x\nx\n" + source
        let movedExpected = ["x", "x"] + expected
        #expect(try PatchApplier.apply(file, to: moved) == movedExpected.joined(separator: "\n") + "\n")
    }

    @Test func aHunkThatNoLongerMatchesIsNamed() throws {
        let file = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -4,2 +4,2 @@
             line 4
            -line 55
            +x
            """)
        #expect(throws: PatchApplyError.hunkDoesNotMatch(path: "F.swift", hunk: "@@ -4,2 +4,2 @@")) {
            try PatchApplier.apply(file, to: source)
        }
    }

    @Test func contextMustMatchExactlyIncludingWhitespace() throws {
        let file = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -1,1 +1,1 @@
            -line 1\u{20}
            +x
            """)
        #expect(throws: PatchApplyError.self) { try PatchApplier.apply(file, to: source) }
    }

    /// A patch that removes every line but keeps the file leaves it empty,
    /// not one line break; a new file without a final newline gets none.
    @Test func anEmptiedFileIsEmptyAndANewOneEndsAsWritten() throws {
        #expect(try PatchApplier.apply(try patch("--- a/F.swift\n+++ b/F.swift\n@@ -1 +0,0 @@\n-a\n"), to: "a\n") == "")
        let noNewline = try patch("--- /dev/null\n+++ b/N.swift\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n")
        #expect(try PatchApplier.apply(noNewline, to: nil) == "x")
    }

    /// A hunk that replaces one line by one moves nothing: the next hunk is
    /// looked for where its header says.
    @Test func aLaterHunkAfterALineForLineHunkLandsOnItsOwnLine() throws {
        let file = try patch("--- a/F.swift\n+++ b/F.swift\n@@ -1 +1 @@\n-x\n+y\n@@ -3 +3 @@\n-x\n+z\n")
        #expect(try PatchApplier.apply(file, to: "x\nx\nx\nx\nx\n") == "y\nx\nz\nx\nx\n")
    }

    @Test func createsAndDeletesFiles() throws {
        let diff = try DiffParser.parse("""
            diff --git a/New.swift b/New.swift
            new file mode 100644
            --- /dev/null
            +++ b/New.swift
            @@ -0,0 +1,2 @@
            +let a = 1
            +let b = 2
            diff --git a/Old.swift b/Old.swift
            deleted file mode 100644
            --- a/Old.swift
            +++ /dev/null
            @@ -1,1 +0,0 @@
            -let gone = true
            """)
        #expect(diff.files.count == 2)
        #expect(try PatchApplier.apply(diff.files[0], to: nil) == "let a = 1\nlet b = 2\n")
        #expect(throws: PatchApplyError.fileAlreadyExists(path: "New.swift")) { try PatchApplier.apply(diff.files[0], to: "x\n") }
        #expect(try PatchApplier.apply(diff.files[1], to: "let gone = true\n") == nil)
        #expect(throws: PatchApplyError.fileMissing(path: "Old.swift")) { try PatchApplier.apply(diff.files[1], to: nil) }
    }

    @Test func keepsAndChangesTheMissingFinalNewline() throws {
        let removeNewline = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -1,2 +1,2 @@
             a
            -b
            +c
            \\ No newline at end of file
            """)
        #expect(try PatchApplier.apply(removeNewline, to: "a\nb\n") == "a\nc")

        let onBothSides = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -1,2 +1,2 @@
             a
            -b
            \\ No newline at end of file
            +c
            \\ No newline at end of file
            """)
        #expect(try PatchApplier.apply(onBothSides, to: "a\nb") == "a\nc")
        #expect(throws: PatchApplyError.self) { try PatchApplier.apply(onBothSides, to: "a\nb\n") }

        let untouchedEnd = try patch("""
            --- a/F.swift
            +++ b/F.swift
            @@ -1,1 +1,1 @@
            -a
            +z
            """)
        #expect(try PatchApplier.apply(untouchedEnd, to: "a\nb") == "z\nb")
    }

    @Test func appliesAcrossSeveralFilesThroughTheLab() throws {
        let diff = try DiffParser.parse("""
            --- a/A.swift
            +++ b/A.swift
            @@ -1 +1 @@
            -a
            +A
            --- a/B.swift
            +++ b/B.swift
            @@ -1 +1 @@
            -b
            +B
            """)
        let files = ["A.swift": "a\n", "B.swift": "b\n"]
        let changes = try diff.changes(reading: { files[$0] }).get()
        #expect(changes.map(\.path) == ["A.swift", "B.swift"])
        #expect(changes.map(\.content) == ["A\n", "B\n"])
        #expect(throws: PatchApplyError.self) { try diff.changes(reading: { $0 == "A.swift" ? "a\n" : "changed\n" }).get() }
    }
}

struct DiffParserTests {
    @Test func aHunkShortOfItsOldLinesIsRefusedAndTheLineIsCountedFromTheFirst() throws {
        let diff = "--- a/A.swift\n+++ b/A.swift\n@@ -1,2 +1,1 @@\n-a\n+b\n"
        var lines: [Int] = []
        for first in [nil, 1, 11] as [Int?] {
            do {
                _ = try first.map { try DiffParser.parse(diff, firstLineNumber: $0) } ?? DiffParser.parse(diff)
                Issue.record("a hunk with one of its two old lines must be refused")
            } catch let error as DiffParseError {
                #expect(error.reason.contains("ends early"))
                lines.append(error.line)
            }
        }
        #expect(lines.count == 3 && lines[0] == lines[1] && lines[2] == lines[1] + 10, "line numbers count from the first line given: \(lines)")
        #expect(lines.first.map { (4...6).contains($0) } == true, "the hunk's body is lines 4 and 5: \(lines)")
    }

    /// A line that is no part of a diff inside a hunk's body ends it early,
    /// named by its line in the mutant file.
    @Test func aForeignLineInAHunkNamesItsLine() {
        #expect(throws: DiffParseError(line: 8, reason: "hunk @@ -1,2 +1,2 @@ ends early: expected 2 old and 2 new lines")) {
            try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -1,2 +1,2 @@\nX not a diff line\n", firstLineNumber: 5)
        }
    }

    /// A report points at the removed lines, past the context above them.
    @Test func theChangedLinesArePastTheContext() throws {
        let hunk = try #require(try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -10,4 +10,3 @@\n a\n b\n-c\n d\n").files.first?.hunks.first)
        #expect(hunk.changedOldLines == 12...12)
        let two = try #require(try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -10,5 +10,4 @@\n a\n-b\n-c\n+x\n d\n e\n").files.first?.hunks.first)
        #expect(two.changedOldLines == 11...12, "two removed lines, then an added one")
        let spread = try #require(try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -10,4 +10,2 @@\n-a\n b\n-c\n d\n").files.first?.hunks.first)
        #expect(spread.changedOldLines == 10...12, "from the first removed line to the last, context between")
        let added = try #require(try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -10,2 +10,3 @@\n a\n+x\n b\n").files.first?.hunks.first)
        #expect(added.changedOldLines == 11...11, "an insertion points at the line it goes before")
    }

    /// "\ No newline at end of file" after a context line holds for both sides.
    @Test func noFinalNewlineAfterContextHoldsForBothSides() throws {
        let hunk = try #require(try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n\\ No newline at end of file\n")
            .files.first?.hunks.first)
        #expect(hunk.oldHasNoFinalNewline && hunk.newHasNoFinalNewline)
    }

    /// The new side's missing final newline is marked after the new side's
    /// last line, and only there, in whichever order the hunk lists them.
    @Test func aWrittenDiffMarksTheNewSidesMissingNewlineAfterItsLastLine() throws {
        let text = "diff --git a/A.swift b/A.swift\n--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+c\n\\ No newline at end of file\n"
        #expect(try DiffParser.parse(text).text == text)
        let addedFirst = "diff --git a/A.swift b/A.swift\n--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n+c\n\\ No newline at end of file\n-a\n"
        #expect(try DiffParser.parse(addedFirst).text == addedFirst)
    }

    /// `diff -u` writes a time stamp after a tab: it is no part of the path.
    @Test func aTimeStampAfterATabIsNoPartOfThePath() throws {
        let diff = try DiffParser.parse("--- a/A.swift\t2024-01-01 10:00:00 +0000\n+++ b/A.swift\t2024-01-01 10:00:01 +0000\n@@ -1 +1 @@\n-a\n+b\n")
        #expect(diff.files[0].oldPath == "A.swift" && diff.files[0].path == "A.swift")
    }

    /// A blank context line whose space an editor stripped is context,
    /// inside a hunk.
    @Test func aStrippedBlankContextLineIsContext() throws {
        let diff = try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n")
        #expect(diff.files[0].hunks[0].lines == [.context("a"), .context(""), .removed("b"), .added("c")])
    }

    /// A diff written back (what `rebase` and `promote` save) marks the
    /// missing final newline after the one line it belongs to: here the old
    /// side's last line, not the context before it nor the added line.
    @Test func aWrittenDiffMarksTheMissingNewlineOnlyWhereItIs() throws {
        let text = "diff --git a/A.swift b/A.swift\n--- a/A.swift\n+++ b/A.swift\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
        let diff = try DiffParser.parse(text)
        #expect(diff.text == text)
        #expect(try PatchApplier.apply(try #require(diff.files.first), to: "a\nb") == "a\nc\n")
    }

    @Test func aMalformedFileHeaderNamesItsLineInTheMutantFile() {
        // A patch whose diff starts on line 5 of its file: '--- ' without '+++ ' is on line 5.
        #expect(throws: DiffParseError(line: 6, reason: "'--- ' is not followed by '+++ '")) {
            try DiffParser.parse("--- a/A.swift\nnot a header\n", firstLineNumber: 5)
        }
        #expect(throws: DiffParseError(line: 1, reason: "unexpected line 'garbage'")) { try DiffParser.parse("garbage\n") }
        do {
            _ = try DiffParser.parse("--- /dev/null\n+++ /dev/null\n@@ -0,0 +0,0 @@\n")
            Issue.record("a file patch with no file on either side must be refused")
        } catch {
            #expect(error.reason == "both sides are /dev/null", "\(error)")
        }
        #expect(throws: DiffParseError(line: 1, reason: "path '' must be relative to the package root and stay inside it")) {
            try DiffParser.parse("--- a/\n+++ b/\n")
        }
        // A path outside the package on the '+++ ' line, the second of a diff that starts on line 5.
        do {
            _ = try DiffParser.parse("--- a/A.swift\n+++ b/../A.swift\n", firstLineNumber: 5)
            Issue.record("a path outside the package must be refused")
        } catch {
            #expect(error.line == 6, "\(error)")
        }
        // A malformed hunk header on the third line of a diff that starts on line 5.
        #expect(throws: DiffParseError(line: 7, reason: "malformed hunk header '@@ -x +1 @@'")) {
            try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -x +1 @@\n", firstLineNumber: 5)
        }
        // '--- ' as the last line, and a path outside the package on line 7 of the file.
        #expect(throws: DiffParseError(line: 6, reason: "'--- ' is not followed by '+++ '")) { try DiffParser.parse("--- a/A.swift", firstLineNumber: 5) }
        do {
            _ = try DiffParser.parse("\n\n--- a/../A.swift\n+++ b/A.swift\n", firstLineNumber: 5)
            Issue.record("a path outside the package must be refused")
        } catch {
            #expect(error.line == 7, "\(error)")
        }
    }

    @Test func readsHeadersWithAndWithoutCounts() {
        #expect(DiffParser.parseHeader("@@ -12,5 +12,6 @@ func x()")! == (12, 5, 12, 6))
        #expect(DiffParser.parseHeader("@@ -3 +3 @@")! == (3, 1, 3, 1))
        #expect(DiffParser.parseHeader("@@ nonsense @@") == nil)
        #expect(DiffParser.parseHeader("@@ -3 x3 @@") == nil, "the new range starts with +")
        #expect(DiffParser.parseHeader("@@ x3 +3 @@") == nil, "the old range starts with -")
        #expect(DiffParser.parseHeader("## -3 +3 @@") == nil, "it starts with @@")
        #expect(DiffParser.parseHeader("@@ -3 +3 ##") == nil, "the ranges end with @@")
        #expect(DiffParser.parseHeader("@@ -3 +3 @@@") != nil, "git's combined-diff marker still closes it")
        #expect(DiffParser.parseHeader("@@ -3,2,9 +3,2 @@") == nil, "a range is a start and at most one count")
        #expect(DiffParser.parseHeader("@@ -3,-1 +3 @@") == nil, "a count is never negative")
        #expect(DiffParser.parseHeader("@@ --3 +3 @@") == nil, "nor a start")
    }

    @Test func rejectsPathsOutsideThePackage() {
        #expect(throws: DiffParseError.self) { try DiffParser.parse("--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n") }
        #expect(throws: DiffParseError.self) { try DiffParser.parse("--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n") }
    }

    @Test func rejectsAHunkShorterThanItsHeader() {
        #expect(throws: DiffParseError.self) { try DiffParser.parse("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n") }
    }

    @Test func rejectsTextThatIsNoDiff() {
        #expect(throws: DiffParseError.self) { try DiffParser.parse("hello\n") }
        #expect(throws: DiffParseError.self) { try DiffParser.parse("") }
    }
}
