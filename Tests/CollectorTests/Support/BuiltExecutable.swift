import Foundation
import TestSupport

/// Where this target's tests keep their folders (TestSupport's rule).
let testScratchRoot = TestScratch.root

/// An executable product of this package, as built beside the test
/// executable (`swift build --build-tests` builds it too).
func builtExecutable(_ name: String) -> URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return testScratchRoot.deletingLastPathComponent().appendingPathComponent("debug/\(name)")
}
