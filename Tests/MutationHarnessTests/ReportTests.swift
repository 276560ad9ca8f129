import Foundation
import Testing
@testable import MutationHarness

struct ReportTests {
    static func sampleReport() -> LabReport {
        func result(_ name: String, _ status: MutantStatus, killedBy: [String] = [], reason: String? = nil) -> MutantResult {
            MutantResult(name: name, description: "what \(name) breaks", bug: nil, status: status, killedBy: killedBy, reason: reason,
                         buildSeconds: 1.5, testSeconds: 2, files: ["Sources/A.swift"], firstLine: 2, lastLine: 2,
                         diff: "--- a/Sources/A.swift\n+++ b/Sources/A.swift\n@@ -2 +2 @@\n-b\n+B\n", replacement: "B", log: "logs/\(name).log")
        }
        return LabReport(
            packagePath: "/pkg", threshold: 100, setupSeconds: 0.2, baselineBuildSeconds: 30, baselineTestSeconds: 2,
            testTimeoutSeconds: 36, tests: ["Mod.Suite/a()", "Mod.Suite/b()", "Mod.Legacy/testC"],
            mutants: [
                result("killed-one", .killed, killedBy: ["Mod.Suite/a()"], reason: "Expectation failed: 1 == 2"),
                result("hangs", .timeout, reason: "ran past the limit"),
                result("lives", .survived, reason: "all 3 tests passed"),
                result("broken", .unviable, reason: "error: cannot convert"),
                result("old", .stale, reason: "Sources/A.swift: hunk '@@ -2 +2 @@' does not match"),
                result("later", .pending),
            ], shard: nil,
            testLocations: ["Mod.Suite/a()": TestLocation(file: "Tests/ModTests/SuiteTests.swift", line: 4),
                            "Mod.Suite/b()": TestLocation(file: "Tests/ModTests/SuiteTests.swift", line: 9)])
    }

