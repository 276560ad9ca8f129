import Foundation
import TestSupport
import Testing

/// A folder of the test's own under this package's `.build/test-scratch/`
/// (never the machine's shared temporary folder), deleted by `remove()`.
struct Scratch {
    let url: URL


    init() throws {
        url = TestScratch.root.appendingPathComponent("mutate-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ relative: String, _ text: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Writes an executable script at `relative` (see `writeExecutable(_:to:)`
    /// for why it never goes through `write` and `chmod`).
    func writeExecutable(_ relative: String, _ text: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try MutationHarnessTests.writeExecutable(text, to: file)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The environment for a toolchain command a test runs: `TMPDIR` in
    /// this folder, where the driver leaves its `TemporaryDirectory.*`
    /// folder, not the machine's shared one (made when asked for).
    func toolEnvironment() -> [String: String] { MutationHarnessTests.toolEnvironment(temporary: url.appendingPathComponent(".tmp")) }
}

/// The test process's environment with `TMPDIR` at `temporary` (made here)
/// and `XDG_CACHE_HOME` in this package's `.build/test-scratch/shared-module-cache`, where
/// the compiler keeps its module cache: never the user's `~/.cache`. The
/// cache is shared by every test and kept between runs, as a build's is.
func toolEnvironment(temporary: URL) -> [String: String] {
    let cache = TestScratch.root.appendingPathComponent("shared-module-cache")
    for folder in [temporary, cache] { try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary.path
    environment["XDG_CACHE_HOME"] = cache.path
    return environment
}

func withScratch<T>(_ body: (Scratch) throws -> T) throws -> T {
    let scratch = try Scratch()
    defer { scratch.remove() }
    return try body(scratch)
}

/// The fixture package shipped in `Tests/Fixtures/TinyPackage`.
let fixturePackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/TinyPackage")

/// Copies the fixture package into `scratch/name`.
func copyFixture(to scratch: Scratch, as name: String = "Tiny") throws -> URL {
    let target = scratch.url.appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixturePackage, to: target)
    return target
}

/// Runs git in `folder` with a throwaway identity (commits unsigned) and
/// returns what it printed, trimmed; fails the test, with git's errors, if git fails.
@discardableResult
func git(_ arguments: [String], in folder: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", folder.path, "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // git's messages are short: reading one pipe after the other cannot fill the second.
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let said = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "git \(arguments.joined(separator: " ")): \(String(decoding: said, as: UTF8.self))")
    return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
