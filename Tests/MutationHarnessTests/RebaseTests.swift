import Foundation
import Testing
@testable import MutationHarness

/// `PatchRebaser`: each strategy carries what it should to the one right
/// place, and each refusal leaves the mutant stale with its reason.
struct PatchRebaserTests {
    /// The code a mutant was recorded against.
    static let original = """
        enum Policy {
            static func retries(_ status: Int) -> Bool {
                if status == 429 { return true }
                return status >= 500
            }
        }

        """

    /// `>= 500` becomes `>= 400`: retries a 400.
    static let patch = """
        --- a/Sources/P/Policy.swift
        +++ b/Sources/P/Policy.swift
        @@ -2,5 +2,5 @@
             static func retries(_ status: Int) -> Bool {
                 if status == 429 { return true }
        -        return status >= 500
        +        return status >= 400
             }
         }

        """

    private func diff(_ text: String) throws -> UnifiedDiff { try DiffParser.parse(text) }

    private func rebase(_ files: [String: String], patch: String = patch) throws -> PatchRebaser.Outcome {
        PatchRebaser.rebase(try diff(patch), reading: { files[$0] }, files: files.keys.sorted())
    }

    /// The source after the outcome's diff is applied.
    private func applied(_ outcome: PatchRebaser.Outcome, _ files: [String: String]) throws -> [String: String?] {
        guard case .rebased(let diff, _) = outcome else {
            Issue.record("not rebased: \(outcome)")
            return [:]
        }
        guard case .success(let changes) = diff.changes(reading: { files[$0] }) else {
            Issue.record("the rebased diff does not apply")
            return [:]
        }
        return Dictionary(uniqueKeysWithValues: changes.map { ($0.path, $0.content) })
    }

    @Test func aPatchThatAppliesIsLeftAsItIs() throws {
        #expect(try rebase(["Sources/P/Policy.swift": Self.original]) == .applies)
    }

    @Test func changedLinesWithNewNeighboursAndShiftedLinesAreCarried() throws {
        let today = """
            import Foundation

            /// Which answers are retried.
            enum Policy {
                static let limit = 3

                static func retries(_ status: Int, attempt: Int) -> Bool {
                    guard attempt < limit else { return false }
                    return status >= 500
                }
            }

            """
        let outcome = try rebase(["Sources/P/Policy.swift": today])
        let result = try applied(outcome, ["Sources/P/Policy.swift": today])
        #expect(result["Sources/P/Policy.swift"] == today.replacingOccurrences(of: ">= 500", with: ">= 400"))
        if case .rebased(let diff, let moves) = outcome {
            #expect(moves == ["Sources/P/Policy.swift '@@ -2,5 +2,5 @@' -> Sources/P/Policy.swift:9 (by its lines)"])
            #expect(diff.text.contains("@@ -6,6 +6,6 @@\n"), "context comes from today's file: \(diff.text)")
            #expect(try DiffParser.parse(diff.text) == diff, "the written diff reads back as itself")
        }
    }

    @Test func addedLinesTakeTheNewIndentation() throws {
        let today = """
            enum Policy {
                enum HTTP {
                    static func retries(_ status: Int) -> Bool {
                        return status >= 500
                    }
                }
            }

            """
        let result = try applied(try rebase(["Sources/P/Policy.swift": today]), ["Sources/P/Policy.swift": today])
        #expect(result["Sources/P/Policy.swift"] == today.replacingOccurrences(of: "            return status >= 500", with: "            return status >= 400"))
    }