    /// A mutant's location ends at the end of its last line (columns count
    /// from 1), and stays inside the file whatever lines the mutant claims.
    @Test func aMutantsLocationEndsAtTheEndOfItsLastLineInsideTheFile() throws {
        var report = Self.sampleReport()
        report.mutants = [(1, 1), (2, 3), (0, 9)].map { lines in
            var mutant = report.mutants[0]
            (mutant.firstLine, mutant.lastLine) = lines
            return mutant
        }
        let json = try JSONEncoder().encode(MutationTestingReport(report, readSource: { _ in "first line\nxy\nlast one\n" }, isCI: false))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let file = try #require((object["files"] as? [String: [String: Any]])?["Sources/A.swift"])
        let locations = try #require(file["mutants"] as? [[String: Any]]).map { $0["location"] as? [String: [String: Int]] }
        #expect(locations.map { [$0?["start"]?["line"], $0?["start"]?["column"], $0?["end"]?["line"], $0?["end"]?["column"]] } == [
            [1, 1, 1, 11], [2, 1, 3, 9], [1, 1, 4, 1],
        ])
        // A source that cannot be read is one empty line: every mutant points at it.
        let unread = try JSONEncoder().encode(MutationTestingReport(report, readSource: { _ in nil }, isCI: false))
        let unreadObject = try #require(try JSONSerialization.jsonObject(with: unread) as? [String: Any])
        let unreadFile = try #require((unreadObject["files"] as? [String: [String: Any]])?["Sources/A.swift"])
        let unreadLocations = try #require(unreadFile["mutants"] as? [[String: Any]]).map { $0["location"] as? [String: [String: Int]] }
        #expect(unreadLocations.map { [$0?["start"]?["line"], $0?["end"]?["line"], $0?["end"]?["column"]] } == [[1, 1, 1], [1, 1, 1], [1, 1, 1]])
    }

    @Test func jsonFollowsTheMutationTestingElementsSchema() throws {
        let report = MutationTestingReport(Self.sampleReport(), readSource: { _ in "a\nb\nc\n" }, isCI: true)
        let data = try JSONEncoder().encode(report)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Required by the schema at the top level.
        #expect(json["schemaVersion"] as? String == "2")
        let thresholds = try #require(json["thresholds"] as? [String: Any])
        #expect(thresholds["high"] as? Int == 100)
        #expect(thresholds["low"] as? Int == 60, "the report viewer's amber band starts at 60%")
        var lenient = Self.sampleReport()
        lenient.threshold = 40
        #expect(MutationTestingReport(lenient, readSource: { _ in nil }, isCI: true).thresholds.low == 40, "never above the gate's own threshold")
        let files = try #require(json["files"] as? [String: [String: Any]])
        let file = try #require(files["Sources/A.swift"])
        #expect(file["language"] as? String == "swift")
        #expect(file["source"] as? String == "a\nb\nc\n")
        let mutants = try #require(file["mutants"] as? [[String: Any]])
        let allowed: Set = ["Killed", "Survived", "NoCoverage", "CompileError", "RuntimeError", "Timeout", "Ignored", "Pending"]
        for mutant in mutants {
            for key in ["id", "mutatorName", "location", "status"] { #expect(mutant[key] != nil, "mutant needs \(key)") }
            #expect(allowed.contains(mutant["status"] as? String ?? ""))
            let location = try #require(mutant["location"] as? [String: [String: Int]])
            #expect(location["start"]?["line"] == 2)
            #expect(location["start"]?["column"] == 1)
            #expect((location["end"]?["line"] ?? 0) >= 2)
        }
        #expect(mutants.map { $0["status"] as? String } == ["Killed", "Timeout", "Survived", "CompileError", "Ignored", "Pending"])
        #expect(mutants[0]["killedBy"] as? [String] == ["Mod.Suite/a()"])
        #expect(mutants[0]["statusReason"] as? String == "Expectation failed: 1 == 2")
        #expect(mutants[0]["duration"] as? Double == 3_500, "build 1.5 s + tests 2 s, in milliseconds")
        #expect(mutants[5]["duration"] == nil, "a pending mutant has not run")
        // Keyed by the file that declares the tests, with their line; a
        // test whose file is unknown is grouped under its suite.
        let testFiles = try #require(json["testFiles"] as? [String: [String: [[String: Any]]]])
        let suite = try #require(testFiles["Tests/ModTests/SuiteTests.swift"]?["tests"])
        #expect(suite.map { $0["id"] as? String } == ["Mod.Suite/a()", "Mod.Suite/b()"])
        #expect(suite.map { ($0["location"] as? [String: [String: Int]])?["start"]?["line"] } == [4, 9])
        #expect(suite.map { ($0["location"] as? [String: [String: Int]])?["start"]?["column"] } == [1, 1], "columns count from 1")
        #expect(testFiles["Mod.Legacy"]?["tests"]?.map { $0["id"] as? String } == ["Mod.Legacy/testC"])
        // A test of a nested suite without a known file goes under its outer suite, named by the rest of its id.
        var nested = Self.sampleReport()
        nested.tests = ["Mod.Outer/Inner/t()"]
        nested.testLocations = nil
        let nestedFiles = MutationTestingReport(nested, readSource: { _ in nil }, isCI: false).testFiles
        #expect(nestedFiles["Mod.Outer"]?.tests.map(\.name) == ["Inner/t()"], "\(nestedFiles.keys.sorted())")
        let performance = try #require(json["performance"] as? [String: Double])
        #expect(Set(performance.keys) == ["setup", "initialRun", "mutation"])
        // Milliseconds: setup 0.2 s; baseline 30 s + 2 s; six mutants of 3.5 s each.
        #expect(performance["setup"] == 200 && performance["initialRun"] == 32_000 && performance["mutation"] == 21_000, "\(performance)")
        #expect((json["system"] as? [String: Bool])?["ci"] == true)
    }

    @Test func markdownPutsSurvivorsFirstWithTheirDiff() {
        let markdown = MarkdownReport.render(Self.sampleReport())
        let survivor = markdown.range(of: "### survived: lives")
        let unviable = markdown.range(of: "### unviable: broken")
        let table = markdown.range(of: "## All mutants")
        #expect(survivor != nil && unviable != nil && table != nil)
        if let survivor, let unviable, let table {
            #expect(survivor.lowerBound < unviable.lowerBound)
            #expect(unviable.lowerBound < table.lowerBound)
        }
        #expect(markdown.contains("what lives breaks"))
        #expect(markdown.contains("```diff\n--- a/Sources/A.swift"))
        #expect(markdown.contains("| killed-one | killed | 1.5 | 2.0 | all | `Mod.Suite/a()` | Expectation failed: 1 == 2 |"))
        #expect(markdown.contains("Score: 66.7% (threshold 100%)"))
    }

    @Test func junitShowsSurvivorsAsFailuresAndBrokenMutantsAsErrors() {
        let xml = JUnitReport.render(Self.sampleReport())
        #expect(xml.contains("tests=\"6\" failures=\"1\" errors=\"2\" skipped=\"1\""))
        #expect(xml.contains("<testcase classname=\"mutants\" name=\"lives\" time=\"3.500\" file=\"Sources/A.swift\" line=\"2\">\n      <failure message=\"survived: no test failed\">"))
        #expect(xml.contains("<error message=\"stale: Sources/A.swift: hunk '@@ -2 +2 @@' does not match\">"), "an apostrophe needs no escape in an attribute in double quotes")
        #expect(JUnitReport.escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;")
    }

    @Test func consoleLineNamesTheKillingTest() {
        let line = ConsoleFormat.line(for: Self.sampleReport().mutants[0], index: 1, of: 6)
        #expect(line == "[1/6] killed    killed-one  3.5s (build 1.5s, tests 2.0s)  by Mod.Suite/a()")
        var result = Self.sampleReport().mutants[0]
        for (killers, tail) in [(["Mod.Suite/a()"], "by Mod.Suite/a()"), (["Mod.Suite/a()", "Mod.Suite/b()"], "by Mod.Suite/a() (+1 more)"),
                                (["Mod.Suite/a()", "Mod.Suite/b()", "Mod.Suite/c()"], "by Mod.Suite/a() (+2 more)")] {
            result.killedBy = killers
            #expect(ConsoleFormat.line(for: result, index: 1, of: 6).hasSuffix("2.0s)  " + tail), "the first killer, then how many more")
        }
    }
}

