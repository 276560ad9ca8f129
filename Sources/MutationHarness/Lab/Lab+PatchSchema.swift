import Foundation

/// The gate's schema: named mutants that change only function bodies, in
/// one build (`PatchSchema`), each run by its switch. It is written before
/// the baseline and built as the baseline (`runBaseline`), so it costs no
/// build of its own, and the baseline's suite proves it with every switch
/// off; the coverage pass over it is read in the original's lines.
extension Lab {
    /// `Sources/X/...` -> `Sources/X`: where a file's module keeps the switch.
    static func moduleFolder(_ file: String) -> String { file.split(separator: "/").prefix(2).joined(separator: "/") }

    /// Finds the swaps of each mutant that can be in the schema, in the
    /// mutants' order (the others are said in their logs), and keeps the
    /// schema's builder in `patchSchemaBuilder`. Only files under
    /// `Sources/` take part: a test file's lines must stay where the test
    /// runner reports them.
    func planPatchSchema() throws {
        var changes: [(mutant: Mutant, files: [FileChange])] = []
        var refused: [String: String] = [:]
        for mutant in mutants {
            guard case .success(let files) = mutant.diff.changes(reading: workspace.read) else { continue } // stale: the patch path says so
            if let other = files.first(where: { $0.content == nil || !$0.path.hasSuffix(".swift") || !$0.path.hasPrefix("Sources/")
                || workspace.read($0.path) == nil })
            {
                refused[mutant.name] = "it creates, deletes or renames a file, or changes one that is not Swift under Sources/ (\(other.path))"
                continue
            }
            changes.append((mutant, files))
        }
        // Both versions of every file, parsed in as few compiler runs as their names allow: copies
        // with names of their own (the compiler refuses two files of one
        // name), but an executable's `main.swift`, whose top-level code only
        // that name allows: it keeps it, in a folder of its own.
        let folder = workspace.root.appendingPathComponent(".mutate/patch-schema")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        var copies: [String: String] = [:] // "original|PATH" or "INDEX|PATH" -> the copy's path
        func copy(_ text: String, as key: String, path: String) {
            let base = (path as NSString).lastPathComponent
            let name = ".mutate/patch-schema/\(copies.count)" + (base == "main.swift" ? "/" : "-") + base
            let url = workspace.root.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            if (try? Data(text.utf8).write(to: url)) != nil { copies[key] = name }
        }
        for path in Set(changes.flatMap { $0.files.map(\.path) }).sorted() {
            if let text = workspace.read(path) { copy(text, as: "original|" + path, path: path) }
        }
        for (index, change) in changes.enumerated() {
            for file in change.files { copy(file.content ?? "", as: "\(index)|" + file.path, path: file.path) }
        }
        // The compiler beside `swift`, or else the one on PATH (`swift` may be a wrapper script).
        let beside = (configuration.swift as NSString).deletingLastPathComponent + "/swiftc"
        let swiftc = configuration.swift.contains("/") && FileManager.default.isExecutableFile(atPath: beside) ? beside : "swiftc"
        let parseBodies = parseBodies ?? { [environment] in try FunctionBodies.parse(swiftc: swiftc, files: $0, in: $1, environment: environment) }
        let bodies: [String: [FunctionBody]]
        do {
            bodies = try parseBodies(copies.values.sorted(), workspace.root)
        } catch {
            print("  the named mutants are built one by one: the compiler's parse of their files failed (\(error))")
            return
        }
        var plan: [(name: String, swaps: [PatchSchema.Swap])] = []
        for (index, change) in changes.enumerated() {
            var swaps: [PatchSchema.Swap] = []
            for file in change.files {
                guard let old = copies["original|" + file.path].flatMap({ bodies[$0] }),
                      let new = copies["\(index)|" + file.path].flatMap({ bodies[$0] }),
                      let original = workspace.read(file.path)
                else {
                    refused[change.mutant.name] = "the compiler could not parse \(file.path) with or without it"
                    break
                }
                switch PatchSchema.swaps(file: file.path, original: Array(original.utf8), originalBodies: old,
                                         mutated: Array((file.content ?? "").utf8), mutatedBodies: new)
                {
                case .success(let found): swaps += found
                case .failure(let refusal): refused[change.mutant.name] = refusal.reason
                }
                if refused[change.mutant.name] != nil { break }
            }
            if refused[change.mutant.name] == nil, !swaps.isEmpty { plan.append((change.mutant.name, swaps)) }
        }
        schemaRefusals = refused
        if !refused.isEmpty {
            print("  \(refused.count) named mutant(s) change more than function bodies and are built on their own (each one's log says why)")
        }
        guard !plan.isEmpty else { return }
        let sources = Dictionary(Set(plan.flatMap { $0.swaps.map(\.file) }).compactMap { file in
            workspace.read(file).map { (file, Array($0.utf8)) }
        }) { first, _ in first }
        patchSchemaBuilder = { excluded in
            PatchSchema.build(plan.filter { !excluded.contains($0.name) }, sources: sources, module: Self.moduleFolder)
        }
    }
}