    @Test func aPureInsertionIsPlacedByTheLinesAroundIt() throws {
        let insertion = """
            --- a/Sources/P/Policy.swift
            +++ b/Sources/P/Policy.swift
            @@ -2,3 +2,4 @@
                 static func retries(_ status: Int) -> Bool {
                     if status == 429 { return true }
            +        if status == 400 { return true }
                     return status >= 500

            """
        let today = "// header\n" + Self.original.replacingOccurrences(of: "    static func", with: "    @inlinable static func")
        let result = try applied(try rebase(["Sources/P/Policy.swift": today], patch: insertion), ["Sources/P/Policy.swift": today])
        #expect(result["Sources/P/Policy.swift"] == today.replacingOccurrences(
            of: "        if status == 429 { return true }\n", with: "        if status == 429 { return true }\n        if status == 400 { return true }\n"))
    }

    @Test func codeMovedToOneOtherFileIsFollowed() throws {
        let files = [
            "Sources/P/Policy.swift": "enum Policy {}\n",
            "Sources/P/Retry.swift": "extension Policy {\n    static func retries(_ status: Int) -> Bool {\n        return status >= 500\n    }\n}\n",
        ]
        let outcome = try rebase(files)
        if case .rebased(_, let moves) = outcome { #expect(moves.first?.hasSuffix("Sources/P/Retry.swift:3 (by its lines, moved to another file)") == true, "\(moves)") }
        var withTest = files
        withTest["Tests/PTests/RetryTests.swift"] = files["Sources/P/Retry.swift"]
        guard case .rebased = try rebase(withTest) else {
            Issue.record("a copy of the code in Tests/ is not a place Sources/ code moves to")
            return
        }
        let result = try applied(outcome, files)
        #expect(result["Sources/P/Retry.swift"] == files["Sources/P/Retry.swift"]!.replacingOccurrences(of: ">= 500", with: ">= 400"))
        #expect(result["Sources/P/Policy.swift"] == nil, "the old file is not touched")
    }

    @Test func linesFoundTwiceAreCarriedOnlyWhenTheContextTellsThemApart() throws {
        let twice = """
            enum Policy {
                static func retries(_ status: Int) -> Bool {
                    if status == 429 { return true }
                    return status >= 500
                }
                static func alerts(_ status: Int) -> Bool {
                    return status >= 500
                }
            }

            """
        let result = try applied(try rebase(["Sources/P/Policy.swift": twice]), ["Sources/P/Policy.swift": twice])
        #expect(result["Sources/P/Policy.swift"]??.contains("if status == 429 { return true }\n        return status >= 400") == true,
                "the one with the hunk's context: \(String(describing: result))")

        let alike = "enum A {\n    func a() -> Bool {\n        return status >= 500\n    }\n    func b() -> Bool {\n        return status >= 500\n    }\n}\n"
        guard case .refused(let refusal) = try rebase(["Sources/P/Policy.swift": alike]) else {
            Issue.record("two places alike must not be guessed between")
            return
        }
        #expect(refusal.reason.contains("occur 2 times in Sources/P/Policy.swift"), "\(refusal)")
        #expect(refusal.candidates == ["Sources/P/Policy.swift:3", "Sources/P/Policy.swift:6"])
    }

    /// Two hunks of one file carried together: each takes today's context,
    /// and the second's new start counts the line the first one removes.
    @Test func twoHunksAreCarriedWithTheSecondShiftedByTheFirst() throws {
        let original = """
            enum Policy {
                static func retries(_ status: Int) -> Bool {
                    log("retry?")
                    if status == 429 { return true }
                    return status >= 500
                }
                // a
                // b
                // c
                // d
                static func alerts(_ status: Int) -> Bool {
                    return status >= 500 && status != 503
                }
            }

            """
        let patch = """
            --- a/Sources/P/Policy.swift
            +++ b/Sources/P/Policy.swift
            @@ -3,3 +3,2 @@
                     log("retry?")
            -        if status == 429 { return true }
                     return status >= 500
            @@ -11,3 +10,3 @@
                 static func alerts(_ status: Int) -> Bool {
            -        return status >= 500 && status != 503
            +        return status >= 500 && status != 504
                 }

            """
        // Both hunks' context lines changed, and two lines came before them.
        let today = "import Foundation\n\n" + original.replacingOccurrences(of: "log(\"retry?\")", with: "log(\"retry\")")
            .replacingOccurrences(of: "alerts(_ status: Int)", with: "alerts(_ status: Int, quiet: Bool)")
        let outcome = try rebase(["Sources/P/Policy.swift": today], patch: patch)
        guard case .rebased(let diff, let moves) = outcome else {
            Issue.record("not rebased: \(outcome)")
            return
        }
        #expect(diff.files.map(\.path) == ["Sources/P/Policy.swift"])
        #expect(diff.files.first?.hunks.map(\.header) == ["@@ -3,7 +3,6 @@", "@@ -11,6 +10,6 @@"], "\(diff.text)")
        #expect(moves == ["Sources/P/Policy.swift '@@ -3,3 +3,2 @@' -> Sources/P/Policy.swift:6 (by its lines)",
                          "Sources/P/Policy.swift '@@ -11,3 +10,3 @@' -> Sources/P/Policy.swift:14 (by its lines)"], "\(moves)")
        let result = try applied(outcome, ["Sources/P/Policy.swift": today])
        #expect(result["Sources/P/Policy.swift"] == today.replacingOccurrences(of: "        if status == 429 { return true }\n", with: "")
            .replacingOccurrences(of: "!= 503", with: "!= 504"))
        #expect(try DiffParser.parse(diff.text) == diff, "the written diff reads back as itself")
    }

    /// An inserted line takes the indentation its neighbours have today.
    @Test func aPureInsertionTakesItsNeighboursNewIndentation() throws {
        let insertion = """
            --- a/Sources/P/Policy.swift
            +++ b/Sources/P/Policy.swift
            @@ -3,2 +3,3 @@
                     if status == 429 { return true }
            +        if status == 400 { return true }
                     return status >= 500

            """
        let today = """
            enum Policy {
                enum HTTP {
                    static func retries(_ status: Int) -> Bool {
                        if status == 429 { return true }
                        return status >= 500
                    }
                }
            }

            """
        let result = try applied(try rebase(["Sources/P/Policy.swift": today], patch: insertion), ["Sources/P/Policy.swift": today])
        #expect(result["Sources/P/Policy.swift"] == today.replacingOccurrences(
            of: "{ return true }\n", with: "{ return true }\n            if status == 400 { return true }\n"))
    }

    /// Changed lines moved by different amounts are not the same code any more: not carried.
    @Test func linesReIndentedUnevenlyAreRefused() throws {
        let patch = """
            --- a/Sources/P/Policy.swift
            +++ b/Sources/P/Policy.swift
            @@ -2,3 +2,2 @@
                 static func retries(_ status: Int) -> Bool {
            -        if status == 429 { return true }
            -        return status >= 500
            +        return status >= 400

            """
        let today = "// header\n" + Self.original.replacingOccurrences(of: "        if status == 429", with: "            if status == 429")
        guard case .refused(let refusal) = try rebase(["Sources/P/Policy.swift": today], patch: patch) else {
            Issue.record("carried across an uneven re-indentation")
            return
        }
        #expect(refusal.reason == "Sources/P/Policy.swift: the lines hunk '@@ -2,3 +2,2 @@' changes were re-indented unevenly in Sources/P/Policy.swift",
                "\(refusal)")
    }

    @Test func linesThatAreGoneAreNotGuessedAtAndTheNearestAreNamed() throws {
        let today = Self.original.replacingOccurrences(of: "return status >= 500", with: "return status >= 500 && status != 501")
        // A test that holds the line as it was is not a place the code could have gone.
        let test = "func testRetries() {\n    return status >= 500\n}\n"
        guard case .refused(let refusal) = try rebase(["Sources/P/Policy.swift": today, "Sources/P/Other.swift": "let x = 1\n", "Tests/P/PolicyTests.swift": test]) else {
            Issue.record("a changed line is not the line the mutant changes")
            return
        }
        #expect(refusal.reason == "Sources/P/Policy.swift: the lines hunk '@@ -2,5 +2,5 @@' changes are gone ('return status >= 500'), "
            + "and no line like it holds its `500` among the same neighbours")
        #expect(refusal.candidates.first?.hasPrefix("Sources/P/Policy.swift:4 (") == true, "\(refusal.candidates)")
        #expect(!refusal.candidates.contains { $0.hasPrefix("Tests/") }, "\(refusal.candidates)")
        #expect(refusal.description.contains("% alike)"), "\(refusal)")
    }

    @Test func codeFoundInSeveralOtherFilesOrAFileCreatedAreRefused() throws {
        let moved = "static func retries(_ status: Int) -> Bool {\n    return status >= 500\n}\n"
        guard case .refused(let refusal) = try rebase(["Sources/P/A.swift": moved, "Sources/P/B.swift": moved]) else {
            Issue.record("two files hold the lines")
            return
        }
        #expect(refusal.reason.contains("found in 2 other files"), "\(refusal)")

        let creating = "--- /dev/null\n+++ b/Sources/P/New.swift\n@@ -0,0 +1 @@\n+let x = 1\n"
        guard case .refused = try rebase(["Sources/P/New.swift": "let y = 2\n"], patch: creating) else {
            Issue.record("a patch that creates a file is not carried")
            return
        }
    }

    @Test func theSameChangeIsTheSameRemovedAndAddedLinesIndentationAside() throws {
        let a = try diff(Self.patch)
        var b = a
        b.files[0].hunks[0].lines = b.files[0].hunks[0].lines.map {
            if case .added(let text) = $0 { return .added("    " + text) }
            return $0
        }
        #expect(PatchRebaser.sameChange(a, b))
        b.files[0].hunks[0].lines = [.removed("        return status >= 500"), .added("        return status > 400")]
        #expect(!PatchRebaser.sameChange(a, b))
        #expect(!PatchRebaser.sameEdits(a, b), "two tokens changed, not one")
        // A carried anchor: the same token edit on a line that reads differently around it.
        b.files[0].hunks[0].lines = [.removed("        return code >= 500"), .added("        return code >= 400")]
        #expect(!PatchRebaser.sameChange(a, b) && PatchRebaser.sameEdits(a, b))
        b.files[0].hunks[0].lines = [.removed("        return code >= 500"), .added("        return code >= 501")]
        #expect(!PatchRebaser.sameEdits(a, b), "500 -> 501 is another edit than 500 -> 400")
    }
}

