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
    ///
    /// The schema with every switch off must pass like the original: the
    /// whole suite runs on it once, or, `confirmingKills`, each kill's
    /// tests run again with the switches off (`confirmedKill`), cheaper for
    /// a few dozen mutants.
    func installSchema(confirmingKills: Bool = false, _ build: (Set<String>) -> Schema) throws {
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
            if result.termination.succeeded, confirmingKills {
                schemaNumbers = schema.numbers
                confirmSchemaKills = true
                print("  \(schema.numbers.count) mutants run by switch, \(mutants.count - schema.numbers.count) built on their own")
                return
            }
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
            let blamed = Self.blamed(schema.sites, for: failing)
            guard !blamed.isEmpty else { break }
            excluded.formUnion(blamed)
            // The next attempt is built from the original sources, not from this one's rewrite.
            try removeSchema()
        }
        try removeSchema()
        schemaNumbers = [:]
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

    /// A mutant of the installed schema: switched on by the environment, no
    /// build. Nil when its kill could not be confirmed (`confirmedKill`): it
    /// runs as a patch once the schema is gone.
    func runSchemaMutant(_ mutant: Mutant, number: Int) throws -> MutantResult? {
        var result = MutantResult(pending: mutant)
        let log = logs.appendingPathComponent("\(mutant.name).log")
        try? FileManager.default.removeItem(at: log)
        appendLine("mutate: switched on in the mutant schema (\(Schema.variable)=\(number)), no build of its own", to: log)
        let (seconds, termination, tests, verdict) = try testMutant(mutant, log: log, extraEnvironment: [Schema.variable: String(number)])
        result.testSeconds = seconds
        result.status = verdict.status
        result.killedBy = verdict.killedBy
        result.reason = verdict.reason
        result.notRun = notRun(mutant, tests: tests, termination: termination, verdict: verdict)
        if confirmSchemaKills, verdict.status == .killed || verdict.status == .timeout {
            let (confirmed, confirmSeconds) = try confirmedKill(mutant, verdict: verdict, log: log)
            result.testSeconds += confirmSeconds
            guard confirmed else {
                finished.withLock { _ in schemaRefusals[mutant.name] = "its kill in the schema could not be confirmed with every switch off" }
                return nil
            }
        }
        return result
    }

    /// Whether the tests that killed a mutant of the named mutants' schema
    /// pass with every switch off (its chosen tests for a timeout): only
    /// then is the kill the mutant's and not the schema's. A kill no test
    /// is named for cannot be confirmed.
    func confirmedKill(_ mutant: Mutant, verdict: Classifier.Verdict, log: URL) throws -> (Bool, seconds: Double) {
        var tests = verdict.killedBy
        if tests.isEmpty, case .tests(let chosen) = reaches[mutant.name] { tests = chosen }
        guard !tests.isEmpty, let binary = testBinary else {
            appendLine("mutate: no test is named for this kill, so it cannot be confirmed with the switches off: built on its own", to: log)
            return (false, 0)
        }
        appendLine("mutate: confirming the kill: the same test(s) with every switch off must pass", to: log)
        let check = try runChosen(tests, of: binary, name: mutant.name + "-switched-off", log: log, extraEnvironment: [Schema.variable: "0"])
        guard check.verdict.status == .survived else {
            appendLine("mutate: with every switch off they do not pass (\(check.verdict.status.rawValue)): the schema, not the mutant, "
                + "fails them; built on its own", to: log)
            return (false, check.seconds)
        }
        return (true, check.seconds)
    }
}
