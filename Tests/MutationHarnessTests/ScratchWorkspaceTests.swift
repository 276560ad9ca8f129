import Foundation
import Testing
@testable import MutationHarness

struct ScratchWorkspaceTests {
    @Test func syncMirrorsThePackageAndEmptiesItsOwnTemporaryFolders() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("pkg/Tests/Empty"), withIntermediateDirectories: true)
            try scratch.write("pkg/.git/HEAD", "ref\n")
            try scratch.write("pkg/mutants/m.patch", "x\n")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))

            #expect(try workspace.sync() == 2)
            #expect(workspace.read("Sources/A/A.swift") == "let a = 1\n")
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/Tests/Empty").path))
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/.git").path))
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/mutants").path))

            try workspace.write("Sources/A/A.swift", "let a = 2 // mutated\n")
            try workspace.write("Sources/A/Stray.swift", "left behind\n")
            try Data().write(to: workspace.temporaryDirectory.appendingPathComponent("TemporaryDirectory.abc"))
            #expect(try workspace.sync() == 1, "only the file that differs is rewritten")
            #expect(workspace.read("Sources/A/A.swift") == "let a = 1\n")
            #expect(workspace.read("Sources/A/Stray.swift") == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.temporaryDirectory.path).isEmpty)
        }
    }
}