extension ReportTests {
    @Test func consoleLinesStayAlignedPastNineMutants() {
        let result = Self.sampleReport().mutants[0]
        #expect(ConsoleFormat.line(for: result, index: 3, of: 12).hasPrefix("[ 3/12] killed    killed-one"))
        #expect(ConsoleFormat.line(for: result, index: 12, of: 12).hasPrefix("[12/12] killed    killed-one"))
    }
}

extension ReportTests {
    @Test func aConsoleLineGivesTheReasonOfEveryOutcomeButAKill() {
        let mutants = Self.sampleReport().mutants
        #expect(ConsoleFormat.line(for: mutants[1], index: 2, of: 6).hasSuffix("  ran past the limit"), "a timeout says why")
        #expect(ConsoleFormat.line(for: mutants[3], index: 4, of: 6).hasSuffix("  error: cannot convert"))
        var silentKill = mutants[0]
        silentKill.killedBy = []
        #expect(ConsoleFormat.line(for: silentKill, index: 1, of: 6) == "[1/6] killed    killed-one  3.5s (build 1.5s, tests 2.0s)",
                "a kill without a test name adds nothing")
    }

    @Test func theReportListsWhatNeedsAttentionByStatusKeepingTheRunsOrderWithinOne() {
        var report = Self.sampleReport()
        let survivor = report.mutants[2]
        report.mutants = ["s3", "s1", "s2"].map { name in
            var copy = survivor
            copy.name = name
            return copy
        } + [report.mutants[4], report.mutants[3]]
        let markdown = MarkdownReport.render(report)
        let headings = markdown.split(separator: "\n").filter { $0.hasPrefix("### ") }.map(String.init)
        #expect(headings == ["### survived: s3", "### survived: s1", "### survived: s2", "### unviable: broken", "### stale: old"], "\(headings)")
    }

    @Test func aMutantThatHasNotRunHasNoTimeYet() throws {
        let mutant = try MutantFileParser.parse("Mutant: m\nDescription: d\n\n" + MutantFileTests.diff, file: "m.patch")
        let pending = MutantResult(pending: mutant)
        var report = Self.sampleReport()
        report.mutants = [pending]
        #expect(report.mutationSeconds == 0)
        #expect(ConsoleFormat.line(for: pending, index: 1, of: 1).contains("0.0s (build 0.0s, tests 0.0s)"))
    }

    @Test func aRunWithNoMutantReachingTheTestsHasNoScore() {
        var report = Self.sampleReport()
        report.mutants = report.mutants.filter { [.unviable, .stale, .pending].contains($0.status) }
        #expect(report.score == nil)
        report.mutants = []
        #expect(report.score == nil)
    }

    @Test func aPassingVerdictCountsTimeoutsAsDetected() {
        var report = Self.sampleReport()
        report.mutants = report.mutants.filter { [.killed, .timeout, .survived].contains($0.status) }
        report.threshold = 50
        #expect(ConsoleFormat.verdict(report).hasPrefix("Gate PASSED: 2 of 3 mutants detected;"), "\(ConsoleFormat.verdict(report))")
        report.mutants = report.mutants.filter { $0.status == .timeout }
        #expect(ConsoleFormat.verdict(report).hasPrefix("Gate PASSED: 1 of 1 mutants detected;"), "timeouts alone: \(ConsoleFormat.verdict(report))")
    }
}

