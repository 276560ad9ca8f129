import Foundation
import Testing
@testable import MutationHarness

struct MutantFileTests {
    static let diff = """
        diff --git a/Sources/A.swift b/Sources/A.swift
        --- a/Sources/A.swift
        +++ b/Sources/A.swift
        @@ -1 +1 @@
        -a
        +b

        """

    @Test func readsHeadersWithContinuationLines() throws {
        let text = """
            Mutant: retry-on-400
            Description: A 400 is retried like a 5xx, so a batch the collector will
              never accept blocks the queue head.
            Bug: the batch of 2024-09 (optional)
            Owner: delivery

            """ + Self.diff
        let mutant = try MutantFileParser.parse(text, file: "m.patch")
        #expect(mutant.name == "retry-on-400")
        #expect(mutant.description == "A 400 is retried like a 5xx, so a batch the collector will never accept blocks the queue head.")
        #expect(mutant.bug == "the batch of 2024-09 (optional)")
        #expect(mutant.headers.map(\.key) == ["Mutant", "Description", "Bug", "Owner"])
        #expect(mutant.diff.files.map(\.path) == ["Sources/A.swift"])
        #expect(mutant.killers.isEmpty)
    }

    /// `Killed-By:` names tests by id, separated by white space; a
    /// continuation line or another `Killed-By:` line adds more.
    @Test func killedByNamesTestsOnOneOrMoreLines() throws {
        let text = """
            Mutant: retry-on-400
            Description: retried
            Killed-By: AnalyticsTests.ResponsePolicyTests/contractRejectionsAreDroppedNeverRetried()
              AnalyticsTests.DeliveryTests/a400DropsTheBatch()
            killed-by:  CollectorTests.RulesTests/testFour

            """ + Self.diff
        #expect(try MutantFileParser.parse(text, file: "m.patch").killers == [
            "AnalyticsTests.ResponsePolicyTests/contractRejectionsAreDroppedNeverRetried()",
            "AnalyticsTests.DeliveryTests/a400DropsTheBatch()", "CollectorTests.RulesTests/testFour",
        ])
    }

    @Test(arguments: [
        ("Description: x\n\n" + diff, "missing 'Mutant: <name>' header line"),
        ("Mutant: x\n\n" + diff, "missing 'Description: <what a user would see>' header line"),
        ("Mutant: x\nDescription:\n\n" + diff, "missing 'Description: <what a user would see>' header line"),
        ("Mutant: Bad Name\nDescription: x\n\n" + diff, "mutant name 'Bad Name' must be lower-case letters, digits and dashes, such as retry-on-400"),
        ("Mutant: x\nDescription: y\n", "no diff found: after the header lines, paste the output of `git diff`"),
        ("Mutant: x\nDescription: y\nthis is not a header\n" + diff, "line 3: expected 'Key: value', found 'this is not a header'"),
        ("  continued\nMutant: x\nDescription: y\n\n" + diff, "line 1: a continuation line comes before any header"),
        ("Mutant: x\nDescription: y\nKilled-By:\n\n" + diff, "a 'Killed-By:' line names no test: write the ids of the tests that kill it "
            + "as the report names them (`Target.Suite/test()`), or drop the line"),
        ("Mutant: x\n: no key\nDescription: y\n\n" + diff, "line 2: expected 'Key: value', found ': no key'"),
        ("Mutant: x\nTwo words: value\nDescription: y\n\n" + diff, "line 2: expected 'Key: value', found 'Two words: value'"),
        ("Mutant:\nDescription: y\n\n" + diff, "missing 'Mutant: <name>' header line"),
    ])
    func explainsWhatIsWrong(text: String, reason: String) {
        #expect(throws: MutantFileError(file: "m.patch", reason: reason)) { try MutantFileParser.parse(text, file: "m.patch") }
    }

    /// A name is 1 to 100 lower-case letters, digits and dashes, and starts
    /// with a letter or a digit.
    @Test func validNames() {
        #expect(MutantFileParser.isValidName(String(repeating: "a", count: 100)))
        #expect(!MutantFileParser.isValidName(String(repeating: "a", count: 101)))
        #expect(MutantFileParser.isValidName("4xx-is-final"))
        #expect(!MutantFileParser.isValidName("-retry") && !MutantFileParser.isValidName(""))
    }

    @Test func malformedDiffNamesTheLine() {
        let text = "Mutant: x\nDescription: y\n\n--- a/A.swift\n+++ b/A.swift\n@@ -1,2 +1,2 @@\n-a\n+b\n"
        do {
            _ = try MutantFileParser.parse(text, file: "m.patch")
            Issue.record("a hunk shorter than its header must be refused")
        } catch {
            // The hunk header is on line 6 of the file; its body ends early at line 9.
            #expect(error.reason.hasPrefix("the diff is malformed: line 9: hunk @@ -1,2 +1,2 @@ ends early"), "\(error.reason)")
        }
    }
}

struct MutantCatalogTests {
    private func patch(_ name: String) -> String {
        "Mutant: \(name)\nDescription: d\n\n" + MutantFileTests.diff
    }

