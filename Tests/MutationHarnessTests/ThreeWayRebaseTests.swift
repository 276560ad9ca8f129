import Foundation
import Testing
@testable import MutationHarness

/// `rebase` from the preimage a patch names (its `index` line): the hunk
/// goes where today's file kept the lines it changes, as a three-way merge
/// puts it, and the preimage rules out places the text alone would take.
struct ThreeWayRebaseTests {
    /// Two functions alike: `b`'s `run(1)` is the mutant's.
    static let preimage = """
        func a() {
            if x {
                run(1)
            }
        }
        func b() {
            if x {
                run(1)
            }
        }

        """

    /// `b` runs 2: its `index` line names the preimage's blob.
    static let patch = """
        diff --git a/Sources/P/Run.swift b/Sources/P/Run.swift
        index \(GitBlob.id(of: preimage))..\(GitBlob.id(of: preimage.replacingOccurrences(of: "b() {\n    if x {\n        run(1)", with: "b() {\n    if x {\n        run(2)")))
        --- a/Sources/P/Run.swift
        +++ b/Sources/P/Run.swift
        @@ -5,6 +5,6 @@
         }
         func b() {
             if x {
        -        run(1)
        +        run(2)
             }
         }

        """

    private func rebase(_ today: String, preimage: String? = preimage) throws -> PatchRebaser.Outcome {
        let diff = try DiffParser.parse(Self.patch)
        return PatchRebaser.rebase(diff, reading: { $0 == "Sources/P/Run.swift" ? today : nil }, files: ["Sources/P/Run.swift"],
                                   preimage: { id in id == GitBlob.id(of: Self.preimage) ? preimage : nil })
    }

    /// Git's own ids (`git hash-object`): empty, past one 64-byte block, and not ASCII.
    @Test func blobIDsAreGits() {
        #expect(GitBlob.id(of: "") == "e69de29bb2d1")
        #expect(GitBlob.id(of: String(repeating: "a", count: 100) + "\n") == "245545a3a473")
        #expect(GitBlob.id(of: String(repeating: "é", count: 40)) == "a86358207ad2")
        #expect(GitBlob.isID("abcd") && GitBlob.isID(String(repeating: "f", count: 40)))
        #expect(!GitBlob.isID("abc") && !GitBlob.isID(String(repeating: "f", count: 41)) && !GitBlob.isID("ghij") && !GitBlob.isID("-abcd"))
    }

