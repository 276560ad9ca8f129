import Foundation

/// Mutant schemata: mutants in one build, each behind a switch (`explore`'s
/// generated ones, the gate's named ones: `Lab+PatchSchema`); what does not
/// type-check runs as a patch.
extension Lab {
    /// Writes the schema `build` makes into the copy and builds it; a
    /// mutant whose code does not type-check there is left out (it runs as
    /// a patch) and the build tried again, up to five times. An error on a
    /// line where no mutant sits (a `missing return` at a function's
    /// closing brace) can only be blamed on its file: that file's mutants
    /// run as patches. `misfits` are left out from the first attempt (the
    /// ones an earlier run's schema blamed: `ResultsFile.schemaMisfits`).
    /// Returns the build that succeeded, with the schema in
    /// `installedSchema` and what it left out in `schemaMisfits`; nil when
    /// none does (the copy is put back).
    func buildSchema(_ build: (Set<String>) -> Schema, title: String, timeout: Double?, misfits: Set<String> = []) throws -> ProcessResult? {
        var excluded = misfits
        let log = logs.appendingPathComponent("schema.log")
        try? FileManager.default.removeItem(at: log)
        for attempt in 1...5 {
            let schema = build(excluded)
            guard !schema.numbers.isEmpty else { break }
            try writeSchema(schema)
            print("Building \(title) (\(schema.numbers.count) mutants in one build, attempt \(attempt))...")
            let logged = read(log).utf8.count
            let result = try runBuild(log: log, timeout: timeout)
            if result.termination.succeeded {
                installedSchema = schema
                schemaMisfits = excluded
                return result
            }
            // This attempt's errors only: the log keeps the earlier attempts'.
            let failing = Self.errorLines(in: String(decoding: read(log).utf8.dropFirst(logged), as: UTF8.self), root: workspace.root.path)
            let blamed = Self.blamed(schema.sites, for: failing)
            print(String(format: "  failed in %.1fs: %d mutant(s) blamed for its compiler errors", result.seconds, blamed.count))
            guard !blamed.isEmpty else { break }
            excluded.formUnion(blamed)
            // The next attempt is built from the original sources, not from this one's rewrite.
            try removeSchema()
        }
        try removeSchema()
        return nil
    }

    /// `explore`'s schema, built once the mutants are made; with every
    /// switch off it must then pass the tests that can tell it from the
    /// original (`schemaBaselineFailure`; a second run when the first is not
    /// green), or every mutant runs as a patch.
    /// Mutants an earlier run's schema blamed start out of it: running one
    /// as a patch costs its own small build, a schema attempt that fails
    /// costs a whole one, and either way the verdict is the same.
    func installSchema(_ build: (Set<String>) -> Schema) throws {
        let misfits = Set(incremental?.previous?.schemaMisfits ?? [])
        guard let built = try buildSchema(build, title: "the mutant schema", timeout: mutantBuildLimit, misfits: misfits),
              let schema = installedSchema
        else { return }
        print(String(format: "  built in %.1fs", built.seconds))
        // An unchanged package reused its baseline without a build of its own: the schema's is the first.
        if testBinary == nil, coverage != nil { testBinary = TestBinary.find(in: workspace.root) }
        let log = logs.appendingPathComponent("schema.log")
        if let failure = try schemaBaselineFailure(schema, log: log) {
            // Dropping the schema costs every mutant a build of its own: a test that fails only under load gets a second run first.
            print("  with every switch off the tests are not green (\(failure)): running them once more (a test may fail only under load)")
            if let again = try schemaBaselineFailure(schema, log: log) {
                print("  the schema's own baseline is not green (\(again), \(log.path)); every mutant runs as a patch")
                try removeSchema()
                return
            }
        }
        schemaNumbers = schema.numbers
        print("  \(schema.numbers.count) mutants run by switch, \(mutantsToRun - schema.numbers.count) as patches")
        try placeBySwitches()
    }

