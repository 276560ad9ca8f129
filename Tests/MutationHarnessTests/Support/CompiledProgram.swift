import Foundation
import Testing

/// A few Swift files compiled into one program (module `M`) and run: how
/// the schema tests compare a schema's switch positions with patches.
enum CompiledProgram {
    /// Compiles `files` (name -> text) in `folder` and returns the program's
    /// output for each environment of `runs`.
    static func run(_ files: [String: String], in folder: URL, runs environments: [[String: String]]) throws -> [String] {
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let binary = folder.appendingPathComponent("program")
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // One frontend for all the files (`-wmo`): a third less time than one per file, the same program.
        compile.arguments = ["swiftc", "-swift-version", "5", "-module-name", "M", "-wmo", "-o", binary.path] + files.keys.sorted().map { folder.appendingPathComponent($0).path }
        let errors = Pipe()
        compile.environment = toolEnvironment(temporary: folder.appendingPathComponent(".tmp"))
        compile.standardOutput = FileHandle.nullDevice
        compile.standardError = errors
        try compile.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        compile.waitUntilExit()
        try #require(compile.terminationStatus == 0, "compiles: \(files.keys.sorted()): \(String(decoding: said.prefix(2000), as: UTF8.self))")
        return try environments.map { environment in
            // A switch position that loops forever must fail the test, not hang it: `timeout` kills it
            // (a timer in this process could not fire while the test threads wait).
            let run = Process()
            run.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            run.arguments = ["timeout", "-s", "KILL", "30", binary.path]
            run.environment = environment.merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]) { mine, _ in mine }
            let output = Pipe()
            run.standardOutput = output
            try run.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            run.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