    @Test func theIndexLineNamesTheBlobsAndIsWrittenBack() throws {
        let diff = try DiffParser.parse(Self.patch)
        #expect(diff.files[0].blobs?.old == GitBlob.id(of: Self.preimage))
        #expect(diff.text.contains("index \(GitBlob.id(of: Self.preimage))..") == true)
        #expect(try DiffParser.parse("index zz..yy 100644\n--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+b\n").files[0].blobs == nil,
                "an index line that names no blob is not taken for one")
        let body = "--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+b\n"
        #expect(try DiffParser.parse("index 1234567..89abcde..0123456 100644\n" + body).files[0].blobs == nil, "three ids are no pair")
        #expect(try DiffParser.parse("index 1234567.89abcde 100644\n" + body).files[0].blobs == nil, "one dot is no range")
        let emptyNewFile = "diff --git a/E.swift b/E.swift\nnew file mode 100644\nindex 0000000..e69de29\n"
        #expect(try DiffParser.parse(emptyNewFile + "diff --git a/A.swift b/A.swift\n" + body).files.map(\.blobs) == [nil],
                "an empty new file's index line (it has no ---) is not the next file's")
    }

    /// The renamed function leaves the hunk's context no line that tells
    /// the two `run(1)` apart: by its text alone the place is ambiguous.
    @Test func aHunkTheTextCannotPlaceIsPlacedByItsPreimage() throws {
        let today = Self.preimage.replacingOccurrences(of: "func b() {", with: "func bee() {")
        #expect(throws: Never.self) { try rebase(today, preimage: nil) }
        guard case .refused(let refusal) = try rebase(today, preimage: nil) else {
            Issue.record("without the preimage, two places alike are not guessed between")
            return
        }
        #expect(refusal.reason.contains("occur 2 times"), "\(refusal)")

        guard case .rebased(let diff, let moves) = try rebase(today) else {
            Issue.record("the preimage says which of the two it is")
            return
        }
        #expect(moves.count == 1 && moves[0].contains("by its preimage (three-way)"), "\(moves)")
        guard case .success(let changes) = diff.changes(reading: { _ in today }) else {
            Issue.record("the rebased patch does not apply")
            return
        }
        #expect(changes[0].content == today.replacingOccurrences(of: "bee() {\n    if x {\n        run(1)", with: "bee() {\n    if x {\n        run(2)"),
                "b's call, not a's")
        #expect(diff.files[0].blobs == BlobIDs(old: GitBlob.id(of: today), new: GitBlob.id(of: changes[0].content ?? "")),
                "the new patch names the blobs it goes between")
    }

    /// `b`'s call became `run(10)`: only `a`'s `run(1)` has the text, and
    /// the preimage shows it was `a`'s all along. Without the preimage the
    /// text would take it.
    @Test func linesChangedSinceAreNotCarriedToOtherLinesWithTheirText() throws {
        let today = Self.preimage.replacingOccurrences(of: "b() {\n    if x {\n        run(1)", with: "b() {\n    if x {\n        run(10)")
        guard case .refused(let refusal) = try rebase(today) else {
            Issue.record("a's call is not the mutant's")
            return
        }
        #expect(refusal.reason.contains("were changed since it was recorded"), "\(refusal)")
        #expect(refusal.candidates == ["Sources/P/Run.swift:3"])
        // A change right beside the mutant's lines is a conflict, as in a merge.
        let beside = Self.preimage.replacingOccurrences(of: "b() {\n    if x {", with: "b() {\n    if y {")
        if case .rebased(_, let moves) = try rebase(beside) {
            #expect(!moves.joined().contains("three-way"), "a neighbour changed: not placed by the preimage (\(moves))")
        }
    }

    /// A neighbour of the mutant's line changed, so the preimage does not
    /// place the hunk itself; of the two places its text has, it rules out
    /// `a`'s, which the preimage shows was another line all along, and says so.
    @Test func thePreimageRulesOutAPlaceThatWasAnotherLine() throws {
        let beside = Self.preimage.replacingOccurrences(of: "b() {\n    if x {", with: "b() {\n    if y {")
        guard case .rebased(let diff, let moves) = try rebase(beside) else {
            Issue.record("b's call is the one place left")
            return
        }
        #expect(moves == ["Sources/P/Run.swift '@@ -5,6 +5,6 @@' -> Sources/P/Run.swift:8 (by its lines, the preimage ruling out 1 other place(s))"])
        guard case .success(let changes) = diff.changes(reading: { _ in beside }) else {
            Issue.record("the rebased patch does not apply")
            return
        }
        #expect(changes[0].content == beside.replacingOccurrences(of: "if y {\n        run(1)", with: "if y {\n        run(2)"))
        // With `a`'s call changed too, nothing is left to rule out, and nothing is said of it.
        let alone = beside.replacingOccurrences(of: "a() {\n    if x {\n        run(1)", with: "a() {\n    if x {\n        run(3)")
        guard case .rebased(_, let aloneMoves) = try rebase(alone) else {
            Issue.record("b's call is the only place")
            return
        }
        #expect(aloneMoves == ["Sources/P/Run.swift '@@ -5,6 +5,6 @@' -> Sources/P/Run.swift:8 (by its lines)"])
    }

    /// Where a stale mutant's lines may have moved: the package's files of
    /// the patch's kinds, not in `.build`, a hidden folder or a linked one,
    /// and never a folder that merely has the name of one.
    @Test func theFilesAHunkMayHaveMovedToAreThePackagesOwn() throws {
        try withScratch { scratch in
            for path in ["Sources/P/A.swift", "Tests/PTests/B.swift", "Sources/P/notes.txt", ".build/debug/C.swift", ".hidden/D.swift",
                         "Sources/P/Folder.swift/E.txt", "Sources/Q/.build/F.swift"] {
                try scratch.write("pkg/" + path, "// \(path)\n")
            }
            let root = scratch.url.appendingPathComponent("pkg")
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("Linked"), withDestinationURL: root.appendingPathComponent("Sources"))
            #expect(MutantRebaser.files(in: root, withExtensions: ["swift"]) == ["Sources/P/A.swift", "Tests/PTests/B.swift"])
            #expect(MutantRebaser.files(in: root, withExtensions: ["swift", "txt"]) == ["Sources/P/A.swift", "Sources/P/Folder.swift/E.txt",
                                                                                         "Sources/P/notes.txt", "Tests/PTests/B.swift"])
        }
    }

    /// The real repository: the blob is read with `git cat-file`, and the
    /// ids `GitBlob` gives are git's own.
    @Test func thePreimageIsReadFromTheRepositoryThatHoldsThePackage() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Sources/P/Run.swift", Self.preimage)
            let root = scratch.url.appendingPathComponent("pkg")
            try git(["init", "-q"], in: root)
            try git(["add", "."], in: root)
            try git(["commit", "-q", "-m", "preimage"], in: root)
            #expect(try git(["hash-object", "Sources/P/Run.swift"], in: root).hasPrefix(GitBlob.id(of: Self.preimage)))
            try scratch.write("pkg/Sources/P/Run.swift", Self.preimage.replacingOccurrences(of: "func b() {", with: "func bee() {"))
            let mutant = try MutantFileParser.parse("Mutant: runs-two\nDescription: b runs 2\n\n" + Self.patch, file: "runs-two.patch")
            guard case .rebased(_, let moves) = MutantRebaser.rebase(mutant, root: root) else {
                Issue.record("the blob is in the repository")
                return
            }
            #expect(moves.joined().contains("three-way"), "\(moves)")
            #expect(GitBlob.text(of: "--help", near: root) == nil && GitBlob.text(of: "0000000", near: root) == nil,
                    "an option or the null id is never handed to git")
            #expect(GitBlob.text(of: "abcdef12", near: root) == nil, "a blob the repository does not have")
            #expect(GitBlob.text(of: GitBlob.id(of: Self.preimage), near: root) == Self.preimage)
            // This text's blob id starts with five zeros: the null id is still never read.
            try scratch.write("pkg/Zero.txt", "zero 943285\n")
            #expect(try git(["hash-object", "-w", "Zero.txt"], in: root).hasPrefix("0000077b4508"))
            #expect(GitBlob.text(of: "00000", near: root) == nil, "an id of zeros is the null id even when a blob's id starts with it")
        }
    }
}

