import Foundation

/// The toolchain's `llvm-profdata` and `llvm-cov`, and readers of what they
/// print: which functions a profile shows as run, and where each
/// function's code is.
struct LLVMCoverage {
    var profdata: String
    var cov: String

    /// The tools beside `swift` (the toolchain's own: a profile written by
    /// its runtime needs a reader of the same LLVM), else on `PATH`; nil
    /// when there are none.
    static func find(swift: String, path: String) -> LLVMCoverage? {
        var folders: [String] = []
        let located = swift.contains("/") ? swift : path.split(separator: ":").map { "\($0)/\(swift)" }.first { access($0, X_OK) == 0 }
        if let located, let real = realpath(located, nil) {
            folders.append((String(cString: real) as NSString).deletingLastPathComponent)
            free(real)
        }
        folders += path.split(separator: ":").map(String.init)
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

    /// Every function in `llvm-cov export -format=text` output: its name,
    /// its file relative to `root` (functions of files outside it are
    /// dropped), the lines of its code regions and how often it ran.
    static func functions(exportJSON data: Data, root: String) throws -> [CoverageMap.Function] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let exports = object["data"] as? [[String: Any]]
        else {
            throw CoverageError(reason: "llvm-cov export printed no coverage data")
        }
        var result: [CoverageMap.Function] = []
        let prefix = root.hasSuffix("/") ? root : root + "/"
        for export in exports {
            for function in export["functions"] as? [[String: Any]] ?? [] {
                guard let name = function["name"] as? String, let files = function["filenames"] as? [String], let file = files.first,
                      file.hasPrefix(prefix), let regions = function["regions"] as? [[Int]]
                else { continue }
                // [lineStart, columnStart, lineEnd, columnEnd, count, fileID, expandedFileID, kind]; kind 0 is code.
                let code = regions.filter { $0.count >= 8 && $0[5] == 0 && $0[7] == 0 }
                guard let first = code.map({ $0[0] }).min(), let last = code.map({ $0[2] }).max() else { continue }
                result.append(CoverageMap.Function(name: functionName(name), file: String(file.dropFirst(prefix.count)),
                                                   firstLine: first, lastLine: last, count: function["count"] as? Int ?? 0))
            }
        }
        return result
    }
}

/// The coverage pass could not finish; the run goes on with the whole suite
/// for every mutant.
struct CoverageError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
