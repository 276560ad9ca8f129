import Foundation
import Testing
@testable import MutationHarness

struct ProcessRunnerTests {
    /// A command is looked up on `PATH` the way a shell does: a file that is
    /// not executable (a stray `swift` text file early on the path) is
    /// passed over for the executable one after it.
    @Test func aCommandOnThePathIsTheFirstExecutableOne() throws {
        try withScratch { scratch in
            try scratch.write("first/tool", "not a program\n")
            try scratch.write("second/tool", "#!/bin/sh\necho from-second\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.url.appendingPathComponent("first/tool").path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.url.appendingPathComponent("second/tool").path)
            let log = scratch.url.appendingPathComponent("tool.log")
            let path = "\(scratch.url.path)/first:\(scratch.url.path)/second:/usr/bin:/bin"
            let result = try ProcessRunner.run(["tool"], in: scratch.url, environment: ["PATH": path], log: log, timeout: 30)
            #expect(result.termination == .exited(0))
            #expect(try String(contentsOf: log, encoding: .utf8) == "from-second\n")
        }
    }
}

/// Refusals of `mutate explore` that happen before any build, so they run
/// in-process even inside a mutate run (the end-to-end explore tests skip
/// themselves there).
struct ExploreCommandRefusalTests {
    @Test func aPathThatDoesNotExistIsNamedAndNothingRuns() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// swift-tools-version:6.0\n")
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            let output = OutputBox()
            let code = Harness(workingDirectory: scratch.url, print: { output.append($0) })
                .main(["explore", "Sources/Nope", "--package-path", "pkg"])
            #expect(code == .usage)
            #expect(output.text.contains("error: Sources/Nope does not exist in \(scratch.url.appendingPathComponent("pkg").standardizedFileURL.path)"),
                    "\(output.text)")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("pkg/.build").path), "no copy, no build")
        }
    }
}
