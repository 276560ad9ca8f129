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
    }

    /// Returns the stored id, or creates, stores and returns a new one.
    /// With no usable directory the id lives in memory for this process only.
    func loadOrCreate(using generate: UUIDGenerator) -> Loaded {
        guard let directory else {
            return Loaded(id: generate(), persistenceFailure: "no storage directory")
        }
        let file = directory.appendingPathComponent(Self.fileName)
        if let stored = try? String(contentsOf: file, encoding: .utf8),
           let id = UUID(uuidString: stored.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return Loaded(id: id)
        }
        let id = generate()
        do {
            try Data(id.wireString.utf8).write(to: file, options: .atomic)
            return Loaded(id: id)
        } catch {
            return Loaded(id: id, persistenceFailure: "cannot write \(file.path): \(error.localizedDescription)")
        }
    }
}