struct FailureMessageTests {
    /// A report's first failure stays a line a reader can take in: a long
    /// message is cut at 1,000 characters and says how much was cut.
    @Test func aLongMessageIsCutAndSaysHowMuchWasCut() {
        let long = "Expectation failed: (taken → [" + (0..<400).map { "\"e\($0)\"" }.joined(separator: ", ") + "]) == []"
        let cut = FailureMessage.clean(long)
        #expect(cut == String(long.prefix(1_000)) + " … (\(long.count - 1_000) more characters; the whole message is in the mutant's log)")
        let exact = String(repeating: "x", count: 1_000)
        #expect(FailureMessage.clean(exact) == exact, "one of exactly 1,000 characters is whole")
        #expect(FailureMessage.clean(exact + "é") == exact + " … (1 more character; the whole message is in the mutant's log)", "counted in characters")
    }

    @Test func dropsTheErrorSuffixAndShowsByteArraysAsText() {
        #expect(FailureMessage.clean("Expectation failed: 1 == 2 (error)") == "Expectation failed: 1 == 2")
        #expect(FailureMessage.clean("Expectation failed: 1 == 2 (error): the comment") == "Expectation failed: 1 == 2: the comment")
        let bytes = Array("{\"a\":1,\"b\":true}".utf8).map(String.init).joined(separator: ", ")
        #expect(FailureMessage.clean("(request.body → [\(bytes)]) == x") == "(request.body → \"{\"a\":1,\"b\":true}\") == x")
        #expect(FailureMessage.clean("[1, 2, 3]") == "[1, 2, 3]", "short arrays are numbers")
        #expect(FailureMessage.clean("[104, 101, 108, 108, 111, 32, 33, 33]") == "\"hello !!\"", "eight bytes are text already")
        #expect(FailureMessage.clean("[104, 101, 108, 108, 111, 32, 33]") == "[104, 101, 108, 108, 111, 32, 33]", "seven stay numbers")
        #expect(FailureMessage.clean("[300, 1, 2, 3, 4, 5, 6, 7, 8]") == "[300, 1, 2, 3, 4, 5, 6, 7, 8]", "not bytes")
        #expect(FailureMessage.clean("[300, 104, 101, 108, 108, 111, 32, 33, 33]") == "[300, 104, 101, 108, 108, 111, 32, 33, 33]",
                "one number that is no byte keeps the whole array as numbers")
        #expect(FailureMessage.clean("[123, 10, 9, 34, 97, 34, 58, 49, 10, 125]") == "\"{\n\t\"a\":1\n}\"", "a body over lines is text")
        #expect(FailureMessage.clean("[104, 101, 108, 108, 111, 1, 33, 33]") == "[104, 101, 108, 108, 111, 1, 33, 33]",
                "a control character other than a line break or tab keeps the numbers")
    }
}

