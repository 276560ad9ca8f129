import Foundation
import Testing
@testable import MutationHarness

/// Where the named mutants' schema cannot hold a mutant, and what each
/// such mutant gets instead: a file the schema never rewrites, a mutant of
/// two files, a schema that does not build.
extension LabCoverageTests {
    /// A named mutant `name` of `files` (path, line, old text, new text), in that order.
    func patch(_ name: String, _ files: [(path: String, line: Int, old: [String], new: [String])]) throws -> Mutant {
        let hunks = files.map { file in
            let count = { (lines: [String]) in lines.count == 1 ? "" : ",\(lines.count)" }
            let start = file.old.isEmpty ? file.line - 1 : file.line
            return "--- a/\(file.path)\n+++ b/\(file.path)\n@@ -\(start)\(count(file.old)) +\(file.line)\(count(file.new)) @@\n"
                + file.old.map { "-\($0)\n" }.joined() + file.new.map { "+\($0)\n" }.joined()
        }.joined()
        return try MutantFileParser.parse("Mutant: \(name)\nDescription: \(name)\n\n" + hunks, file: "\(name).patch")
    }

    func log(_ name: String, in logs: URL) throws -> String {
        try String(contentsOf: logs.appendingPathComponent("\(name).log"), encoding: .utf8)
    }

