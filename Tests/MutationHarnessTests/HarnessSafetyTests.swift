import Foundation
import Testing
@testable import MutationHarness

/// What the harness refuses before it builds anything: scratch folders that
/// hold the user's files, mutants that touch files the scratch copy does not
/// hold, names too long to be file names. No toolchain runs here.
@Suite(.ownThread)
struct HarnessSafetyTests {
    private func run(_ arguments: [String], in folder: URL) -> (HarnessExitCode, String) {
        let output = OutputBox()
        let code = Harness(workingDirectory: folder, print: { output.append($0) }).main(arguments)
        return (code, output.text)
    }

    @Test(arguments: [
        ("Tiny/Sources", "lies inside the package outside .build/"),
        ("Tiny", "is the package itself"),
        ("Tiny/Sources/..", "is the package itself"),
        (".", "contains the package"),
        ("Users-files", "holds files the harness did not create"),
        ("Tiny/.build/debug", "holds files the harness did not create"),
        ("Users-files/thesis.txt", "is a file, not a folder"),
    ])
    func refusesAScratchFolderThatHoldsTheUsersFiles(scratchPath: String, message: String) throws {
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            try scratch.write("Users-files/thesis.txt", "years of work\n")
            try scratch.write("Tiny/.build/debug/keep.o", "object\n")
            let before = Scratch.snapshot(of: scratch.url)

            let (code, console) = run(["--package-path", "Tiny", "--scratch", scratchPath, "--mutant", "add-subtracts"], in: scratch.url)
            #expect(code == .usage)
            #expect(console.contains(message), "\(console)")
            #expect(Scratch.snapshot(of: scratch.url) == before, "nothing is deleted or written")
            #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent(".build/debug/keep.o").path))
        }
    }

    @Test(arguments: [
        ("a/.git/config", "'.git/config' is inside '.git'"),
        ("a/.git/hooks/pre-commit", "'.git/hooks/pre-commit' is inside '.git'"),
        ("a/mutants/other.patch", "'mutants/other.patch' is inside 'mutants/'"),
        ("a/Linked/Arithmetic.swift", "'Linked/Arithmetic.swift' goes through the symbolic link 'Linked'"),
        ("a/.build/x.swift", "'.build/x.swift' is inside '.build'"),
    ])
    func checkAndRunRefuseAMutantThatTouchesFilesTheCopyDoesNotHold(path: String, message: String) throws {
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            try FileManager.default.createSymbolicLink(atPath: package.appendingPathComponent("Linked").path,
                                                       withDestinationPath: "Sources/Tiny")
            let isNew = path.contains("hooks")
            let body = isNew
                ? "--- /dev/null\n+++ b/\(path.dropFirst(2))\n@@ -0,0 +1 @@\n+#!/bin/sh\n"
                : "--- \(path)\n+++ b/\(path.dropFirst(2))\n@@ -1 +1 @@\n-x\n+y\n"
            try scratch.write("evil/evil.patch", "Mutant: evil\nDescription: d\n\n\(body)")
            for arguments in [["check"], ["--mutant", "evil"], ["--list"]] {
                let (code, console) = run(arguments + ["--package-path", "Tiny", "--mutants", "evil"], in: scratch.url)
                #expect(code == .usage, "\(arguments)")
                #expect(console.contains("evil.patch: \(message)"), "\(arguments): \(console)")
            }
            #expect(!FileManager.default.fileExists(atPath: package.appendingPathComponent(".build").path), "refused before any copy")
        }
    }

    @Test func aNameTooLongForAFileNameAndCRLFLineEndingsAreRefusedAtLoad() throws {
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let long = String(repeating: "a", count: 300)
            let diff = "--- a/Sources/Tiny/Arithmetic.swift\n+++ b/Sources/Tiny/Arithmetic.swift\n@@ -4 +4 @@\n-        a + b\n+        a - b\n"
            try scratch.write("long/long.patch", "Mutant: \(long)\nDescription: d\n\n" + diff)
            var (code, console) = run(["check", "--package-path", "Tiny", "--mutants", "long"], in: scratch.url)
            #expect(code == .usage)
            #expect(console.contains("is 300 characters long: at most 100"))

            try scratch.write("crlf/crlf.patch", "Mutant: crlf\r\nDescription: d\r\n\r\n" + diff.replacingOccurrences(of: "\n", with: "\r\n"))
            (code, console) = run(["check", "--package-path", "Tiny", "--mutants", "crlf"], in: scratch.url)
            #expect(code == .usage)
            #expect(console.contains("CRLF (Windows) line endings"))
        }
    }

    @Test func unknownMutantGetsADidYouMean() throws {
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let (code, console) = run(["--list", "--package-path", "Tiny", "--mutant", "add-subtract"], in: scratch.url)
            #expect(code == .usage)
            #expect(console.contains("no mutant named 'add-subtract'; did you mean 'add-subtracts'?"))
            let (listed, only) = run(["--list", "--package-path", "Tiny", "--mutant", "add-subtracts"], in: scratch.url)
            #expect(listed == .passed)
            #expect(only == "add-subtracts: add subtracts instead, so every total is wrong.", "--list --mutant X lists only X")
        }
    }

    @Test func errorsGoToStandardErrorAndResultsToStandardOutput() throws {
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let output = OutputBox(), errors = OutputBox()
            let harness = Harness(workingDirectory: scratch.url, print: { output.append($0) }, printError: { errors.append($0) })
            #expect(harness.main(["--bogus"]) == .usage)
            #expect(output.text.isEmpty)
            #expect(errors.text.hasPrefix("error: unknown option '--bogus'"))
            #expect(harness.main(["check", "--package-path", "Tiny"]) == .brokenMutant)
            #expect(output.text.contains("stale  stale-context"))
            #expect(harness.main(["--version"]) == .passed)
            #expect(output.text.contains("mutate \(HelpText.version)"))
            #expect(harness.main(["help", "list"]) == .passed)
            #expect(output.text.hasSuffix("\n" + HelpText.text(for: "list")), "the help page on standard output: \(output.text)")
        }
    }
}

extension HarnessSafetyTests {
    /// A mutant may not touch the mutants, output or scratch folder, nor
    /// anything inside one.
    @Test func aMutantMayNotTouchAnExcludedFolderOrItsFiles() {
        let package = URL(fileURLWithPath: "/work/app")
        let output = package.appendingPathComponent("Reports")
        for path in ["Reports", "Reports/report.swift"] {
            #expect(ScratchRules.refusal(for: path, package: package, excluded: [output])?.contains("(the mutants, output or scratch folder)") == true, "\(path)")
        }
        #expect(ScratchRules.refusal(for: "ReportsKit/A.swift", package: package, excluded: [output]) == nil, "a folder whose name only starts the same")
    }
}

