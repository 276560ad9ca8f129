import Foundation
import Testing
@testable import MutationHarness

/// The toolchain's driver leaves a `TemporaryDirectory.*` folder in
/// `TMPDIR` each time it starts. Every toolchain command the harness runs
/// (the version probe, the parses, `swift package describe`) gets the
/// scratch copy's `TMPDIR`, so the user's shared temporary folder is left
/// alone, as it is by the builds and test runs.
struct ToolchainTemporaryFolderTests {
    @Test func theToolchainCommandsLeaveTheirFoldersInTheTemporaryFolderTheyAreGiven() throws {
        try withScratch { scratch in
            let temporary = scratch.url.appendingPathComponent("tmp")
            let home = scratch.url.appendingPathComponent("home")
            for folder in [temporary, home] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            let environment = Lab.childEnvironment(inheriting: ProcessInfo.processInfo.environment, temporary: temporary, home: home)
            func left() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path))?.count ?? 0 }

            #expect(ToolchainRunner().toolchainVersion(swift: "swift", environment: environment)?.contains("Swift version") == true)
            let afterProbe = left()
            #expect(afterProbe >= 1, "swift --version")
            try scratch.write("parse/A.swift", "func a() -> Int { 1 }\n")
            let folder = scratch.url.appendingPathComponent("parse")
            #expect(try FunctionBodies.parse(swiftc: "swiftc", files: ["A.swift"], in: folder, environment: environment)["A.swift"]?.count == 1)
            let afterParse = left()
            #expect(afterParse > afterProbe, "swiftc -dump-parse")
            let trees = try ASTDump.run(swiftc: "swiftc", module: "M", packageName: "m", files: ["A.swift"], in: folder, searchPaths: [],
                                        moduleMaps: [], environment: environment)
            #expect(trees.count == 1)
            #expect(left() > afterParse, "swiftc -dump-ast")
        }
    }

    /// `explore` reads the package's targets and syntax trees in the copy's
    /// environment: the driver's folders land in the copy's `TMPDIR`.
    @Test func exploreReadsThePackageInTheCopysTemporaryFolder() throws {
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            let workspace = ScratchWorkspace(package: package, root: scratch.url.appendingPathComponent("copy"))
            _ = try workspace.sync()
            let found = try Explorer(paths: ["Sources/Tiny/Arithmetic.swift"]).explore(workspace, print: { _ in })
            #expect(!found.points.isEmpty)
            let left = try FileManager.default.contentsOfDirectory(atPath: workspace.temporaryDirectory.path)
            #expect(left.filter { $0.hasPrefix("TemporaryDirectory.") }.count >= 2, "describe and the parse: \(left)")
        }
    }
}
