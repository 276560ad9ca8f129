import Foundation
import Testing
@testable import MutationHarness

/// The pieces of `explore --incremental`: the digest, the results file and
/// the verdict keys.
struct IncrementalTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        // 56 bytes: the padding needs a block of its own.
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func theDigestIsSHA256(text: String, digest: String) {
        #expect(SHA256.hex(text) == digest)
    }

    @Test func theDigestOfManyBlocksFedInPiecesIsTheDigestOfTheWhole() {
        let bytes = (0..<3).flatMap { _ in (0...255).map(UInt8.init) }
        #expect(SHA256.hex(bytes) == "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363")
        var pieces = SHA256()
        pieces.update(bytes.prefix(100))
        pieces.update(bytes.dropFirst(100))
        #expect(pieces.finalize() == SHA256.hex(bytes))
    }

    // MARK: - The results file

    private func sample() -> ResultsFile {
        let result = MutantResult(name: "m1", description: "d", bug: nil, status: .survived, files: ["Sources/A.swift"], firstLine: 1,
                                  lastLine: 1, diff: "", replacement: "", log: "logs/m1.log")
        return ResultsFile(harness: "1", commit: "abc", savedAt: "now", tree: "t", common: "c", baseline: nil, coverage: nil, explored: nil,
                           verdicts: ["m1": .init(key: "k", result: result)])
    }

    @Test func aSavedFileReadsBackTheSameAndLeavesNothingBeside() throws {
        try withScratch { scratch in
            let url = scratch.url.appendingPathComponent("results.json")
            #expect(try ResultsFile.load(from: url) == nil, "no file yet: a first run")
            try sample().save(to: url)
            #expect(try ResultsFile.load(from: url) == sample())
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["results.json"])
        }
    }

    /// Whatever is not a results file of this version is refused with what
    /// to do, and left as it was: it may be hours of verdicts, or a user's file.
    @Test(arguments: [
        ("{\"name\": \"my settings\"}", "is not a results file"),
        ("{\"format\": \"mutate-incremental-results\", \"version\": 99}", "version 99"),
        ("{\"format\": \"mutate-incremental-results\", \"version\": 1, \"harness\": ", "is not a results file"),
        ("{\"format\": \"mutate-incremental-results\", \"version\": 1, \"harness\": \"1\"}", "is damaged"),
        ("not json at all", "is not a results file"),
    ])
    func aFileThatIsNotOneIsRefusedAndUntouched(content: String, message: String) throws {
        try withScratch { scratch in
            try scratch.write("results.json", content)
            let url = scratch.url.appendingPathComponent("results.json")
            #expect {
                _ = try ResultsFile.load(from: url)
            } throws: { error in
                "\(error)".contains(message) && "\(error)".contains(url.path)
            }
            #expect(try String(contentsOf: url, encoding: .utf8) == content)
        }
    }

    @Test func aFolderOrAMissingFolderIsRefused() throws {
        try withScratch { scratch in
            let folder = scratch.url.appendingPathComponent("folder")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let error = #expect(throws: ResultsFileError.self) { try ResultsFile.load(from: folder) }
            #expect(error?.reason == "\(folder.path) is a folder; --incremental takes a file (it is created if missing)")
            for parent in ["missing", "file"] {
                if parent == "file" { try scratch.write("file", "not a folder\n") }
                let nowhere = scratch.url.appendingPathComponent("\(parent)/results.json")
                let error = #expect(throws: ResultsFileError.self) { try ResultsFile.load(from: nowhere) }
                #expect(error?.reason == "cannot keep results in \(nowhere.path): the folder \(scratch.url.path)/\(parent) does not exist")
            }
        }
    }

    /// A file larger than any results file is refused before it is read
    /// (a sparse file: it takes no room on the disk).
    @Test func aFileLargerThanAnyResultsFileIsNotRead() throws {
        try withScratch { scratch in
            let url = scratch.url.appendingPathComponent("results.json")
            try scratch.write("results.json", "")
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(ResultsFile.sizeLimit + 1))
            try handle.close()
            let error = #expect(throws: ResultsFileError.self) { try ResultsFile.load(from: url) }
            #expect(error?.reason == "\(url.path) is 512 MB, more than a results file of mutate can be: not read; give another path or delete it")
        }
    }

    /// A write that fails (a folder holds the temporary file's name) is an
    /// error naming the file, and leaves nothing partial beside it.
    @Test func aFileThatCannotBeWrittenLeavesNoPartialFile() throws {
        try withScratch { scratch in
            let url = scratch.url.appendingPathComponent("results.json")
            let partial = scratch.url.appendingPathComponent(".results.json.\(getpid()).partial")
            try FileManager.default.createDirectory(at: partial.appendingPathComponent("inside"), withIntermediateDirectories: true)
            let error = #expect(throws: ResultsFileError.self) { try sample().save(to: url) }
            #expect(error?.reason.hasPrefix("cannot write \(url.path): ") == true, "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: partial.path), "nothing partial is left beside the file")
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func aFileTheHarnessCannotReplaceIsAnErrorAndTheOldOneStays() throws {
        try withScratch { scratch in
            let folder = scratch.url.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("results.json")
            try sample().save(to: url)
            // The file's name taken by a folder: the rename cannot replace it.
            let blocked = folder.appendingPathComponent("blocked.json")
            try FileManager.default.createDirectory(at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
            #expect(throws: ResultsFileError.self) { try sample().save(to: blocked) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["blocked.json", "results.json"],
                    "no partial file is left behind")
            #expect(try ResultsFile.load(from: url) == sample())
        }
    }

    // MARK: - Keys

    /// `A.swift` holds `a` (run by `t1`) and `b` (run by `t2`); `B.swift`
    /// holds `c` (run by `t2`); `Tests/T.swift` holds both tests.
    /// `Package.swift` and `Fixture.json` hold no function of the map.
    private let map = CoverageMap(functions: [
        .init(name: "a", file: "Sources/A.swift", firstLine: 1, lastLine: 5, count: 1),
        .init(name: "b", file: "Sources/A.swift", firstLine: 6, lastLine: 9, count: 1),
        .init(name: "c", file: "Sources/B.swift", firstLine: 1, lastLine: 5, count: 1),
        .init(name: "t1", file: "Tests/T.swift", firstLine: 1, lastLine: 3, count: 1),
        .init(name: "t2", file: "Tests/T.swift", firstLine: 4, lastLine: 6, count: 1),
    ], reached: ["t1": [0, 3], "t2": [1, 2, 4]], seconds: ["t1": 0.1, "t2": 0.1])

    private let files = ["Sources/A.swift": "a1", "Sources/B.swift": "b1", "Tests/T.swift": "t1", "Package.swift": "p1", "Fixture.json": "f1"]

    private func mutant(_ file: String = "Sources/A.swift", change: String = "x") throws -> Mutant {
        try MutantFileParser.parse("Mutant: m\nDescription: d\n\n--- a/\(file)\n+++ b/\(file)\n@@ -2 +2 @@\n-a\n+\(change)\n", file: "m.patch")
    }

    private func key(_ files: [String: String], common: String = "c", reach: CoverageMap.Reach? = .tests(["t1"]), change: String = "x") throws -> String {
        VerdictKeys(files: files, common: common, coverage: map).key(for: try mutant(change: change), reach: reach)
    }

    @Test func aKeyChangesWithWhatDecidesTheVerdictOnly() throws {
        let base = try key(files)
        #expect(try key(files) == base, "the same inputs, the same key")
        // What the test t1 does not reach: another file of the map.
        #expect(try key(files.merging(["Sources/B.swift": "b2"]) { $1 }) == base, "a file no covering test reaches")
        // What decides it.
        #expect(try key(files.merging(["Sources/A.swift": "a2"]) { $1 }) != base, "the file it mutates")
        #expect(try key(files.merging(["Tests/T.swift": "t2"]) { $1 }) != base, "the covering test's file")
        #expect(try key(files.merging(["Fixture.json": "f2"]) { $1 }) != base, "a file the map cannot attribute (a test may read it)")
        #expect(try key(files.merging(["Package.swift": "p2"]) { $1 }) != base, "the manifest")
        #expect(try key(files, common: "other toolchain") != base, "the toolchain, harness or options")
        #expect(try key(files, reach: .tests(["t1", "t2"])) != base, "another set of covering tests")
        #expect(try key(files, change: "y") != base, "another mutation")
    }

    @Test func aMutantOfTheWholeSuiteIsKeyedByTheWholePackageOneOfNoTestByItsFile() throws {
        for reach: CoverageMap.Reach? in [.unknown("outside every function"), nil] {
            let base = try key(files, reach: reach)
            #expect(try key(files.merging(["Sources/B.swift": "b2"]) { $1 }, reach: reach) != base, "any file: the whole suite runs")
        }
        let none = try key(files, reach: .noTest)
        #expect(try key(files.merging(["Sources/B.swift": "b2"]) { $1 }, reach: .noTest) == none)
        #expect(try key(files.merging(["Sources/A.swift": "a2"]) { $1 }, reach: .noTest) != none)
    }

    @Test func verdictsAgreeByWhatTheyMeanForTheScore() {
        #expect(IncrementalRun.agree(.killed, .timeout))
        #expect(IncrementalRun.agree(.survived, .noCoverage))
        #expect(!IncrementalRun.agree(.killed, .survived))
        #expect(!IncrementalRun.agree(.unviable, .killed))
        #expect(IncrementalRun.agree(.unviable, .unviable))
        #expect(!IncrementalRun.agree(.unviable, .stale), "neither detected nor missed: they must match")
        #expect(MutantStatus.allCases.filter(IncrementalRun.isReusable) == [.killed, .timeout, .survived, .noCoverage, .unviable])
    }

    /// A verdict the run did not reach (stale, an error, pending, ignored)
    /// is never reused, even under the same key.
    @Test func aVerdictTheRunDidNotReachIsNeverReused() throws {
        let mutant = try mutant()
        let keys = VerdictKeys(files: files, common: "c", coverage: map)
        let key = keys.key(for: mutant, reach: .tests(["t1"]))
        var held: [MutantStatus] = []
        for status in MutantStatus.allCases {
            let result = MutantResult(name: "m", description: "d", bug: nil, status: status, files: ["Sources/A.swift"], firstLine: 2, lastLine: 2,
                                      diff: "", replacement: "", log: "logs/m.log")
            if IncrementalRun.holds(ResultsFile.Entry(key: key, result: result), for: mutant, key: key, keys: keys) { held.append(status) }
        }
        #expect(held == [.killed, .timeout, .survived, .noCoverage, .unviable])
    }
}

extension IncrementalTests {
    @Test func theFilesThatCountAreTheManifestsAndTheTargetsFolders() {
        for path in ["Package.swift", "Package@swift-5.9.swift", "Package.resolved", "Sources/A/B.swift", "Tests/Fixtures/x.json",
                     "Plugins/P/main.swift"] {
            #expect(IncrementalRun.counts(path, targetPaths: ["Plugins/P"]), "\(path)")
        }
        for path in ["README.md", "Other.swift", "docs/a.md", "Benchmarks/run.sh", ".github/workflows/m.yml", "Packages.txt", "SourcesOld/a.swift",
                     "Sources/A/A.docc/Guide.md", "Sources/A/A.docc/Resources/x.png"] {
            #expect(!IncrementalRun.counts(path, targetPaths: ["Plugins/P"]), "\(path)")
        }
    }

    /// The gate has no target list: a top-level folder with source code in it may hold a target, and counts whole.
    @Test func theGateCountsEveryTopLevelFolderThatHoldsSourceCode() {
        let paths = ["Package.swift", "Sources/A/a.swift", "Tests/T/t.swift", "Lib/core/x.c", "Lib/include/x.h", "Shims/module.modulemap",
                     "Tools/Gen/main.swift", "ObjC/a.mm", "docs/a.md", "Benchmarks/run.sh", "Fixtures/swift", "Assets/data.json"]
        #expect(IncrementalRun.sourceFolders(paths) == ["Lib", "ObjC", "Shims", "Tools"])
        #expect(IncrementalRun.counts("Lib/README.md", targetPaths: IncrementalRun.sourceFolders(paths)), "such a folder counts whole")
    }
}

extension IncrementalTests {
    /// A killed verdict holds while its killer and what the killer reaches
    /// are unchanged, whatever the other covering tests reach.
    @Test func aKilledVerdictHoldsWhileItsKillerIsUnchanged() throws {
        let keys = VerdictKeys(files: files, common: "c", coverage: map)
        let killed = MutantResult(name: "m", description: "d", bug: nil, status: .killed, killedBy: ["t1"], files: ["Sources/A.swift"],
                                  firstLine: 2, lastLine: 2, diff: "", replacement: "", log: "logs/m.log")
        let mutant = try mutant()
        let entry = ResultsFile.Entry(key: "old", result: killed, killKey: keys.killKey(for: mutant, killer: "t1"))
        // B.swift, which only t2 reaches, changed: the full key did, the killer's did not.
        let later = VerdictKeys(files: files.merging(["Sources/B.swift": "b2"]) { $1 }, common: "c", coverage: map)
        let key = later.key(for: mutant, reach: .tests(["t1", "t2"]))
        #expect(key != keys.key(for: mutant, reach: .tests(["t1", "t2"])))
        #expect(IncrementalRun.holds(entry, for: mutant, key: key, keys: later))
        // The killer's own file changed: it no longer holds.
        let edited = VerdictKeys(files: files.merging(["Tests/T.swift": "t2"]) { $1 }, common: "c", coverage: map)
        #expect(!IncrementalRun.holds(entry, for: mutant, key: "new", keys: edited))
        // A survivor needs its whole key: every covering test decides it.
        var survived = entry
        survived.result.status = .survived
        #expect(!IncrementalRun.holds(survived, for: mutant, key: key, keys: later))
        #expect(keys.killKey(for: mutant, killer: "not-a-test") == nil)
    }
}
