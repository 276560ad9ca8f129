import Foundation

/// `mutate promote`: a generated mutant kept as a named one.
extension Harness {
    func promote(_ options: PromoteOptions) -> HarnessExitCode {
        guard var configuration = configuration(options.run, output: ".build/mutation-report/explore") else { return .usage }
        configuration.buildOnly = true
        let target = configuration.mutantsPath.appendingPathComponent("\(options.name).patch")
        // Refused before the build, not after it.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: configuration.mutantsPath.path, isDirectory: &isFolder), !isFolder.boolValue {
            return fail(.usage, "cannot write \(target.path): \(configuration.mutantsPath.path) is a file, not a folder")
        }
        if FileManager.default.fileExists(atPath: target.path) || ((try? MutantCatalog.load(from: configuration.mutantsPath))?.contains { $0.name == options.name } ?? false) {
            return fail(.usage, "a mutant named '\(options.name)' exists already in \(configuration.mutantsPath.path)")
        }
        let explorer = Explorer(paths: options.paths.isEmpty ? ["Sources"] : options.paths)
        let found = Locked<Explorer.Found?>(nil)
        let outcome = runGenerated(configuration, explorer: explorer, ignore: ExploreIgnore(), found: found, useSchema: false)
        guard case .success = outcome else { return outcome.failureCode }
        let scratch = ScratchWorkspace(package: configuration.packagePath, root: configuration.scratchPath)
        guard let point = found.value?.points.first(where: { $0.id == options.id }),
              let source = scratch.read(point.file)
        else {
            return fail(.usage, "no generated mutant with id '\(options.id)' in \(explorer.paths.joined(separator: ", ")): run `swift run mutate explore --list`")
        }
        let text = "Mutant: \(options.name)\nDescription: \(options.description)\nPromoted-From: explore \(point.id) (\(point.summary))\n\n"
            + GeneratedMutant.diff(for: point, source: Array(source.utf8))
        do {
            _ = try MutantFileParser.parse(text, file: target.path)
            try FileManager.default.createDirectory(at: configuration.mutantsPath, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target, options: .withoutOverwriting)
        } catch {
            return fail(.usage, "cannot write \(target.path): \(error)")
        }
        print("Promoted \(point.id) (\(point.summary)) to \(target.path); `swift run mutate --mutant \(options.name)` runs it in the gate.")
        return .passed
    }
}
