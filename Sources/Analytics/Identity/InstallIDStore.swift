import Foundation

/// Keeps the install id: created once, written to the SDK's storage
/// directory, and read back by every later client on the same storage.
struct InstallIDStore {
    static let fileName = "install-id"

    let directory: URL?

    /// The result of loading: the id, and why it could not be kept if so.
    struct Loaded {
        var id: UUID
        var persistenceFailure: String?
        /// Set when a stored id existed but could not be read: the new id
        /// splits the install's history, so the app hears of it.
        var replacedUnreadable: String?
    }

    /// Returns the stored id, or creates, stores and returns a new one.
    /// With no usable directory the id lives in memory for this process only.
    func loadOrCreate(using generate: UUIDGenerator) -> Loaded {
        guard let directory else {
            return Loaded(id: generate(), persistenceFailure: "no storage directory")
        }
        let file = directory.appendingPathComponent(Self.fileName)
        var replaced: String?
        if let data = FileManager.default.contents(atPath: file.path) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let id = UUID(uuidString: text), text.utf8.count == 36 { return Loaded(id: id) }
            replaced = "\(file.path) holds \(data.count) byte(s) that are not an install id"
        } else if FileManager.default.fileExists(atPath: file.path) {
            replaced = "\(file.path) cannot be read"
        }
        let id = generate()
        do {
            try Data(id.wireString.utf8).write(to: file, options: .atomic)
            return Loaded(id: id, replacedUnreadable: replaced)
        } catch {
            return Loaded(id: id, persistenceFailure: "cannot write \(file.path): \(error.localizedDescription)", replacedUnreadable: replaced)
        }
    }
}
