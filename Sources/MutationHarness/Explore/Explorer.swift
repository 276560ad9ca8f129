import Foundation

/// `mutate explore`: the mutation points of the package's source targets,
/// found in the compiler's type-checked syntax tree of the built scratch
/// copy, filtered by the paths asked for, skip markers and `--in-diff`.
struct Explorer {
    /// Folders or files, relative to the package (default `Sources`).
    var paths: [String]
    var swiftc = "swiftc"
    var changed: ChangedLines?
    /// The package's targets: `swift package describe` when nil (tests
    /// give their own).
    var describe: ((URL) throws -> [PackageTargets.Target])?
    /// One module's syntax trees: swiftc, module, package name, files, folder,
    /// search paths, module maps. The compiler when nil (tests give their own).
    var dump: ((String, String, String, [String], URL, [String], [String]) throws -> [ASTDump.File])?

    /// What was found, and the compiler that parsed it.
    struct Found {
        var points: [MutationPoint]
        var compilerVersion: String
        /// Sources left out, with why (a module the compiler could not dump).
        var warnings: [String]
        /// The package's targets, to choose the tests that reach a mutant.
        var targets: [PackageTargets.Target] = []
    }

    func explore(_ workspace: ScratchWorkspace, print: (String) -> Void) throws -> Found {
        let root = workspace.root
        // The toolchain runs in the copy's environment: its TMPDIR, not the user's.
        let environment = Lab.childEnvironment(inheriting: ProcessInfo.processInfo.environment, temporary: workspace.temporaryDirectory,
                                               home: workspace.homeDirectory)
        let describe = describe ?? { try PackageTargets.describe($0, environment: environment) }
        let dump = dump ?? {
            try ASTDump.run(swiftc: $0, module: $1, packageName: $2, files: $3, in: $4, searchPaths: $5, moduleMaps: $6, environment: environment)
        }
        let targets = try describe(root)
        var points: [MutationPoint] = []
        var version = "unknown"
        var warnings: [String] = []
        let moduleMaps = PackageTargets.moduleMaps(in: root, targets: targets)
        let packageName = PackageTargets.packageName(in: root)
        for (target, files, wanted) in Self.targetsToRead(targets, paths: paths) {
            print("  reading \(target.c99name) (\(wanted.count) file(s))")
            let trees: [ASTDump.File]
            do {
                trees = try dump(swiftc, target.c99name, packageName, files, root, [".build/debug/Modules", ".build/debug"], moduleMaps)
            } catch {
                warnings.append("\(target.name): \(error)")
                continue
            }
            for tree in trees where wanted.contains(tree.path) {
                version = tree.compilerVersion
                guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(tree.path).path) else { continue }
                let finder = MutationFinder(path: tree.path, source: [UInt8](data))
                points += finder.points(in: tree.root).filter { changed?.contains($0.file, line: $0.line) ?? true }
            }
        }
        return Found(points: Self.listed(points), compilerVersion: version, warnings: warnings, targets: targets)
    }

    /// Each mutant once (a file in two targets is read twice), in the order
    /// `--list` prints and the run takes them: by file, then position,
    /// operator and replacement.
    static func listed(_ points: [MutationPoint]) -> [MutationPoint] {
        var seen: Set<String> = []
        return points.filter { seen.insert($0.id).inserted }
            .sorted { ($0.file, $0.start, $0.mutationOperator.rawValue, $0.replacement) < ($1.file, $1.start, $1.mutationOperator.rawValue, $1.replacement) }
    }

    /// The Swift source targets holding a file under one of `paths`, each
    /// with all its files (the compiler reads the whole module) and the
    /// wanted ones; a target with none is not read at all.
    static func targetsToRead(_ targets: [PackageTargets.Target], paths: [String])
        -> [(target: PackageTargets.Target, files: [String], wanted: [String])]
    {
        targets.filter(\.isSwiftSource).compactMap { target in
            let files = target.sources.map { target.path + "/" + $0 }
            let wanted = files.filter { file in paths.contains { isWithin(file, $0) } }
            return wanted.isEmpty ? nil : (target, files, wanted)
        }
    }

    static func isWithin(_ file: String, _ path: String) -> Bool {
        let path = path.hasSuffix("/") ? String(path.dropLast()) : path
        return path == "." || file == path || file.hasPrefix(path + "/")
    }
}

