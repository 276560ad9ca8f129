import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import MutationHarness
import TestSupport

// Running the real `mutate` executable from a test: where it is, starting it
// with its streams in files, waiting for a phase, and finding what it left.

/// The `mutate` built next to this test bundle.
var mutateExecutable: URL { builtExecutable("mutate") }

/// Starts `mutate` (or another `executable`) with `arguments` in `folder`;
/// standard output and error go to files.
func launch(_ arguments: [String], in folder: URL, environment extra: [String: String], logs: URL,
            executable: URL = mutateExecutable) throws -> Process {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment.merge(extra) { $1 }
    process.environment = environment
    _ = FileManager.default.createFile(atPath: logs.appendingPathExtension("out").path, contents: nil)
    _ = FileManager.default.createFile(atPath: logs.appendingPathExtension("err").path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: logs.appendingPathExtension("out"))
    process.standardError = try FileHandle(forWritingTo: logs.appendingPathExtension("err"))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
}

/// Whether `process` has ended. Foundation learns of an exit only when every
/// descendant has closed a descriptor the child inherited, so a run that
/// leaves an orphan behind would look alive to `isRunning` until the orphan
/// dies; a zombie in the process table is the exit itself.
func hasEnded(_ process: Process) -> Bool {
    !process.isRunning || !ProcessTree.isAlive(process.processIdentifier)
}

/// Writes `text` to `url` as an executable script (a stand-in `swift`, a child shell).
///
/// The file is written through a close-on-exec descriptor: tests run in
/// parallel, and a child another test spawns while this file is open for
/// writing would otherwise keep that descriptor for its whole life, and
/// running the script would fail with "text file busy" (exit 126).
func writeExecutable(_ text: String, to url: URL) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    guard write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    // `open`'s mode is masked by the umask; the script must be executable whatever it is.
    guard fchmod(descriptor, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

/// The pid a script wrote to `file` (`echo $$ > file`), once it is there.
func readPID(_ file: URL) -> pid_t? {
    (try? String(contentsOf: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
}

func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}

/// Live processes whose command line mentions any of `needles`.
func survivors(mentioning needles: [String]) -> [String] {
    processes(mentioning: needles).map(\.command)
}

/// The pid and command line of each live process that mentions any of `needles`.
func processes(mentioning needles: [String]) -> [(pid: pid_t, command: String)] {
    #if os(Linux)
    return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
        guard let pid = pid_t(entry), ProcessTree.isAlive(pid),
              let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
        else { return nil }
        let command = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
        return needles.contains(where: command.contains) ? (pid, command) : nil
    }
    #else
    return []
    #endif
}
