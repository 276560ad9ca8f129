import CProcessControl
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// On Ctrl-C or SIGTERM: record the request, kill the running build or test
/// with its whole process tree, and let the lab unwind (it records no verdict
/// for the mutant it was on, rewrites the reports and returns exit 130). If
/// the main thread has not finished within `grace` seconds, the handler
/// kills what is left and exits 130 itself.
enum InterruptHandler {
    // `nonisolated(unsafe)`: Dispatch's signal sources are not Sendable, so
    // no checked box can hold them. Invariant: written only by `install`,
    // which runs on the main thread before any signal source exists; the
    // sources are kept here only so they stay alive.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install(grace: Double) {
        guard sources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                guard Interruption.request(signalNumber) else { return }
                ProcessTree.kill(root: ProcessRunner.running.current)
                // Any other child (a version probe, git) too, so the main
                // thread is never left waiting on one.
                ProcessTree.sweep()
                DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                    ProcessTree.sweep()
                    FileHandle.standardError.write(Data("mutate: interrupted; stopped without finishing the reports\n".utf8))
                    // In a coverage build (mutate under its own harness) what this run reached counts for
                    // the test that started it: `_exit` skips the profile's write at exit.
                    _ = mutate_write_coverage_profile()
                    _exit(HarnessExitCode.interrupted.rawValue)
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}
