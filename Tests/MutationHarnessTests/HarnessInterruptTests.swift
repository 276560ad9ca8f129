import Foundation
import Testing
@testable import MutationHarness
import TestSupport

/// The real `mutate` executable interrupted at each phase of a run, and two
/// runs on one scratch copy. Like each end-to-end suite, serialized and with
/// a scratch copy of its own, so the suites run beside one another (much of
/// their time is spent waiting on a phase or a time limit) instead of after.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MUTATE_RUNNING"] == nil, "skipped inside a mutate run"),
       .serialized, .ownThread)
struct HarnessInterruptTests {
    /// Built once, kept between test runs under `.build/test-scratch`, like
    /// `HarnessEndToEndTests.sharedScratch`.
    static let sharedScratch = TestScratch.root.appendingPathComponent("shared-interrupt-scratch", isDirectory: true)
}

extension HarnessInterruptTests {
    /// A `swift` that counts its calls and, at call `HOLD_AT`, starts a
    /// grandchild in a session of its own (which a process-group kill would
    /// miss), runs the real command and then hangs, so the phase lasts.
    private func holdingSwift(in folder: URL) throws -> URL {
        let script = folder.appendingPathComponent("swift-holding")
        try writeExecutable("""
            #!/bin/sh
            [ "$1" = "--version" ] && exec swift "$@"
            dir="\(folder.path)"
            n=$(( $(cat "$dir/calls" 2>/dev/null || echo 0) + 1 ))
            echo $n > "$dir/calls"
            if [ "$n" = "$HOLD_AT" ]; then
              setsid sleep 300 >/dev/null 2>&1 &
              echo $! > "$dir/grandchild.pid"
              touch "$dir/held"
              swift "$@"
              sleep 300
              exit 0
            fi
            exec swift "$@"

            """, to: script)
        return script
    }

