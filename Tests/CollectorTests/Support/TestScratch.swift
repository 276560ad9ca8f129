import Foundation

/// `.build/test-scratch` of this package: tests keep their folders there,
/// never in the machine's shared temporary folder.
let testScratchRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/test-scratch", isDirectory: true)
