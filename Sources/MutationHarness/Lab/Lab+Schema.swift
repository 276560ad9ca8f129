import Foundation

/// `explore`'s mutant schema: every generated mutant in one build, each
/// behind a switch; what does not type-check runs as a patch.
extension Lab {
    /// Writes the schema into the copy and builds it; a mutant whose code
    /// does not type-check there is left out (it runs as a patch) and the
    /// build tried again, up to five times. An error on a line where no
    /// mutant sits (a `missing return` at a function's closing brace) can only
    /// be blamed on its file: that file's mutants run as patches. With no
    /// working schema the copy is put back and every mutant runs as a patch.
    func installSchema(_ build: (Set<String>) -> Schema) throws {
        var excluded: Set<String> = []
        let log = logs.appendingPathComponent("schema.log")
        try? FileManager.default.removeItem(at: log)
        for attempt in 1...5 {
            let schema = build(excluded)
            guard !schema.numbers.isEmpty else { break }
            try writeSchema(schema)
            print("Building the mutant schema (\(schema.numbers.count) mutants in one build, attempt \(attempt))...")
            let logged = read(log).utf8.count
            let result = try runBuild(log: log, timeout: mutantBuildLimit)
            if result.termination.succeeded {
                // The schema with no mutant switched on must pass like the original.
                let (test, tests) = try runTests(name: "schema-baseline", log: log, timeout: report.testTimeoutSeconds, baseline: true)
                guard test.termination.succeeded, tests.failures.isEmpty else {
                    print("  the schema's own baseline is not green; every mutant runs as a patch")
                    break
                }
                schemaNumbers = schema.numbers
                print("  \(schema.numbers.count) mutants run by switch, \(mutants.count - schema.numbers.count) as patches")
                return
            }
            // This attempt's errors only: the log keeps the earlier attempts'.
            let failing = Self.errorLines(in: String(decoding: read(log).utf8.dropFirst(logged), as: UTF8.self), root: workspace.root.path)
            let blamed = Self.blamed(schema.points, for: failing)
            guard !blamed.isEmpty else { break }
            excluded.formUnion(blamed.map(\.id))
            // The next attempt is built from the original sources, not from this one's rewrite.
            try removeSchema()
        }
        try removeSchema()
        schemaNumbers = [:]
    }

    /// The schema's points to leave out for compiler errors at `failing`
    /// (`file:line`): the points on an error's line, or, for an error on a
    /// line without one, every point of its file.
    static func blamed(_ points: [MutationPoint], for failing: Set<String>) -> [MutationPoint] {
        let onErrorLines = points.filter { failing.contains("\($0.file):\($0.line)") }
        let explained = Set(onErrorLines.map { "\($0.file):\($0.line)" })
        let files = Set(failing.subtracting(explained).map { String($0[..<($0.lastIndex(of: ":") ?? $0.endIndex)]) })
        return points.filter { explained.contains("\($0.file):\($0.line)") || files.contains($0.file) }
    }

    func writeSchema(_ schema: Schema) throws {
        for (path, text) in schema.files {
            if schemaFiles[path] == nil { schemaFiles[path] = .some(workspace.read(path)) }
            try workspace.write(path, text)
        }
        for (module, text) in schema.support {
            let path = module + "/" + Schema.supportFileName
            if schemaFiles[path] == nil { schemaFiles[path] = .some(nil) }
            try workspace.write(path, text)
        }
    }

    /// Puts the copy back as the package has it.
    func removeSchema() throws {
        for (path, original) in schemaFiles { try workspace.write(path, original) }
        schemaFiles = [:]
    }

    /// `file:line` of each compiler error in a build log, relative to the copy.
    static func errorLines(in log: String, root: String) -> Set<String> {
        var lines: Set<String> = []
        for line in log.split(separator: "\n") where line.contains(": error:") {
            let location = line.prefix { $0 != " " }.split(separator: ":")
            guard location.count >= 3 else { continue }
            var file = String(location[0])
            if file.hasPrefix(root + "/") { file.removeFirst(root.count + 1) }
            lines.insert("\(file):\(location[1])")
        }
        return lines
    }

    /// A mutant of the installed schema: switched on by the environment, no build.
    func runSchemaMutant(_ mutant: Mutant, number: Int) throws -> MutantResult {
        var result = MutantResult(pending: mutant)
        let log = logs.appendingPathComponent("\(mutant.name).log")
        try? FileManager.default.removeItem(at: log)
        let (seconds, _, _, verdict) = try testMutant(mutant, log: log, extraEnvironment: [Schema.variable: String(number)])
        result.testSeconds = seconds
        result.status = verdict.status
        result.killedBy = verdict.killedBy
        result.reason = verdict.reason
        return result
    }
}
