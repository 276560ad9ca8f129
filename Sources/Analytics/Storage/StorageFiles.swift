import Foundation

/// The file operations the SDK makes in its storage folder. The app always
/// gets the local file system; tests give one whose operation fails the way
/// a full, read-only or locked-down disk would, to check what the app is
/// told and that no event is lost.
package protocol StorageFiles: Sendable {
    func createDirectory(at url: URL) throws
    func fileExists(atPath path: String) -> Bool
    /// Writes an empty file; false when it cannot.
    func createEmptyFile(atPath path: String) -> Bool
    func moveItem(at source: URL, to destination: URL) throws
    func removeItem(atPath path: String) throws
}

/// `FileManager.default`.
package struct LocalStorageFiles: StorageFiles {
    package init() {}

    package func createDirectory(at url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func fileExists(atPath path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    package func createEmptyFile(atPath path: String) -> Bool { FileManager.default.createFile(atPath: path, contents: Data()) }

    package func moveItem(at source: URL, to destination: URL) throws { try FileManager.default.moveItem(at: source, to: destination) }

    package func removeItem(atPath path: String) throws { try FileManager.default.removeItem(atPath: path) }
}