/// The generated-mutant anchor: a mutant that changes one operator or
/// literal follows that token when its line was rewritten around it, to
/// the one place that still reads like it, and nowhere else.
struct OneTokenRebaseTests {
    static let original = """
        struct Collector {
            func answer(_ request: Request) -> Response {
                guard request.body.count <= Self.maximumBodyBytes else { return reject(413, "too_large") }
                return accept(request)
            }
        }

        """

    /// `<=` becomes `<`: a body of exactly the limit is refused.
    static let patch = """
        --- a/Sources/C/Collector.swift
        +++ b/Sources/C/Collector.swift
        @@ -2,4 +2,4 @@
             func answer(_ request: Request) -> Response {
        -        guard request.body.count <= Self.maximumBodyBytes else { return reject(413, "too_large") }
        +        guard request.body.count < Self.maximumBodyBytes else { return reject(413, "too_large") }
                 return accept(request)
             }

        """

    private func rebase(_ today: String) throws -> PatchRebaser.Outcome {
        PatchRebaser.rebase(try DiffParser.parse(Self.patch), reading: { $0 == "Sources/C/Collector.swift" ? today : nil },
                            files: ["Sources/C/Collector.swift"])
    }

    @Test func theChangedTokenIsFoundOnItsRewrittenLineAndChangedThere() throws {
        let today = """
            struct Collector {
                /// Answers before reading a body it would refuse.
                func answer(method: String, bodyLength: Int) -> Response? {
                    guard bodyLength <= Self.maximumBodyBytes else { return reject(413, "too_large") }
                    return nil
                }
            }

            """
        guard case .rebased(let diff, let moves) = try rebase(today) else {
            Issue.record("one operator among the same neighbours, on a line 82% alike, is carried")
            return
        }
        guard case .success(let changes) = diff.changes(reading: { _ in today }) else {
            Issue.record("the carried patch does not apply")
            return
        }
        #expect(changes.first?.content == today.replacingOccurrences(of: "bodyLength <= Self", with: "bodyLength < Self"))
        #expect(moves == ["Sources/C/Collector.swift '@@ -2,4 +2,4 @@' -> Sources/C/Collector.swift:4 "
            + "(its one changed `<=` anchored by the tokens around it, the line rewritten (82% alike))"], "\(moves)")
    }

    /// Two lines that hold the token among the same neighbours: neither is chosen.
    @Test func twoPlacesAlikeAreRefusedAndNamed() throws {
        let line = "        guard bodyLength <= Self.maximumBodyBytes else { return reject(413, \"too_large\") }\n"
        let today = "struct Collector {\n    func a(bodyLength: Int) {\n" + line + "    }\n    func b(bodyLength: Int) {\n" + line + "    }\n}\n"
        guard case .refused(let refusal) = try rebase(today) else {
            Issue.record("two places alike must not be guessed between")
            return
        }
        #expect(refusal.reason.hasSuffix("and 2 lines hold its `<=` among the same neighbours"), "\(refusal)")
        #expect(refusal.candidates == ["Sources/C/Collector.swift:3 (82% alike)", "Sources/C/Collector.swift:6 (82% alike)"], "\(refusal.candidates)")
    }

    /// The token with other neighbours, or on a line that reads too differently, is another place.
    @Test func otherNeighboursOrALineTooDifferentAreNotThePlace() throws {
        for rewritten in [
            "guard bodyLength <= limit else { return reject(413, \"too_large\") }",
            "if request.body.count <= Self.maximumBodyBytes { log(\"fits\") }",
            "guard request.body.count != Self.maximumBodyBytes, a <= b else { return reject(413, \"too_large\") }",
        ] {
            let today = Self.original.replacingOccurrences(
                of: "guard request.body.count <= Self.maximumBodyBytes else { return reject(413, \"too_large\") }", with: rewritten)
            guard case .refused(let refusal) = try rebase(today) else {
                Issue.record("\(rewritten) is not the mutant's place")
                continue
            }
            #expect(refusal.reason.hasSuffix("and no line like it holds its `<=` among the same neighbours"), "\(refusal)")
        }
    }

    /// Only one operator or literal replaced by another is anchored: not a
    /// name, not two tokens, not a string, not a comment.
    @Test(arguments: [
        ("a <= b", "a < b", "<= -> <"), ("x = 500", "x = 400", "500 -> 400"), ("ok = true", "ok = false", "true -> false"),
        ("a && b(c)", "a || b(c)", "&& -> ||"), ("y = 0.5", "y = 1.5", "0.5 -> 1.5"),
        ("a <= b", "c <= b", nil), ("a <= b + 1", "a < b - 1", nil), ("f(\"a<b\")", "f(\"a<=b\")", nil),
        ("a <= b // <= c", "a <= b // < c", nil), ("a.b", "a?.b", nil), ("", "", nil),
        ("a <= b", "a < b + c", nil), ("f(a)", "f(1)", nil), ("f(1)", "f(a)", nil), ("x!", "x?", nil), ("a...b", "a..<b", "... -> ..<"),
    ] as [(String, String, String?)])
    func whatCountsAsOneTokenEdit(removed: String, added: String, edit: String?) {
        #expect(OneTokenEdit(removed: removed, added: added).map { "\($0.original) -> \($0.replacement)" } == edit)
    }

    /// A line's tokens: comments end it, strings are one token even when
    /// unterminated, `.` is member access unless it starts `...` or `..<`,
    /// a number keeps its fraction, anything else runs to a space or a word.
    @Test(arguments: [
        ("a/b", ["a", "/", "b"]), ("a / b // c", ["a", "/", "b"]), ("a /", ["a", "/"]), ("\"\" x", ["\"\"", "x"]),
        ("\"abc", ["\"abc"]), ("a.b", ["a", ".", "b"]), ("1.5.x", ["1.5", ".", "x"]), ("1.", ["1", "."]), ("a.", ["a", "."]),
        ("(-1)", ["(", "-", "1", ")"]), ("a.-1", ["a", ".", "-", "1"]), ("a.(b)", ["a", ".", "(", "b", ")"]),
        ("😀😀 x", ["😀😀", "x"]), ("x 😀", ["x", "😀"]), ("a...b ..<c", ["a", "...", "b", "..<", "c"]),
        ("t.0", ["t", ".", "0"]), ("1+2", ["1", "+", "2"]), ("\"a\\\\\" + b", ["\"a\\\\\"", "+", "b"]),
    ] as [(String, [String])])
    func aLineSplitsIntoTokens(line: String, tokens: [String]) {
        #expect(OneTokenEdit.tokens(of: line).map(\.text) == tokens)
    }

    /// Names and literals around the token count as neighbours on either
    /// side, up to three away; a `.` or a bracket does not.
    @Test(arguments: [
        ("guard request.body.count <= limit else { return reject(413, \"too_large\") }", true),
        ("guard request.x.y <= Self.z else { return reject(413, \"too_large\") }", false),
    ])
    func neighboursCountOnEitherSide(rewritten: String, carried: Bool) throws {
        let today = Self.original.replacingOccurrences(
            of: "guard request.body.count <= Self.maximumBodyBytes else { return reject(413, \"too_large\") }", with: rewritten)
        let outcome = try rebase(today)
        if carried {
            guard case .rebased(let diff, _) = outcome, case .success(let changes) = diff.changes(reading: { _ in today }) else {
                Issue.record("\(rewritten): count and body before the `<=` are two neighbours: \(outcome)")
                return
            }
            #expect(changes.first?.content == today.replacingOccurrences(of: "count <= limit", with: "count < limit"))
        } else {
            guard case .refused = outcome else {
                Issue.record("\(rewritten): only Self is a neighbour within three: \(outcome)")
                return
            }
        }
    }

    /// 75% alike is enough (the tokens joined by spaces: 6 edits in 24 characters); less is not.
    @Test func aLineExactlyThreeQuartersAlikeIsAPlace() throws {
        let edit = try #require(OneTokenEdit(removed: "aaa bbb <= ccc ddd", added: "aaa bbb < ccc ddd"))
        #expect(edit.places(in: ["x", "aaa bbb <= ccc ddd eeeee"]) == [OneTokenEdit.Place(line: 1, token: 2, likeness: 0.75)])
        #expect(edit.places(in: ["aaa bbb <= ccc ddd eeeeee"]).isEmpty)
    }

    @Test func aTokenIsReplacedWithTheSpacingKept() throws {
        let edit = try #require(OneTokenEdit(removed: "a <= b", added: "a < b"))
        #expect(edit.applied(to: "    if  x<=y { z...w }", at: 2) == "    if  x<y { z...w }")
        #expect(OneTokenEdit.tokens(of: "a?.b!.c ..< d ?? \"e\\\"f\" // g").map(\.text) == ["a", "?", ".", "b", "!", ".", "c", "..<", "d", "??", "\"e\\\"f\""])
    }
}