extension ReportTests {
    @Test func writesCargoMutantsListsForScripts() throws {
        try withScratch { scratch in
            try ReportWriter.write(Self.sampleReport(), to: scratch.url, packagePath: scratch.url, isCI: false)
            func list(_ name: String) throws -> String { try String(contentsOf: scratch.url.appendingPathComponent(name), encoding: .utf8) }
            #expect(try list("caught.txt") == "killed-one\n")
            #expect(try list("timeout.txt") == "hangs\n")
            #expect(try list("missed.txt") == "lives\n")
            #expect(try list("unviable.txt") == "broken\nold\n")
            #expect(try list("uncovered.txt") == "", "no NoCoverage mutant in the sample")
            #expect(try list("junit.xml") == JUnitReport.render(Self.sampleReport()))
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("report.html").path))
        }
    }
}

extension ReportTests {
    /// A broken-mutant verdict names the stale, unviable and erroring mutants only, each with its status.
    @Test func aBrokenMutantVerdictNamesOnlyTheBrokenMutants() {
        var report = Self.sampleReport()
        report.threshold = 0
        #expect(ConsoleFormat.verdict(report) == "Gate FAILED: broken unviable, old stale: a mutant that no longer applies, compiles or runs is a defect "
            + "to fix (`mutate check`, then re-record it).")
    }
}

extension ReportTests {
    /// A test whose id names no suite (no slash) and whose file is unknown is grouped under "tests".
    @Test func aTestWithNoSuiteAndNoKnownFileIsGroupedUnderTests() {
        var report = Self.sampleReport()
        report.tests = ["Mod.lonely()"]
        report.testLocations = nil
        let testFiles = MutationTestingReport(report, readSource: { _ in nil }, isCI: false).testFiles
        #expect(testFiles.mapValues { $0.tests.map(\.id) } == ["tests": ["Mod.lonely()"]], "\(testFiles.keys.sorted())")
    }
}

extension ReportTests {
    /// report.json and report.html show each mutated file's source as the package holds it.
    @Test func theReportsShowEachFilesSourceFromThePackage() throws {
        try withScratch { scratch in
            let source = "let a = 1\nlet b = 2\nlet c = 3\n"
            try scratch.write("pkg/Sources/A.swift", source)
            let folder = scratch.url.appendingPathComponent("report")
            try ReportWriter.write(Self.sampleReport(), to: folder, packagePath: scratch.url.appendingPathComponent("pkg"), isCI: false)
            let json = try JSONDecoder().decode(MutationTestingReport.self, from: Data(contentsOf: folder.appendingPathComponent("report.json")))
            #expect(json.files["Sources/A.swift"]?.source == source)
            let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
            #expect(html.contains("<span class=\"hit\"><span class=\"num\">2</span>let b = 2</span>"), "\(html)")
        }
    }
}
