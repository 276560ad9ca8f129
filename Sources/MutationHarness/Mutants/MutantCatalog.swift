import Foundation

/// Why the mutants folder cannot be used.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    case folderMissing(String)
    case folderEmpty(String)
    case malformed([MutantFileError])
    case duplicateName(String, files: [String])
    case unknownMutants([String], available: [String])

    public var description: String {
        switch self {
        case .folderMissing(let path):
            "no mutants folder at \(path): create it and add one <name>.patch per bug (see `mutate record --help`)"
        case .folderEmpty(let path):
            "the mutants folder \(path) holds no .patch file: add one per bug you fixed (see `mutate record --help`)"
        case .malformed(let errors):
            errors.map(\.description).joined(separator: "\n")
        case let .duplicateName(name, files):
            "two mutants are named '\(name)': \(files.joined(separator: ", ")); give each a unique 'Mutant:' header"
        case let .unknownMutants(names, available):
            "no mutant named \(names.map { "'\($0)'" }.joined(separator: ", "))"
                + (names.count == 1 ? Suggestion.didYouMean(names[0], among: available) : "")
                + "; available: \(available.joined(separator: ", "))"
        }
    }
}

/// The mutants of a folder, sorted by name.
public enum MutantCatalog {
    public static func load(from folder: URL) throws(CatalogError) -> [Mutant] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .folderMissing(folder.path)
        }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".patch") }
            .sorted()
        guard !files.isEmpty else { throw .folderEmpty(folder.path) }
        var mutants: [Mutant] = []
        var errors: [MutantFileError] = []
        for file in files {
            let path = folder.appendingPathComponent(file).path
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                errors.append(MutantFileError(file: path, reason: "cannot be read as UTF-8 text"))
                continue
            }
            do {
                mutants.append(try MutantFileParser.parse(text, file: path))
            } catch {
                errors.append(error)
            }
        }
        guard errors.isEmpty else { throw .malformed(errors) }
        let byName = Dictionary(grouping: mutants, by: \.name)
        if let duplicate = byName.filter({ $0.value.count > 1 }).min(by: { $0.key < $1.key }) {
            throw .duplicateName(duplicate.key, files: duplicate.value.map(\.filePath))
        }
        return mutants.sorted { $0.name < $1.name }
    }

    /// Keeps the named mutants (all when `names` is empty); unknown names fail.
    public static func select(_ names: [String], from mutants: [Mutant]) throws(CatalogError) -> [Mutant] {
        guard !names.isEmpty else { return mutants }
        let known = Set(mutants.map(\.name))
        let unknown = names.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw .unknownMutants(unknown, available: mutants.map(\.name)) }
        return mutants.filter { names.contains($0.name) }
    }
}
