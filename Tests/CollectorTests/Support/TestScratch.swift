import Foundation

/// `.build/test-scratch` of this package: tests keep their folders there,
/// never in the machine's shared temporary folder.
let testScratchRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/test-scratch", isDirectory: true)

/// An executable product of this package, as built beside the test
/// executable (`swift build --build-tests` builds it too).
func builtExecutable(_ name: String) -> URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return testScratchRoot.deletingLastPathComponent().appendingPathComponent("debug/\(name)")
}
