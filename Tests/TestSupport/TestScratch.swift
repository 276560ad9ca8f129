import Foundation

/// Where every test of this package keeps its files: `.build/test-scratch`
/// of the package the tests were compiled from (a mutation run's scratch
/// copy has its own), never the machine's shared temporary folder or the
/// user's home. The one home of that rule for the three test targets; each
/// makes a folder of its own under `root` and deletes only that.
public enum TestScratch {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/test-scratch", isDirectory: true)
}
