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
