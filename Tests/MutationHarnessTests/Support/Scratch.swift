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

/// Runs git in `folder` with a throwaway identity; fails the test if git fails.
func git(_ arguments: [String], in folder: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", folder.path, "-c", "user.email=t@example.com", "-c", "user.name=t"] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "git \(arguments.joined(separator: " "))")
}
