import Foundation

/// The logs the harness writes beside the commands' own output.
enum LogFile {
    /// Appends `text` to `log`, creating it if needed; a log that cannot be
    /// written is passed over (it only explains, it never decides).
    static func append(_ text: String, to log: URL) {
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        guard let handle = try? FileHandle(forWritingTo: log) else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