    /// Only Swift files under `Sources/` take part: a test file's lines must
    /// stay where the test runner reports them, and any other file is no
    /// code. Such a mutant is built on its own, and its log says why.
    @Test(arguments: ["README.md", "Sources/Tiny/notes.txt", "Tests/TinyTests/ArithmeticTests.swift"])
    func aNamedMutantOfAFileTheSchemaNeverRewritesIsBuiltOnItsOwn(path: String) throws {
        let other = try patch("elsewhere", [(path, 1, ["one"], ["two"])])
        let (report, _, output, logs) = try run(files: [path: "one\n"], mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b"), other],
                                                configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("1 named mutants run by switch, 1 built on their own"), "\(output)")
        #expect(output.contains("  1 named mutant(s) change more than function bodies and are built on their own (each one's log says why)"),
                "\(output)")
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        #expect(byName["subtracts"]?.status == .killed && byName["subtracts"]?.buildSeconds == 0, "by its switch")
        #expect(byName["elsewhere"]?.buildSeconds ?? 0 > 0, "on its own build")
        #expect(try log("elsewhere", in: logs).contains("not in the named mutants' schema, so built on its own: "
            + "it creates, deletes or renames a file, or changes one that is not Swift under Sources/ (\(path))"))
    }

    /// `Limits.most()` returns 1: a function body of a second file.
    static let limitsFunction = "public enum Limits {\n    public static func most() -> Int {\n        1\n    }\n}\n"

    /// A named mutant of two files is in the schema only when both of its
    /// changes are function bodies: then both swaps are behind its one
    /// switch; otherwise it is built on its own, with the first refusal as its reason.
    @Test func aMutantOfTwoFilesRunsBySwitchOnlyWhenBothChangesAreBodies() throws {
        let bodies = try patch("both-bodies", [("Sources/Tiny/Limits.swift", 3, ["        1"], ["        2"]),
                                              ("Sources/Tiny/Arithmetic.swift", 4, ["        a + b"], ["        a - b"])])
        let declaration = try patch("body-then-declaration", [("Sources/Tiny/Limits.swift", 3, ["        1"], ["        3"]),
                                                             ("Sources/Tiny/Arithmetic.swift", 6, ["    public static let zero = 0"],
                                                              ["    public static let zero = 1"])])
        let twoRefusals = try patch("two-refusals", [("Sources/Tiny/Arithmetic.swift", 6, ["    public static let zero = 0"],
                                                      ["    public static let zero = 2"]),
                                                     ("Sources/Tiny/Limits.swift", 6, [], ["public func least() -> Int { 0 }"])])
        let (report, _, output, logs) = try run(files: ["Sources/Tiny/Limits.swift": Self.limitsFunction], mutants: [bodies, declaration, twoRefusals],
                                                configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("1 named mutants run by switch, 2 built on their own"), "\(output)")
        let byName = Dictionary(uniqueKeysWithValues: report.mutants.map { ($0.name, $0) })
        #expect(byName["both-bodies"]?.status == .killed, "its second file's swap is switched on too: \(String(describing: byName["both-bodies"]))")
        #expect(byName["both-bodies"]?.buildSeconds == 0)
        #expect(byName["body-then-declaration"]?.buildSeconds ?? 0 > 0, "a body and a declaration: built on its own")
        #expect(try log("body-then-declaration", in: logs).contains("it changes Sources/Tiny/Arithmetic.swift outside function bodies"))
        #expect(try log("two-refusals", in: logs).contains("it changes Sources/Tiny/Arithmetic.swift outside function bodies"),
                "the first file's refusal, not the second's")
    }

    /// A schema the compiler refuses for an error no mutant explains (in a
    /// file none of them changes) is given up: the baseline is built
    /// without it, and each mutant on its own.
    @Test func aNamedSchemaThatDoesNotBuildLeavesEachMutantToItsOwnBuild() throws {
        let (report, runner, output, logs) = try run(mutants: [try mutant("elsewhere", line: 4, "        a + b", "        a + b // SCHEMA-ELSEWHERE")],
                                                     configureLab: { $0.schema = true })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("  the named mutants' schema does not build ("), "\(output)")
        #expect(output.contains("Building the unmutated package (the first build of a fresh scratch copy takes longest)..."), "\(output)")
        let builds = runner.calls.filter { $0.command == "build" }.map(\.source)
        #expect(builds.count == 3, "the schema, the package without it, the mutant on its own")
        #expect(builds.dropFirst().first == Self.source, "the baseline builds the package, the schema taken out")
        #expect(report.mutants.first?.status == .unviable, "its own build fails as the schema's did")
    }

    /// Named mutants that give the schema nothing to hold (a declaration, a
    /// patch that changes nothing) plan no schema: no schema build fails.
    @Test func mutantsThatGiveTheSchemaNothingPlanNoSchema() throws {
        let (report, runner, output, logs) = try run(mutants: [try mutant("zero-one", line: 6, "    public static let zero = 0", "    public static let zero = 1"),
                                                               try mutant("same", line: 4, "        a + b", "        a + b")],
                                                     configureLab: { $0.schema = true })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(!output.contains("schema"), "\(output)")
        #expect(runner.buildLimits.count == 3, "the baseline, then each mutant on its own")
        #expect(report.mutants.map(\.status) == [.survived, .survived])
    }

    /// An executable's `main.swift` is parsed under its own name (its
    /// top-level code parses only there), in a folder of its own.
    @Test func aNamedMutantOfAFunctionInMainSwiftRunsBySwitch() throws {
        let main = "print(twice(1))\nfunc twice(_ x: Int) -> Int {\n    x * 2\n}\n"
        let (report, _, output, logs) = try run(files: ["Sources/Tool/main.swift": main],
                                                mutants: [try patch("thrice", [("Sources/Tool/main.swift", 3, ["    x * 2"], ["    x * 3"])])],
                                                configureLab: { $0.schema = true })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("1 named mutants run by switch, 0 built on their own"), "\(output)")
        #expect(report.mutants.first?.buildSeconds == 0)
    }

    /// A compiler that cannot parse the mutants' files leaves every named
    /// mutant to its own build, and says so.
    @Test func aParseThatFailsBuildsEachNamedMutantOnItsOwn() throws {
        let (report, _, output, logs) = try run(configureLab: { configuration in
            configuration.schema = true
            let folder = configuration.packagePath.deletingLastPathComponent().appendingPathComponent("toolchain")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let swiftc = folder.appendingPathComponent("swiftc")
            #expect(FileManager.default.createFile(atPath: swiftc.path, contents: Data("#!/bin/sh\nexit 1\n".utf8), attributes: [.posixPermissions: 0o755]))
            configuration.swift = folder.appendingPathComponent("swift").path
        })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("  the named mutants are built one by one: the compiler's parse of their files failed"), "\(output)")
        #expect(report.mutants.allSatisfy { $0.buildSeconds > 0 || $0.status == .noCoverage })
    }

    /// A named mutant whose version of a file does not parse is built on its
    /// own (where the compiler says why), and its log says so.
    @Test func aNamedMutantThatDoesNotParseIsBuiltOnItsOwn() throws {
        let (report, _, output, logs) = try run(mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b"),
                                                          try mutant("unfinished", line: 4, "        a + b", "        a +")],
                                                configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("1 named mutants run by switch, 1 built on their own"), "\(output)")
        #expect(try log("unfinished", in: logs).contains("the compiler could not parse Sources/Tiny/Arithmetic.swift with or without it"))
        #expect(report.mutants.first { $0.name == "unfinished" }?.buildSeconds ?? 0 > 0)
    }
}

extension LabCoverageTests {
    /// A named mutant whose code the compiler refuses in the schema is left
    /// out of the next attempt; the others still run by their switch.
    @Test func aNamedMutantBlamedForTheSchemasBuildIsLeftOutOfTheNextAttempt() throws {
        let (report, _, output, logs) = try run(mutants: [try mutant("subtracts", line: 4, "        a + b", "        a - b"),
                                                          try mutant("idle-broken", line: 8, "        1", "        1 // SCHEMA-FAILS-AT-LINE 13")],
                                                configureLab: { $0.schema = true; $0.jobs = 1 })
        defer { try? FileManager.default.removeItem(at: logs) }
        #expect(output.contains("the named mutants' schema (2 mutants in one build, attempt 1)..."), "\(output)")
        #expect(output.contains("the named mutants' schema (1 mutants in one build, attempt 2)..."), "\(output)")
        #expect(output.contains("1 named mutants run by switch, 1 built on their own"), "\(output)")
        let subtracts = try #require(report.mutants.first { $0.name == "subtracts" })
        #expect(subtracts.status == .killed && subtracts.buildSeconds == 0, "by its switch: \(subtracts)")
    }
}
