import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// On Ctrl-C or SIGTERM: kill the running build or test group and exit 130.
/// Only the scratch copy can be left mutated, and every run re-syncs it
/// from the package first; the package itself is never written.
enum InterruptHandler {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install(output: URL, print: @escaping (String) -> Void) {
        guard sources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                let group = ProcessRunner.currentGroup
                if group > 0 { ProcessRunner.killGroup(group) }
                print("\ninterrupted; the reports in \(output.path) hold every mutant that finished")
                exit(HarnessExitCode.interrupted.rawValue)
            }
            source.resume()
            sources.append(source)
        }
    }
}
