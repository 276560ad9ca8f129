import Foundation

/// The working folder of the coverage pass or the switch pass: emptied
/// before the pass starts, removed by the pass when it ends.
enum PassFolder {
    /// Removes what `folder` holds and creates it again; a `CoverageError`
    /// (the pass stops, and says why) when it cannot be created.
    static func makeEmpty(_ folder: URL) throws {
        try? FileManager.default.removeItem(at: folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CoverageError(reason: "cannot create \(folder.path): \(error.localizedDescription)")
        }
    }
}