/// The block anchor: a mutant that removes a whole block, or a branch with
/// its `}` kept, removes the same block when it has gained or reworded
/// lines inside, and is refused when the block is not there once.
struct RemovedBlockRebaseTests {
    static let original = """
        func filtered(_ properties: [String: String]) -> [String: String] {
            var kept = properties
            for key in properties.keys {
                if forbidden.contains(key) {
                    stripped.append(key)
                    continue
                }
            }
            return kept
        }

        """

    /// The forbidden-key check is gone: personal keys are sent.
    static let patch = """
        --- a/Sources/A/Filter.swift
        +++ b/Sources/A/Filter.swift
        @@ -3,8 +3,4 @@
             for key in properties.keys {
        -        if forbidden.contains(key) {
        -            stripped.append(key)
        -            continue
        -        }
             }
             return kept
         }

        """

    private func rebase(_ today: String, patch: String = patch) throws -> PatchRebaser.Outcome {
        PatchRebaser.rebase(try DiffParser.parse(patch), reading: { $0 == "Sources/A/Filter.swift" ? today : nil }, files: ["Sources/A/Filter.swift"])
    }

    private func applied(_ outcome: PatchRebaser.Outcome, to today: String) -> String? {
        guard case .rebased(let diff, _) = outcome, case .success(let changes) = diff.changes(reading: { _ in today }) else { return nil }
        return changes.first?.content ?? nil
    }