    @Test func loadsSortedByName() throws {
        try withScratch { scratch in
            try scratch.write("m/b.patch", patch("beta"))
            try scratch.write("m/a.patch", patch("alpha"))
            try scratch.write("m/notes.txt", "ignored")
            let mutants = try MutantCatalog.load(from: scratch.url.appendingPathComponent("m"))
            #expect(mutants.map(\.name) == ["alpha", "beta"])
            #expect(try MutantCatalog.select(["beta"], from: mutants).map(\.name) == ["beta"])
            #expect(throws: CatalogError.unknownMutants(["gamma"], available: ["alpha", "beta"])) {
                try MutantCatalog.select(["gamma"], from: mutants)
            }
        }
    }

    @Test func refusesMissingEmptyMalformedAndDuplicateFolders() throws {
        try withScratch { scratch in
            let missing = scratch.url.appendingPathComponent("none")
            #expect(throws: CatalogError.folderMissing(missing.path)) { try MutantCatalog.load(from: missing) }

            let empty = scratch.url.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            #expect(throws: CatalogError.folderEmpty(empty.path)) { try MutantCatalog.load(from: empty) }

            try scratch.write("dup/one.patch", patch("same"))
            try scratch.write("dup/two.patch", patch("same"))
            do {
                _ = try MutantCatalog.load(from: scratch.url.appendingPathComponent("dup"))
                Issue.record("two mutants with one name must be refused")
            } catch {
                #expect("\(error)".hasPrefix("two mutants are named 'same'"))
            }

            try scratch.write("bad/x.patch", "Mutant: x\nDescription: y\n")
            do {
                _ = try MutantCatalog.load(from: scratch.url.appendingPathComponent("bad"))
                Issue.record("a patch with no diff must be refused")
            } catch {
                #expect("\(error)".contains("x.patch: no diff found"))
            }
        }
    }

    @Test func ofSeveralDuplicatedNamesTheFirstInAlphabeticalOrderIsNamed() throws {
        try withScratch { scratch in
            for (file, name) in [("1.patch", "zulu"), ("2.patch", "zulu"), ("3.patch", "alpha"), ("4.patch", "alpha"), ("5.patch", "mike")] {
                try scratch.write("dup/\(file)", patch(name))
            }
            #expect(throws: CatalogError.self) { try MutantCatalog.load(from: scratch.url.appendingPathComponent("dup")) }
            do {
                _ = try MutantCatalog.load(from: scratch.url.appendingPathComponent("dup"))
            } catch {
                #expect("\(error)".hasPrefix("two mutants are named 'alpha'"), "\(error)")
            }
        }
    }

    @Test func shardsSplitTheMutantsWithoutOverlap() throws {
        let mutants = try (1...7).map { try MutantFileParser.parse(patch("m\($0)"), file: "m\($0).patch") }
        let shards = (1...3).map { Shard(index: $0, count: 3).slice(mutants).map(\.name) }
        #expect(shards.flatMap { $0 }.sorted() == mutants.map(\.name).sorted())
        #expect(shards.map(\.count) == [3, 2, 2])
    }
}

/// The mutants folder as the catalog reads it: it must be a folder, and a
/// patch that is not UTF-8 text is named, never skipped.
struct MutantCatalogFolderTests {
    @Test func aFileGivenAsTheFolderAndAPatchThatIsNotTextAreRefused() throws {
        try withScratch { scratch in
            try scratch.write("not-a-folder", "x\n")
            let file = scratch.url.appendingPathComponent("not-a-folder")
            #expect(throws: CatalogError.folderMissing(file.path)) { try MutantCatalog.load(from: file) }
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("mutants"), withIntermediateDirectories: true)
            let binary = scratch.url.appendingPathComponent("mutants/binary.patch")
            try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: binary)
            #expect(throws: CatalogError.malformed([MutantFileError(file: binary.path, reason: "cannot be read as UTF-8 text")])) {
                try MutantCatalog.load(from: scratch.url.appendingPathComponent("mutants"))
            }
        }
    }
}


extension MutantCatalogTests {
    /// "Did you mean" is offered for one unknown name only: of several
    /// unknown names none is guessed at.
    @Test func onlyASingleUnknownNameGetsASuggestion() {
        #expect(CatalogError.unknownMutants(["alpah"], available: ["alpha", "beta"]).description
            == "no mutant named 'alpah'; did you mean 'alpha'?; available: alpha, beta")
        #expect(CatalogError.unknownMutants(["alpah", "gamma"], available: ["alpha", "beta"]).description
            == "no mutant named 'alpah', 'gamma'; available: alpha, beta")
    }
}

extension MutantCatalogTests {
    /// The catalog is ordered by mutant name, not by the name of the file
    /// that holds each mutant.
    @Test func theCatalogIsOrderedByMutantNameNotFileName() throws {
        try withScratch { scratch in
            try scratch.write("m/1.patch", patch("zulu"))
            try scratch.write("m/2.patch", patch("alpha"))
            #expect(try MutantCatalog.load(from: scratch.url.appendingPathComponent("m")).map(\.name) == ["alpha", "zulu"])
        }
    }
}