    /// With every switch off, runs the tests that reach a function the
    /// schema rewrote (the coverage map's, as for a mutant): the others run
    /// the package's own code. For a mutant the map cannot place, the tests
    /// its `suitePlan` runs. Without a map, the whole suite runs. Returns
    /// how the run failed (`failureSummary`), nil when it is green.
    func schemaBaselineFailure(_ schema: Schema, log: URL) throws -> String? {
        var chosen: Set<String> = []
        var wholeSuite = coverage == nil || testBinary == nil
        var planned = false
        let byName = Dictionary(mutants.map { ($0.name, $0) }) { first, _ in first }
        for name in schema.numbers.keys where !wholeSuite {
            switch reaches[name] {
            case .tests(let tests)?: chosen.formUnion(tests)
            case .noTest?: continue
            case .unknown?:
                guard let plan = byName[name].flatMap(suitePlan) else { wholeSuite = true; continue }
                chosen.formUnion(plan.first + plan.rest)
                planned = true
            case nil: wholeSuite = true
            }
        }
        if !wholeSuite, let binary = testBinary, let coverage {
            guard !chosen.isEmpty else {
                appendLine("mutate: no test reaches a function the schema rewrote: none to run with every switch off", to: log)
                return nil
            }
            let ordered = coverage.fastestFirst(chosen)
            print("  checking the schema with every switch off: the \(ordered.count) test(s) that reach its functions")
            // The switches these tests run together, for the switch pass (`placeBySwitches`).
            let run = try runChosen(ordered, of: binary, name: "schema-baseline", log: log,
                                    extraEnvironment: recordingSwitchesTogether(), wholeSuite: planned)
            guard run.verdict.status != .survived else { return nil }
            return run.verdict.killedBy.isEmpty ? run.verdict.reason ?? run.verdict.status.rawValue : Self.failingSummary(run.verdict.killedBy)
        }
        let (test, tests, _, _) = try runTests(name: "schema-baseline", log: log, timeout: report.testTimeoutSeconds, baseline: true)
        return test.termination.succeeded && tests.failures.isEmpty ? nil : Self.failureSummary(test, tests)
    }

    /// The schema's mutants to leave out for compiler errors at `failing`
    /// (`file:line`): those whose site holds an error's line, or, for an
    /// error on a line of no site, every mutant of its file. In the order of
    /// `sites`, each once.
    static func blamed(_ sites: [Schema.Site], for failing: Set<String>) -> [String] {
        let errors = failing.compactMap { location -> (file: String, line: Int)? in
            guard let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) else { return nil }
            return (String(location[..<colon]), line)
        }
        let explained = errors.filter { error in sites.contains { $0.file == error.file && $0.lines.contains(error.line) } }
        let files = Set(errors.filter { error in !explained.contains { $0 == error } }.map(\.file))
        var seen: Set<String> = []
        return sites.filter { site in
            (files.contains(site.file) || explained.contains { $0.file == site.file && site.lines.contains($0.line) }) && seen.insert(site.id).inserted
        }.map(\.id)
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
        installedSchema = nil
    }

    /// A file of the copy as the package has it, whether or not a schema
    /// has rewritten it.
    func readOriginal(_ path: String) -> String? {
        if let saved = schemaFiles[path] { return saved }
        return workspace.read(path)
    }

    /// `readOriginal`'s file as bytes: a file no schema rewrote is read as
    /// it is, whatever its encoding.
    func originalBytes(_ path: String) -> [UInt8]? {
        if let saved = schemaFiles[path] { return saved.map { Array($0.utf8) } }
        return FileManager.default.contents(atPath: workspace.root.appendingPathComponent(path).path).map { [UInt8]($0) }
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
        let log = logs.appendingPathComponent("\(mutant.name).log")
        // After its named killers' run the log goes on: it already says how the mutant is switched on.
        if !triedKillers.contains(mutant.name) {
            try? FileManager.default.removeItem(at: log)
            appendLine("mutate: switched on in the mutant schema (\(Schema.variable)=\(number)), no build of its own", to: log)
        }
        return try tested(mutant, MutantResult(pending: mutant), log: log, extraEnvironment: [Schema.variable: String(number)])
    }
}