    @Test(.timeLimit(.minutes(5)))
    func anInterruptAtAnyPhaseExits130WithNoVerdictNoSurvivingProcessAndThePackageUntouched() throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            let package = try copyFixture(to: scratch)
            let before = Scratch.snapshot(of: package)
            let swift = try holdingSwift(in: scratch.url)
            // (phase, environment that holds the run there, what shows it is there, options). The
            // mutant runs by its switch in the named mutants' schema, built with the baseline; with
            // --no-schema it is built on its own. Its tests go through `swift test` (the held
            // command) with --no-coverage; chosen tests start the test executable directly.
            let phases: [(String, [String: String], String, [String])] = [
                ("sync", ["MUTATE_TEST_PAUSE": "sync"], "paused at sync", []),
                ("baseline build", ["HOLD_AT": "1"], "held", []),
                ("baseline tests", ["HOLD_AT": "2"], "held", []),
                ("mutant tests by switch", ["HOLD_AT": "3"], "held", ["--no-coverage"]),
                ("mutant build", ["HOLD_AT": "3"], "held", ["--no-schema", "--no-coverage"]),
                ("mutant tests", ["HOLD_AT": "4"], "held", ["--no-schema", "--no-coverage"]),
                ("report writing", ["MUTATE_TEST_PAUSE": "reports"], "paused at reports", []),
            ]
            for (index, (phase, hold, marker, options)) in phases.enumerated() {
                for file in ["calls", "held", "grandchild.pid"] { try? FileManager.default.removeItem(at: scratch.url.appendingPathComponent(file)) }
                let logs = scratch.url.appendingPathComponent("run-\(index)")
                let output = scratch.url.appendingPathComponent("report-\(index)")
                let process = try launch(
                    ["--package-path", "Tiny", "--scratch", Self.sharedScratch.path, "--wait", "--mutant", "add-subtracts",
                     "--output", output.path] + options,
                    in: scratch.url, environment: hold.merging(["MUTATE_SWIFT": swift.path]) { $1 }, logs: logs
                )
                let atPhase = {
                    marker == "held"
                        ? FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("held").path)
                        : ((try? String(contentsOf: logs.appendingPathExtension("out"), encoding: .utf8)) ?? "").contains(marker)
                }
                _ = waitUntil(240) { atPhase() || hasEnded(process) }
                let read = { (suffix: String) in (try? String(contentsOf: logs.appendingPathExtension(suffix), encoding: .utf8)) ?? "" }
                try #require(atPhase(), "\(phase): the run reached the phase: \(read("out")) \(read("err"))")
                if phase == "baseline tests" {
                    // With `swift` a wrapper script, the compiler's parse finds `swiftc` on PATH.
                    #expect(read("out").contains("with the named mutants' schema (1 mutants in one build"), "\(read("out"))")
                }
                let signal = index.isMultiple(of: 2) ? SIGINT : SIGTERM
                kill(process.processIdentifier, signal)
                let ended = waitUntil(60) { hasEnded(process) }
                if !ended { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                let errors = (try? String(contentsOf: logs.appendingPathExtension("err"), encoding: .utf8)) ?? ""

                #expect(ended && process.terminationReason == .exit && process.terminationStatus == 130,
                        "\(phase): exit 130, got \(process.terminationStatus); \(errors)")
                #expect(errors.contains("interrupted by signal \(signal)"), "\(phase): \(errors)")
                if let results = try? ReportWriter.read(from: output) {
                    #expect(results.mutants.allSatisfy { $0.status == .pending }, "\(phase): no verdict for an interrupted mutant")
                }
                if let pid = readPID(scratch.url.appendingPathComponent("grandchild.pid")) {
                    #expect(!ProcessTree.isAlive(pid), "\(phase): the grandchild in a session of its own is killed")
                }
                #expect(survivors(mentioning: [swift.path, Self.sharedScratch.path]).isEmpty, "\(phase): no process of the run is left")
                #expect(Scratch.snapshot(of: package) == before, "\(phase): the package is untouched")
                // The named mutants' schema is in the copy from the baseline's build to the mutants' end: taken out, whatever the phase.
                let copied = Self.sharedScratch.appendingPathComponent("Sources/Tiny")
                #expect(!FileManager.default.fileExists(atPath: copied.appendingPathComponent(Schema.supportFileName).path), "\(phase): no switch file left")
                // (A copy made for the first time and interrupted while syncing may not hold it yet.)
                let source = FileManager.default.contents(atPath: copied.appendingPathComponent("Arithmetic.swift").path)
                #expect(source == before["Sources/Tiny/Arithmetic.swift"] || (phase == "sync" && source == nil), "\(phase): the copy's source is the package's")
            }
        }
    }

    @Test func aSecondRunOnTheSameScratchCopyRefusesOrWaits() throws {
        try #require(FileManager.default.isExecutableFile(atPath: mutateExecutable.path), "build the mutate product first")
        try withScratch { scratch in
            _ = try copyFixture(to: scratch)
            let root = scratch.url.appendingPathComponent("scratch-copy")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try Data().write(to: root.appendingPathComponent(ScratchRules.marker))
            // Another run holds the lock.
            let held = try ScratchLock(root: root, wait: false, waiting: {})

            let refused = try launch(["--package-path", "Tiny", "--scratch", root.path, "--mutant", "add-subtracts"], in: scratch.url,
                                     environment: [:], logs: scratch.url.appendingPathComponent("refused"))
            refused.waitUntilExit()
            let message = try String(contentsOf: scratch.url.appendingPathComponent("refused.err"), encoding: .utf8)
            #expect(refused.terminationStatus == HarnessExitCode.locked.rawValue)
            #expect(message.contains("another mutate run is using the scratch copy"))

            let waiting = try launch(["--package-path", "Tiny", "--scratch", root.path, "--mutant", "add-subtracts", "--wait"],
                                     in: scratch.url, environment: [:], logs: scratch.url.appendingPathComponent("waiting"))
            let announced = waitUntil(30) {
                ((try? String(contentsOf: scratch.url.appendingPathComponent("waiting.out"), encoding: .utf8)) ?? "").contains("waiting for it")
            }
            #expect(announced)
            kill(waiting.processIdentifier, SIGINT)
            waiting.waitUntilExit()
            #expect(waiting.terminationStatus == 130, "Ctrl-C while waiting for the lock")
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("Tiny/.build/mutation-report/report.json").path),
                    "no report written into the output folder, which may be the lock holder's")
            withExtendedLifetime(held) {}
        }
    }
}
