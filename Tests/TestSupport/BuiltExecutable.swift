import Foundation

/// An executable product of this package, as built beside the test
/// executable (`swift build --build-tests` builds it too), else in
/// `.build/debug`.
public func builtExecutable(_ name: String) -> URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return TestScratch.root.deletingLastPathComponent().appendingPathComponent("debug/\(name)")
}
