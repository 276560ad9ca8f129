import Foundation

/// The toolchain's `llvm-profdata` and `llvm-cov`, and readers of what they
/// print: which functions a profile shows as run, and where each
/// function's code is.
struct LLVMCoverage {
    var profdata: String
    var cov: String

    /// The tools beside `swift` (the toolchain's own: a profile written by
    /// its runtime needs a reader of the same LLVM), else beside the
    /// `swiftc` on `PATH` (when `swift` is a wrapper script), else on
    /// `PATH`; nil when there are none.
    static func find(swift: String, path: String) -> LLVMCoverage? {
        let searched = path.split(separator: ":").map(String.init)
        func folder(of command: String) -> String? {
            let located = command.contains("/") ? command : searched.map { "\($0)/\(command)" }.first { access($0, X_OK) == 0 }
            guard let located, let real = realpath(located, nil) else { return nil }
            defer { free(real) }
            return (String(cString: real) as NSString).deletingLastPathComponent
        }
        let folders = [folder(of: swift), folder(of: "swiftc")].compactMap { $0 } + searched
        for folder in folders {
            let profdata = folder + "/llvm-profdata", cov = folder + "/llvm-cov"
            if access(profdata, X_OK) == 0, access(cov, X_OK) == 0 { return LLVMCoverage(profdata: profdata, cov: cov) }
        }
        return nil
    }

    /// The functions a profile in `llvm-profdata merge -text` form shows as
    /// run: any counter above zero. Names lose the `file:` prefix that a
    /// private function's carries, as `llvm-cov export` prints them.
    static func reachedFunctions(profileText text: String) -> Set<String> {
        var reached: Set<String> = []
        var name: String?
        var inCounters = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                name = nil
                inCounters = false
            } else if line.hasPrefix("#") {
                inCounters = line == "# Counter Values:"
            } else if name == nil {
                if !line.hasPrefix(":") { name = functionName(String(line)) }
            } else if inCounters, let name, let value = Int(line), value > 0 {
                reached.insert(name)
            }
        }
        return reached
    }

    /// A profile's function name as `llvm-cov export` prints it.
    static func functionName(_ name: String) -> String {
        guard let range = name.range(of: ".swift:", options: .backwards) else { return name }
        return String(name[range.upperBound...])
    }

    /// One function of an `llvm-cov export -format=text` output: its name as
    /// the profile spells it, its file (absolute), how often it ran, and its
    /// code regions in the export's order.
    struct ExportedFunction {
        var name: String
        var file: String
        var count: Int
        /// `[lineStart, lineEnd, count]` of each code region in its own file.
        var regions: [[Int]]
    }

    /// Every function in `llvm-cov export -format=text` output.
    static func exportedFunctions(_ data: Data) throws -> [ExportedFunction] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let exports = object["data"] as? [[String: Any]]
        else {
            throw CoverageError(reason: "llvm-cov export printed no coverage data")
        }
        var result: [ExportedFunction] = []
        for export in exports {
            for function in export["functions"] as? [[String: Any]] ?? [] {
                guard let name = function["name"] as? String, let files = function["filenames"] as? [String], let file = files.first,
                      let regions = function["regions"] as? [[Int]]
                else { continue }
                // [lineStart, columnStart, lineEnd, columnEnd, count, fileID, expandedFileID, kind]; kind 0 is code.
                let code = regions.filter { $0.count >= 8 && $0[5] == 0 && $0[7] == 0 }.map { [$0[0], $0[2], $0[4]] }
                guard !code.isEmpty else { continue }
                result.append(ExportedFunction(name: functionName(name), file: file, count: function["count"] as? Int ?? 0, regions: code))
            }
        }
        return result
    }

    /// Every function of `exported` in a file under `root` (others are
    /// dropped), its file relative to `root`, with the lines of its code
    /// regions and how often it ran.
    static func functions(_ exported: [ExportedFunction], root: String) -> [CoverageMap.Function] {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return exported.compactMap { function in
            guard function.file.hasPrefix(prefix), let first = function.regions.map({ $0[0] }).min(),
                  let last = function.regions.map({ $0[1] }).max()
            else { return nil }
            return CoverageMap.Function(name: function.name, file: String(function.file.dropFirst(prefix.count)),
                                        firstLine: first, lastLine: last, count: function.count)
        }
    }

    /// `functions(_:root:)` of an export's JSON.
    static func functions(exportJSON data: Data, root: String) throws -> [CoverageMap.Function] {
        functions(try exportedFunctions(data), root: root)
    }

    /// The lines, by file relative to `root`, of code that ran in `suite`
    /// (the whole suite's run, tests side by side) but in no test of
    /// `alone` (each test on its own): code reached only under load or by
    /// timing, so no single test can be said to reach it. Both exports are
    /// of the same build, so a function's regions come in the same order; a
    /// function whose regions do not line up counts whole if the suite ran it.
    static func suiteOnlyLines(suite: [ExportedFunction], alone: [ExportedFunction], root: String) -> [String: Set<Int>] {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var aloneRegions: [String: [[Int]]] = [:]
        for function in alone where function.file.hasPrefix(prefix) {
            aloneRegions[function.file + "\u{0}" + function.name] = function.regions
        }
        var lines: [String: Set<Int>] = [:]
        for function in suite where function.file.hasPrefix(prefix) {
            let file = String(function.file.dropFirst(prefix.count))
            let other = aloneRegions[function.file + "\u{0}" + function.name]
            for (index, region) in function.regions.enumerated() where region[2] > 0 {
                if let other, other.count == function.regions.count, other[index][0] == region[0], other[index][1] == region[1],
                   other[index][2] > 0 { continue }
                lines[file, default: []].formUnion(region[0]...max(region[0], region[1]))
            }
        }
        return lines
    }
}

/// The coverage pass could not finish; the run goes on with the whole suite
/// for every mutant.
struct CoverageError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