/// The package's targets, from `swift package describe --type json`.
struct PackageTargets {
    struct Target: Codable, Equatable {
        var name: String
        var c99name: String
        var type: String
        var moduleType: String
        var path: String
        var sources: [String]
        /// Targets of this package it depends on, by name.
        var dependencies: [String] = []
        var isSwiftSource: Bool { moduleType == "SwiftTarget" && type != "test" && type != "macro" }
    }

    /// The test targets that link the target holding `file`, directly or
    /// through other targets; nil when no target holds the file, or when
    /// every test target does (a choice that saves nothing).
    static func testTargets(reaching file: String, in targets: [Target]) -> [String]? {
        guard let owner = owner(of: file, in: targets) else { return nil }
        let byName = Dictionary(targets.map { ($0.name, $0) }) { first, _ in first }
        func reaches(_ name: String, _ seen: inout Set<String>) -> Bool {
            guard seen.insert(name).inserted, let target = byName[name] else { return false }
            return target.dependencies.contains(owner.name) || target.dependencies.contains { reaches($0, &seen) }
        }
        let tests = targets.filter { $0.type == "test" }
        let reaching = tests.filter { test in
            var seen: Set<String> = []
            return reaches(test.name, &seen)
        }
        return reaching.count < tests.count ? reaching.map(\.name) : nil
    }

    /// The target whose folder holds `file`.
    static func owner(of file: String, in targets: [Target]) -> Target? {
        targets.first { !$0.path.isEmpty && file.hasPrefix($0.path + "/") }
    }

    static func describe(_ root: URL, environment: [String: String]? = nil) throws -> [Target] {
        let result = try CapturedCommand.run(["swift", "package", "--package-path", root.path, "describe", "--type", "json"], environment: environment)
        guard let targets = targets(described: result.output) else {
            throw ASTDumpError(reason: "`swift package describe` did not describe \(root.path)" + (result.errorText.isEmpty ? "" : ": \(result.errorText)"))
        }
        return targets
    }

    /// The targets of `swift package describe --type json`'s output (a
    /// field it leaves out reads empty); nil when it is not such a description.
    static func targets(described output: Data) -> [Target]? {
        guard let object = try? JSONSerialization.jsonObject(with: output) as? [String: Any], let targets = object["targets"] as? [[String: Any]] else {
            return nil
        }
        return targets.map { target in
            Target(name: target["name"] as? String ?? "", c99name: target["c99name"] as? String ?? "", type: target["type"] as? String ?? "",
                   moduleType: target["module_type"] as? String ?? "", path: target["path"] as? String ?? "",
                   sources: target["sources"] as? [String] ?? [], dependencies: target["target_dependencies"] as? [String] ?? [])
        }
    }

    /// Module maps the compiler needs for C and system-library targets.
    static func moduleMaps(in root: URL, targets: [Target]) -> [String] {
        var maps: [String] = []
        for target in targets {
            let generated = root.appendingPathComponent(".build/debug/\(target.name).build/module.modulemap").path
            let own = root.appendingPathComponent("\(target.path)/module.modulemap").path
            let included = root.appendingPathComponent("\(target.path)/include/module.modulemap").path
            for candidate in [generated, own, included] where FileManager.default.fileExists(atPath: candidate) {
                maps.append(candidate)
                break
            }
        }
        return maps
    }

    /// The `-package-name` the build used (from `.build/debug.yaml`), else the folder's name.
    static func packageName(in root: URL) -> String {
        if let text = try? String(contentsOf: root.appendingPathComponent(".build/debug.yaml"), encoding: .utf8),
           let range = text.range(of: "\"-package-name\",\"")
        {
            return String(text[range.upperBound...].prefix { $0 != "\"" })
        }
        return root.lastPathComponent.lowercased()
    }
}
