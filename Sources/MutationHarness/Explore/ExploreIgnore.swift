import Foundation

/// `mutants/explore-ignore`: generated mutants the team judged harmless.
/// One per line, with a reason after the key:
///
///     3f9a01bc  equivalent: the loop bound is never reached
///     Sources/Analytics/Delivery/Backoff.swift:21 arithmetic  jitter's sign does not matter
///
/// `#` starts a comment. An ignored mutant is listed as ignored, never dropped.
struct ExploreIgnore {
    struct Entry: Equatable {
        /// An id, or `file:line operator`.
        var key: String
        var reason: String
        /// Where the entry is in the file (1-based).
        var line: Int

        /// The file a `file:line operator` key names; nil for an id.
        var file: String? {
            guard let place = key.split(separator: " ").first, place.contains(":") else { return nil }
            return String(place[..<place.lastIndex(of: ":")!])
        }
    }

    static let fileName = "explore-ignore"
    /// The entries, in the file's order.
    let entries: [Entry]
    /// Each key's first entry (its index in `entries`): a mutant is looked
    /// up by its id and its place, never by reading every entry (a run asks
    /// for each of thousands of mutants, against hundreds of entries).
    private let firstByKey: [String: Int]

    init(entries: [Entry] = []) {
        self.entries = entries
        var first: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where first[entry.key] == nil { first[entry.key] = index }
        firstByKey = first
    }

    static func load(from folder: URL) throws -> ExploreIgnore {
        let file = folder.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return ExploreIgnore() }
        return try parse(String(decoding: data, as: UTF8.self), file: file.path)
    }

    static func parse(_ text: String, file: String) throws -> ExploreIgnore {
        var entries: [Entry] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            let isLocation = fields.first?.contains(":") == true
            let keyCount = isLocation ? 2 : 1
            guard fields.count > keyCount else {
                throw ASTDumpError(reason: "\(file):\(number + 1): expected 'ID reason' or 'FILE:LINE OPERATOR reason', with a reason a reviewer would accept")
            }
            if isLocation, MutationOperator(rawValue: fields[1]) == nil {
                throw ASTDumpError(reason: "\(file):\(number + 1): unknown operator '\(fields[1])'; known: \(MutationOperator.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            entries.append(Entry(key: fields.prefix(keyCount).joined(separator: " "), reason: fields.dropFirst(keyCount).joined(separator: " "),
                                 line: number + 1))
        }
        return ExploreIgnore(entries: entries)
    }

    /// The entries that name none of the mutants `explorer` found: their
    /// line was edited or removed, so the mutant they judged is gone or has
    /// a new id. An id can name a mutant of any file, so ids are checked only
    /// when the whole of `Sources` was read; a `file:line` entry when its
    /// file was. Nothing is checked when only changed lines were read.
    func unmatched(_ points: [MutationPoint], by explorer: Explorer) -> [Entry] {
        guard explorer.changed == nil else { return [] }
        let ids = Set(points.map(\.id))
        let places = Set(points.map(\.place))
        return entries.filter { entry in
            guard let file = entry.file else { return explorer.paths == ["Sources"] && !ids.contains(entry.key) }
            return explorer.paths.contains { Explorer.isWithin(file, $0) } && !places.contains(entry.key)
        }
    }

    /// The reason `point` is ignored, or nil: of the entries that name its
    /// id or its place, the first in the file.
    func reason(for point: MutationPoint) -> String? {
        [firstByKey[point.id], firstByKey[point.place]].compactMap { $0 }.min().map { entries[$0].reason }
    }
}

extension ExploreIgnore {
    /// The generated mutants to run and the ignored ones (reported with
    /// their reason, never dropped). `read` gives a file's bytes by path; a
    /// point whose file cannot be read is left out.
    func split(_ points: [MutationPoint], read: (String) -> Data?) -> (run: [Mutant], ignored: [MutantResult]) {
        var run: [Mutant] = []
        var ignored: [MutantResult] = []
        for point in points {
            guard let source = read(point.file), let mutant = GeneratedMutant.mutant(for: point, source: [UInt8](source)) else { continue }
            if let reason = reason(for: point) {
                var result = MutantResult(pending: mutant)
                result.status = .ignored
                result.reason = reason
                ignored.append(result)
            } else {
                run.append(mutant)
            }
        }
        return (run, ignored)
    }

    /// The points that go into the schema: neither ignored nor excluded
    /// (those did not type-check in an earlier attempt).
    func schemaPoints(_ points: [MutationPoint], excluding excluded: Set<String>) -> [MutationPoint] {
        points.filter { !excluded.contains($0.id) && reason(for: $0) == nil }
    }
}
