import Foundation

/// A folder of the test's own under the process's temporary directory
/// (`TMPDIR`), removed by `remove()`. Only that folder is ever deleted.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    /// Creates a fresh, empty, uniquely named folder in `parent` (created if
    /// missing), or in the system's temporary folder when `parent` is nil.
    public init(prefix: String = "analytics-test", in parent: URL? = nil) throws {
        let parent = parent ?? FileManager.default.temporaryDirectory
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        url = parent.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// A path inside the folder.
    public func appending(_ component: String) -> URL { url.appendingPathComponent(component) }

    /// Deletes the folder and what is in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