extension ThreeWayRebaseTests {
    /// A hunk that moved to another file is not ruled out by its own file's
    /// preimage: that preimage says nothing of the other file's lines.
    @Test func aHunkMovedToAnotherFileIsNotRuledOutByItsOwnPreimage() throws {
        let preimage = "func keep() {\n    one()\n}\nfunc moved() {\n    two(1)\n}\n"
        let id = GitBlob.id(of: preimage)
        let diff = try DiffParser.parse("index \(id)..\(id)\n--- a/Sources/P/A.swift\n+++ b/Sources/P/A.swift\n"
            + "@@ -4,3 +4,3 @@\n func moved() {\n-    two(1)\n+    two(2)\n }\n")
        let files = ["Sources/P/A.swift": "func keep() {\n    one()\n}\n", "Sources/P/B.swift": "func moved() {\n    two(1)\n}\n"]
        let outcome = PatchRebaser.rebase(diff, reading: { files[$0] }, files: files.keys.sorted(), preimage: { $0 == id ? preimage : nil })
        guard case .rebased(_, let moves) = outcome else {
            Issue.record("carried to B: \(outcome)")
            return
        }
        #expect(moves == ["Sources/P/A.swift '@@ -4,3 +4,3 @@' -> Sources/P/B.swift:2 (by its lines, moved to another file)"], "\(moves)")
    }

    /// A refusal names at most five of the places the preimage ruled out.
    @Test func aRefusalNamesAtMostFiveRuledOutPlaces() throws {
        let preimage = (1...7).map { "f\($0)()\nrun(1)\n" }.joined()
        let today = preimage.replacingOccurrences(of: "f7()\nrun(1)", with: "f7()\nrun(10)")
        let id = GitBlob.id(of: preimage)
        let diff = try DiffParser.parse("index \(id)..\(id)\n--- a/Sources/P/Run.swift\n+++ b/Sources/P/Run.swift\n@@ -13,2 +13,2 @@\n f7()\n-run(1)\n+run(2)\n")
        let outcome = PatchRebaser.rebase(diff, reading: { $0 == "Sources/P/Run.swift" ? today : nil }, files: ["Sources/P/Run.swift"],
                                          preimage: { $0 == id ? preimage : nil })
        guard case .refused(let refusal) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(refusal.reason.contains("were changed since it was recorded"), "\(refusal)")
        #expect(refusal.candidates == [2, 4, 6, 8, 10].map { "Sources/P/Run.swift:\($0)" })
    }

    /// A hunk that replaces a blank line, placed by its preimage, adds its
    /// lines as written: there is no neighbour to take an indentation from.
    @Test func aReplacedBlankLineKeepsItsAddedLinesIndentation() throws {
        let preimage = "func f() {\n\n    b()\n    c()\n}\n"
        let today = preimage.replacingOccurrences(of: "    c()", with: "    C()")
        let id = GitBlob.id(of: preimage)
        let diff = try DiffParser.parse("index \(id)..\(id)\n--- a/Sources/P/F.swift\n+++ b/Sources/P/F.swift\n@@ -2,3 +2,3 @@\n-\n+    x()\n     b()\n     c()\n")
        let outcome = PatchRebaser.rebase(diff, reading: { $0 == "Sources/P/F.swift" ? today : nil }, files: ["Sources/P/F.swift"],
                                          preimage: { $0 == id ? preimage : nil })
        guard case .rebased(let carried, let moves) = outcome, case .success(let changes) = carried.changes(reading: { _ in today }) else {
            Issue.record("\(outcome)")
            return
        }
        #expect(moves.count == 1 && moves[0].contains("by its preimage (three-way)"), "\(moves)")
        #expect(changes[0].content == "func f() {\n    x()\n    b()\n    C()\n}\n")
    }
}