    @Test func aBlockThatGainedALineIsRemovedWhole() throws {
        let today = Self.original.replacingOccurrences(of: "            stripped.append(key)\n", with: "            stripped.append(key)\n            kept[key] = nil\n")
        let outcome = try rebase(today)
        #expect(applied(outcome, to: today) == """
            func filtered(_ properties: [String: String]) -> [String: String] {
                var kept = properties
                for key in properties.keys {
                }
                return kept
            }

            """, "\(outcome)")
        guard case .rebased(_, let moves) = outcome else { return }
        #expect(moves == ["Sources/A/Filter.swift '@@ -3,8 +3,4 @@' -> Sources/A/Filter.swift:4 (the block anchored by its first line, 5 line(s) today)"])
    }

    /// `} else if` and its body, the `}` kept: the branch is removed, its reworded body with it.
    @Test func aBranchWhoseBodyWasRewordedIsRemovedWithItsBraceKept() throws {
        let original = "if short {\n    counts.short += 1\n} else if long {\n    screens[enter.screen]!.cappedVisits += 1\n}\nreturn counts\n"
        let patch = "--- a/Sources/A/Filter.swift\n+++ b/Sources/A/Filter.swift\n@@ -1,6 +1,4 @@\n if short {\n     counts.short += 1\n"
            + "-} else if long {\n-    screens[enter.screen]!.cappedVisits += 1\n }\n return counts\n"
        #expect(applied(try rebase(original, patch: patch), to: original) == nil, "it applies as it is: nothing to carry")
        let today = "// Counts.\nif short {\n    counts.short += 1\n} else if long {\n    screens[enter.screen, default: blank()].cappedVisits += 1\n}\nreturn counts\n"
        #expect(applied(try rebase(today, patch: patch), to: today) == "// Counts.\nif short {\n    counts.short += 1\n}\nreturn counts\n")
    }

    @Test func aBlockFoundTwiceOrWithoutItsLinesIsRefused() throws {
        let gained = "            stripped.append(key)\n            kept[key] = nil\n"
        let twice = Self.original.replacingOccurrences(of: "            stripped.append(key)\n", with: gained)
            .replacingOccurrences(of: "    return kept\n", with: "    for key in extra.keys {\n        if forbidden.contains(key) {\n"
                + gained + "            continue\n        }\n    }\n    return kept\n")
        guard case .refused(let refusal) = try rebase(twice) else {
            Issue.record("two blocks open with the same line")
            return
        }
        #expect(refusal.reason.hasSuffix("and 2 blocks open with its first line"), "\(refusal)")
        #expect(refusal.candidates == ["Sources/A/Filter.swift:4", "Sources/A/Filter.swift:11"], "\(refusal.candidates)")

        // The block's lines were rewritten: its `continue` is now a `return`.
        let rewritten = Self.original.replacingOccurrences(of: "            stripped.append(key)\n            continue\n",
                                                           with: "            log(key)\n            return [:]\n")
        guard case .refused(let gone) = try rebase(rewritten) else {
            Issue.record("a block whose lines were rewritten is another block")
            return
        }
        #expect(gone.reason.hasSuffix("and no block opening with its first line holds the others"), "\(gone)")
    }

    @Test(arguments: [
        (["if a {", "  b()", "}"], true), (["} else if a {", "  b()"], false), (["if a {", "  b()"], nil), (["if a {", "}", "c()"], nil),
        (["} else {", "  b()", "}"], nil), (["x()", "y()"], nil), (["if a { b() }", "c()"], nil), (["if s == \"{\" {", "  b()", "}"], true),
        (["} else if a {"], nil), (["if a { // x", "  b()", "}"], nil),
    ] as [([String], Bool?)])
    func whatCountsAsARemovedBlock(removed: [String], wholeBlock: Bool?) {
        #expect(RemovedBlock(removed: removed)?.includesCloser == wholeBlock)
    }
}

extension RemovedBlockRebaseTests {
    /// Today's block is found with its lines in the same order, each at
    /// least 60% alike; a nested block stays inside a branch.
    @Test(arguments: [
        (["if a {", "abcde", "}"], ["x()", "if a {", "abcxy", "}"], [1...3]),
        (["if a {", "abcde", "}"], ["if a {", "abxyz", "}"], []),
        (["if a {", "alpha()", "omega()", "}"], ["if a {", "omega()", "alpha()", "}"], []),
        (["if a {", "", "x()", "}"], ["if a {", "", "x()", "z()", "}"], [0...4]),
        (["} else if a {", "  x()"], ["if b {", "  w()", "} else if a {", "  if c {", "    v()", "  }", "  x()", "} else {", "  u()", "}"], [2...6]),
        (["} else if a {", "  x()"], ["} else if a {", "  x()", "y() }"], []),
    ] as [([String], [String], [ClosedRange<Int>])])
    func theBlockTodayIsFoundByItsOpenerAndItsLines(removed: [String], today: [String], places: [ClosedRange<Int>]) throws {
        let block = try #require(RemovedBlock(removed: removed))
        #expect(block.places(in: today) == places)
    }
}

struct MutantRebaserTests {
    /// Blank and white-space-only lines among the headers are kept as
    /// written (the mutant file format allows them).
    @Test func theRewriteKeepsBlankLinesAmongTheHeaders() throws {
        let text = "  \nMutant: m\n\nDescription: d\n\n--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+b\n"
        let diff = try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+b\n")
        #expect(MutantRebaser.rewrite(text, with: diff, stamp: "s") == "  \nMutant: m\n\nDescription: d\nRebased: s\n\n" + diff.text)
        #expect(try MutantFileParser.parse(text, file: "m.patch").name == "m", "such a file is a valid mutant")
    }

    /// An old `Rebased:` header goes with its continuation lines, also one
    /// after a blank line (the parser reads it as continuing that header):
    /// kept, it would continue the header before and the file would not
    /// read back as the same mutant.
    @Test func aDroppedRebasedHeaderTakesItsContinuationAcrossABlankLine() throws {
        let text = "Mutant: m\nRebased: 2020-01-01\n\n  onto abc1234\nDescription: d\n\n--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+b\n"
        let diff = try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+b\n")
        let rewritten = MutantRebaser.rewrite(text, with: diff, stamp: "s")
        #expect(rewritten == "Mutant: m\n\nDescription: d\nRebased: s\n\n" + diff.text)
        #expect(try MutantFileParser.parse(rewritten, file: "m.patch").name == "m")
    }

    @Test func theFileKeepsItsHeadersAndGetsOneRebasedLine() throws {
        let text = "Mutant: m\nDescription: a long\n  description\nRebased: 2020-01-01 onto abc\n  (old)\nBug: b\n\n--- a/A.swift\n+++ b/A.swift\n@@ -1 +1 @@\n-a\n+b\n"
        let diff = try DiffParser.parse("--- a/A.swift\n+++ b/A.swift\n@@ -1,1 +1,1 @@\n-a\n+b\n")
        let rewritten = MutantRebaser.rewrite(text, with: diff, stamp: "2026-12-03 onto def")
        #expect(rewritten == "Mutant: m\nDescription: a long\n  description\nBug: b\nRebased: 2026-12-03 onto def\n\n"
            + "diff --git a/A.swift b/A.swift\n--- a/A.swift\n+++ b/A.swift\n@@ -1,1 +1,1 @@\n-a\n+b\n")
        let mutant = try MutantFileParser.parse(rewritten, file: "m.patch")
        #expect(mutant.description == "a long description")
        #expect(mutant.headers.first { $0.key == "Rebased" }?.value == "2026-12-03 onto def")
    }

    @Test func aLineDiffShowsWhatChangedWithItsContext() {
        let old = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
        var new = old
        new[1] = "B"
        new[8] = "I"
        #expect(LineDiff.unified(old, new, context: 1) == [" a", "-b", "+B", " c", "@@", " h", "-i", "+I", " j"])
        #expect(LineDiff.unified(old, old).isEmpty)
        #expect(LineDiff.unified([], ["x"]) == ["+x"])
    }
}

extension OneTokenRebaseTests {
    /// Places come best first: the line most like the old one, then,
    /// equally alike, the earlier line (the order a refusal names them in).
    @Test func placesComeMostAlikeFirstThenByLine() throws {
        let edit = try #require(OneTokenEdit(removed: "aaa bbb <= ccc ddd", added: "aaa bbb < ccc ddd"))
        let lines = ["aaa bbb <= ccc ddd eeeee", "aaa bbb <= ccc ddd", "aaa bbb <= ccc ddd eeeee"]
        #expect(edit.places(in: lines) == [
            OneTokenEdit.Place(line: 1, token: 2, likeness: 1),
            OneTokenEdit.Place(line: 0, token: 2, likeness: 0.75),
            OneTokenEdit.Place(line: 2, token: 2, likeness: 0.75),
        ])
    }
}
