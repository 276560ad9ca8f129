import Foundation
import Testing
@testable import MutationHarness

struct ScratchWorkspaceTests {
    @Test func syncMirrorsThePackageAndEmptiesItsOwnTemporaryFolders() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("pkg/Tests/Empty"), withIntermediateDirectories: true)
            try scratch.write("pkg/.git/HEAD", "ref\n")
            try scratch.write("pkg/mutants/m.patch", "x\n")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))

            #expect(try workspace.sync() == 2)
            #expect(workspace.read("Sources/A/A.swift") == "let a = 1\n")
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/Tests/Empty").path))
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/.git").path))
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/mutants").path))

            try workspace.write("Sources/A/A.swift", "let a = 2 // mutated\n")
            try workspace.write("Sources/A/Stray.swift", "left behind\n")
            try Data().write(to: workspace.temporaryDirectory.appendingPathComponent("TemporaryDirectory.abc"))
            #expect(try workspace.sync() == 1, "only the file that differs is rewritten")
            #expect(workspace.read("Sources/A/A.swift") == "let a = 1\n")
            #expect(workspace.read("Sources/A/Stray.swift") == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.temporaryDirectory.path).isEmpty)
        }
    }

    /// A folder without a manifest is no package: nothing is copied.
    @Test func aFolderWithoutAManifestIsRefused() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            let package = scratch.url.appendingPathComponent("pkg")
            let workspace = ScratchWorkspace(package: package, root: scratch.url.appendingPathComponent("copy"))
            #expect(throws: WorkspaceError.noManifest(in: package.standardizedFileURL)) { try workspace.sync() }
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/Sources").path))
        }
    }

    /// Only the top folder's build, mutants and tool folders are left out: a
    /// source folder deeper down with one of those names is part of the code.
    /// Deleting a file that is already gone is no error.
    @Test func foldersNamedLikeSkippedOnesDeeperDownAreCopied() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/Sources/A/mutants/Mutant.swift", "let m = 1\n")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            try workspace.sync()
            #expect(workspace.read("Sources/A/mutants/Mutant.swift") == "let m = 1\n")
            try workspace.write("Sources/A/Never.swift", nil)
            #expect(workspace.read("Sources/A/Never.swift") == nil)
        }
    }

    @Test func symbolicLinksAreCopiedAsLinks() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            try scratch.write("shared/Fixture.json", "{}\n")
            let manager = FileManager.default
            try manager.createSymbolicLink(atPath: scratch.url.appendingPathComponent("pkg/Sources/A/Alias.swift").path, withDestinationPath: "A.swift")
            try manager.createSymbolicLink(atPath: scratch.url.appendingPathComponent("pkg/Fixtures").path, withDestinationPath: "../shared")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            #expect(try workspace.sync() == 4, "two files and two links written")
            #expect(try workspace.sync() == 0, "nothing changed, nothing written")

            let copy = scratch.url.appendingPathComponent("copy")
            #expect(try manager.destinationOfSymbolicLink(atPath: copy.appendingPathComponent("Sources/A/Alias.swift").path) == "A.swift")
            #expect(try manager.destinationOfSymbolicLink(atPath: copy.appendingPathComponent("Fixtures").path)
                == scratch.url.appendingPathComponent("shared").standardizedFileURL.path, "a link out of the package points at the same folder")
            #expect(workspace.read("Fixtures/Fixture.json") == "{}\n")
            #expect(try workspace.fileDigests()["Sources/A/Alias.swift"] == SHA256.hex("link A.swift"), "a link is keyed by where it points")
            try manager.createSymbolicLink(atPath: scratch.url.appendingPathComponent("pkg/Hosts").path, withDestinationPath: "/opt/../etc/hosts")
            try workspace.sync()
            #expect(try manager.destinationOfSymbolicLink(atPath: copy.appendingPathComponent("Hosts").path) == "/opt/../etc/hosts",
                    "an absolute link is copied as it is written")
            try manager.removeItem(at: scratch.url.appendingPathComponent("pkg/Sources/A/Alias.swift"))
            try workspace.sync()
            #expect(!manager.fileExists(atPath: copy.appendingPathComponent("Sources/A/Alias.swift").path), "a removed link is removed")
        }
    }

    /// A link the package replaced by a folder of its own is removed from
    /// the copy before anything is written: the folder's files are never
    /// written through it, into the folder it pointed at (here the user's).
    /// A file that became a folder, and a folder that became a file, sync too.
    @Test func anEntryThatChangedKindIsReplacedNeverWrittenThrough() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/Sources/A/Gen", "a file\n")
            try scratch.write("pkg/Sources/B/Old/x.swift", "let x = 1\n")
            try scratch.write("shared/Fixture.json", "{}\n")
            let manager = FileManager.default
            let package = scratch.url.appendingPathComponent("pkg")
            try manager.createSymbolicLink(atPath: package.appendingPathComponent("Fixtures").path, withDestinationPath: "../shared")
            let workspace = ScratchWorkspace(package: package, root: scratch.url.appendingPathComponent("copy"))
            try workspace.sync()

            try manager.removeItem(at: package.appendingPathComponent("Fixtures"))
            try scratch.write("pkg/Fixtures/Fixture.json", "{\"new\": true}\n")
            try manager.removeItem(at: package.appendingPathComponent("Sources/A/Gen"))
            try scratch.write("pkg/Sources/A/Gen/y.swift", "let y = 2\n")
            try manager.removeItem(at: package.appendingPathComponent("Sources/B/Old"))
            try scratch.write("pkg/Sources/B/Old", "now a file\n")
            try workspace.sync()
            #expect(try String(contentsOf: scratch.url.appendingPathComponent("shared/Fixture.json"), encoding: .utf8) == "{}\n",
                    "the user's file the old link pointed at is untouched")
            #expect(workspace.read("Fixtures/Fixture.json") == "{\"new\": true}\n")
            #expect(workspace.read("Sources/A/Gen/y.swift") == "let y = 2\n")
            #expect(workspace.read("Sources/B/Old") == "now a file\n")
        }
    }

    /// A link left in the copy where the package now has a file (or another
    /// link) is replaced, never followed: writing a mutant through it would
    /// change the file it points at, here one of the user's.
    @Test func aStaleLinkInTheCopyIsReplacedNotFollowed() throws {
        try withScratch { scratch in
            let manager = FileManager.default
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/Sources/A/A.swift", "let a = 1\n")
            try manager.createSymbolicLink(atPath: scratch.url.appendingPathComponent("pkg/Sources/A/Alias.swift").path, withDestinationPath: "A.swift")
            try scratch.write("users/A.swift", "let a = 1\n")
            let copy = scratch.url.appendingPathComponent("copy")
            try manager.createDirectory(at: copy.appendingPathComponent("Sources/A"), withIntermediateDirectories: true)
            // The file's place holds a link to the user's file with the same bytes; the link's place holds a dangling link.
            try manager.createSymbolicLink(atPath: copy.appendingPathComponent("Sources/A/A.swift").path,
                                           withDestinationPath: scratch.url.appendingPathComponent("users/A.swift").path)
            try manager.createSymbolicLink(atPath: copy.appendingPathComponent("Sources/A/Alias.swift").path, withDestinationPath: "Gone.swift")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: copy)
            try workspace.sync()
            let attributes = try manager.attributesOfItem(atPath: copy.appendingPathComponent("Sources/A/A.swift").path)
            #expect(attributes[.type] as? FileAttributeType == .typeRegular, "a file of its own, not the link")
            #expect(try manager.destinationOfSymbolicLink(atPath: copy.appendingPathComponent("Sources/A/Alias.swift").path) == "A.swift")
            try workspace.write("Sources/A/A.swift", "let a = 2\n")
            #expect(try String(contentsOf: scratch.url.appendingPathComponent("users/A.swift"), encoding: .utf8) == "let a = 1\n", "the user's file")
        }
    }

    @Test func relativePathDependenciesResolveToTheSameFolderFromTheCopy() {
        let package = URL(fileURLWithPath: "/work/app/Analytics")
        let manifest = """
            dependencies: [
                .package(path: "../Shared"),
                .package(name: "Local", path: "Vendor/Local"),
                .package(path: "/opt/Absolute"),
                .package(url: "https://example.com/x.git", from: "1.0.0"),
            ],
            targets: [.target(name: "A", path: "../Elsewhere")]
            """
        let rewritten = ManifestPaths.rewrite(manifest, package: package)
        #expect(rewritten.contains(#".package(path: "/work/app/Shared")"#))
        #expect(rewritten.contains(#".package(name: "Local", path: "Vendor/Local")"#), "a path inside the package is copied along")
        #expect(rewritten.contains(#".package(path: "/opt/Absolute")"#))
        let absolute = #".package(path: "/opt/shared/../Lib"), .package(path: "/opt/a\\b")"#
        #expect(ManifestPaths.rewrite(absolute, package: package) == absolute, "an absolute path is left byte for byte")
        #expect(rewritten.contains(#"path: "../Elsewhere")"#), "a target's path is not a dependency")
        #expect(ManifestPaths.isManifest("Package.swift") && ManifestPaths.isManifest("Package@swift-5.9.swift"))
        #expect(!ManifestPaths.isManifest("Sources/Package.swift"))
        #expect(!ManifestPaths.isManifest("Dangerfile.swift"), "a Swift file at the root is not a manifest")
        #expect(!ManifestPaths.isManifest("Packages/Tool.swift"), "nor one in a folder whose name starts like one")
        #expect(!ManifestPaths.isManifest("Package.resolved"), "nor a root file named like one that is not Swift")
    }
}

extension ScratchWorkspaceTests {
    /// Only a manifest has its `.package(path:)` rewritten; a source that
    /// mentions one is copied byte for byte. The rewritten manifest reads
    /// as the package has it (a mutant's patch applies to that), and what
    /// is written is rewritten again.
    @Test func onlyTheManifestIsRewritten() throws {
        try withScratch { scratch in
            let mention = "// add .package(path: \"../Dep\") to use it\nlet a = 1\n"
            let own = "// swift-tools-version:6.0\nlet deps = [.package(path: \"../Dep\")]\n"
            try scratch.write("pkg/Package.swift", own)
            try scratch.write("pkg/Sources/A/A.swift", mention)
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            _ = try workspace.sync()
            #expect(workspace.read("Sources/A/A.swift") == mention)
            let copied = { (try? String(contentsOf: scratch.url.appendingPathComponent("copy/Package.swift"), encoding: .utf8)) ?? "" }
            let absolute = #".package(path: ""# + scratch.url.appendingPathComponent("Dep").standardizedFileURL.path + #"")"#
            #expect(copied().contains(absolute), "the manifest's path is made to work from the copy: \(copied())")
            #expect(workspace.read("Package.swift") == own, "read as the package has it")
            try workspace.write("Package.swift", own + "// changed\n")
            #expect(copied().contains(absolute) && copied().hasSuffix("// changed\n"), "written as the sync copies it: \(copied())")
            #expect(workspace.read("Package.swift") == copied(), "a copy that is no rewrite of the package's manifest reads as it is")
            try workspace.write("Package.swift", own)
            #expect(workspace.read("Package.swift") == own)
            try workspace.write("Sources/A/A.swift", mention + "// changed\n")
            #expect(try String(contentsOf: scratch.url.appendingPathComponent("copy/Sources/A/A.swift"), encoding: .utf8) == mention + "// changed\n",
                    "a source is written as it is")
        }
    }

    /// A write never moves a file's modification time back, and always past
    /// the whole second it had: a build comparing whole seconds sees it.
    @Test func aWriteLeavesTheFileNewerThanItWas() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            _ = try workspace.sync()
            let file = scratch.url.appendingPathComponent("copy/Sources/A.swift")
            func modified() throws -> Double {
                try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date).timeIntervalSince1970
            }
            try workspace.write("Sources/A.swift", "let a = 1\n")
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: file.path)
            let before = Date().timeIntervalSince1970
            try workspace.write("Sources/A.swift", "let a = 2\n")
            #expect(try modified() >= floor(before), "an old file gets the time of the write, not its old time plus a second")
            let future = floor(Date().timeIntervalSince1970) + 5
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: future)], ofItemAtPath: file.path)
            try workspace.write("Sources/A.swift", "let a = 3\n")
            #expect(try modified() == future + 1, "a file already at or past this second moves to the next one")
            // A file written earlier in this very second: a build comparing whole seconds would see no change.
            let thisSecond = floor(Date().timeIntervalSince1970)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: thisSecond)], ofItemAtPath: file.path)
            try workspace.write("Sources/A.swift", "let a = 4\n")
            #expect(try floor(modified()) > thisSecond, "a file from this same second moves to a later one")
        }
    }

    /// After a run cut short mid-mutant, the modules whose sources it had
    /// changed are rebuilt from scratch: a target folder under Sources/
    /// names one; a test, the manifest or a loose file names none.
    @Test func anInterruptedMutantsModulesAreForgottenByTheirTargetFolder() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            _ = try workspace.sync()
            try scratch.write("copy/.build/debug/Tiny.build/Tiny.o", "object\n")
            try scratch.write("copy/.build/debug/TinyTests.build/T.o", "object\n")
            workspace.noteInterrupted(["Sources/Tiny/Arithmetic.swift", "Tests/TinyTests/T.swift", "Package.swift", "Sources/Loose.swift"])
            #expect(workspace.forgetInterruptedBuilds() == ["Tiny"])
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/.build/debug/Tiny.build").path))
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("copy/.build/debug/TinyTests.build/T.o").path))
            #expect(workspace.forgetInterruptedBuilds() == [], "the list is used once")
            workspace.noteInterrupted(["Sources/Tiny/Arithmetic.swift"])
            workspace.noteInterrupted(["Sources/Other/Other.swift"])
            #expect(workspace.forgetInterruptedBuilds() == ["Other", "Tiny"], "every mutant cut short in one run counts, not only the last")
        }
    }

    /// A run interrupted while the copy is made stops before the next file
    /// and says so; what the run was told to leave out is never copied.
    @Test func aSyncStopsWhenCancelledAndLeavesOutWhatItIsTold() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/reports/report.json", "{}\n")
            let package = scratch.url.appendingPathComponent("pkg")
            let workspace = ScratchWorkspace(package: package, root: scratch.url.appendingPathComponent("copy"))
            #expect(throws: WorkspaceError(reason: "interrupted while copying the package")) { try workspace.sync(isCancelled: { true }) }
            #expect(workspace.read("Package.swift") == nil, "no file copied once cancelled")
            #expect(try workspace.sync(excluding: [package.appendingPathComponent("reports")]) == 1)
            #expect(workspace.read("reports/report.json") == nil, "an excluded folder inside the package is not copied")
        }
    }
}

/// The lock on a scratch copy, taken twice in one process (`flock` locks
/// belong to the open file, so a second open conflicts like another run).
@Suite(.ownThread)
struct ScratchLockTests {
    /// A lock file that cannot be opened (here a folder holds its name) is
    /// named in the error, before any locking is tried.
    @Test func aLockFileThatCannotBeOpenedIsNamed() throws {
        try withScratch { scratch in
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(".mutate-lock"), withIntermediateDirectories: true)
            do {
                _ = try ScratchLock(root: scratch.url, wait: false) {}
                Issue.record("a folder is no lock file")
            } catch let error as WorkspaceError {
                #expect(error.description.hasPrefix("cannot open the lock file \(scratch.url.path)/.mutate-lock: "), "\(error)")
            }
        }
    }

    @Test func aHeldLockIsRefusedOrWaitedForAndAnnouncedOnce() throws {
        try withScratch { scratch in
            var held: ScratchLock? = try ScratchLock(root: scratch.url, wait: false) {}
            #expect(throws: LabError.locked(scratch.url.path)) { _ = try ScratchLock(root: scratch.url, wait: false) {} }

            let announcements = Locked(0)
            let polls = Locked(0)
            let acquired = Locked(false)
            let waiter = Thread {
                let lock = try? ScratchLock(root: scratch.url, wait: true, poll: {
                    polls.withLock { $0 += 1 }
                    usleep(5_000)
                }) { announcements.set(announcements.value + 1) }
                acquired.set(lock != nil)
                withExtendedLifetime(lock) {}
            }
            waiter.start()
            #expect(waitUntil(10) { announcements.value == 1 }, "the waiting run says that it waits")
            #expect(waitUntil(10) { polls.value >= 3 }, "three pauses while the lock is held")
            #expect(!acquired.value)
            withExtendedLifetime(held) {}
            held = nil
            #expect(waitUntil(10) { acquired.value }, "the lock is taken once it is free")
            #expect(announcements.value == 1, "announced once, not at every poll")
        }
    }

    /// A lock that is not taken closes its descriptor once. (A second close,
    /// from `deinit` after the throw, closed whatever another thread had
    /// opened under that number meanwhile: a test running in parallel once
    /// saw its pipe vanish and `posix_spawn` fail with EBADF.) Another thread
    /// opens and closes /dev/null all along and checks each descriptor it
    /// holds stays open until it closes it.
    @Test func aLockNotTakenClosesItsDescriptorOnlyOnce() throws {
        try withScratch { scratch in
            let held = try ScratchLock(root: scratch.url, wait: false) {}
            let stop = Locked(false)
            let closedUnderIt = Locked(0)
            let rounds = Locked(0)
            let churn = Thread {
                while !stop.value {
                    let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else { continue }
                    if fcntl(descriptor, F_GETFD) == -1 || close(descriptor) != 0 { closedUnderIt.withLock { $0 += 1 } }
                    rounds.withLock { $0 += 1 }
                }
            }
            churn.start()
            defer { stop.set(true) }
            #expect(waitUntil(10) { rounds.value > 0 }, "the other thread is opening descriptors")
            for _ in 0..<5_000 where closedUnderIt.value == 0 {
                #expect(throws: LabError.locked(scratch.url.path)) { _ = try ScratchLock(root: scratch.url, wait: false) {} }
            }
            stop.set(true)
            #expect(closedUnderIt.value == 0, "a descriptor another thread held was closed under it")
            withExtendedLifetime(held) {}
        }
    }

    /// What a waiting run does between two asks by default: pause for a
    /// fifth of a second (the one timed test of the lock: a sleep is never
    /// shorter than asked, so it cannot fail on a busy machine).
    @Test func theDefaultPauseBetweenTwoAsksIsAFifthOfASecond() {
        let start = Date()
        ScratchLock.pauseBeforeAskingAgain()
        #expect(Date().timeIntervalSince(start) >= 0.19)
    }

    /// A run waiting for the lock pauses between two asks (200 ms), not in a
    /// loop that would take a core from the run that holds it.
    @Test func aWaitingRunPausesBetweenTwoAsksForTheLock() throws {
        try withScratch { scratch in
            var events = [String]()
            var asks = 0
            let lock = try ScratchLock(root: scratch.url, wait: true, lock: { descriptor, operation in
                events.append("ask")
                asks += 1
                guard asks > 3 else {
                    errno = EWOULDBLOCK
                    return -1
                }
                return flock(descriptor, operation)
            }, poll: { events.append("pause") }, waiting: { events.append("waiting") })
            #expect(events == ["ask", "waiting", "pause", "ask", "pause", "ask", "pause", "ask"], "\(events)")
            withExtendedLifetime(lock) {}
        }
    }

    /// A refused lock leaves no descriptor open on the lock file, and a
    /// released one none either.
    @Test func noDescriptorIsLeftOnTheLockFile() throws {
        #if os(Linux)
        try withScratch { scratch in
            var held: ScratchLock? = try ScratchLock(root: scratch.url, wait: false) {}
            let lockFile = scratch.url.appendingPathComponent(".mutate-lock").resolvingSymlinksInPath().path
            func openOnTheLockFile() -> Int {
                ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [])
                    .filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == lockFile }.count
            }
            #expect(throws: LabError.locked(scratch.url.path)) { _ = try ScratchLock(root: scratch.url, wait: false) {} }
            #expect(openOnTheLockFile() == 1, "only the held lock's descriptor")
            withExtendedLifetime(held) {}
            held = nil
            #expect(openOnTheLockFile() == 0, "a released lock closes its descriptor")
        }
        #endif
    }

    /// A lock call cut short by a signal (EINTR, which a network file
    /// system's lock can return) is tried again at once, even by a run that
    /// does not wait: it is neither a broken lock file nor a held lock.
    @Test func aLockCallCutShortBySignalIsTriedAgain() throws {
        try withScratch { scratch in
            var calls = 0
            let lock = try ScratchLock(root: scratch.url, wait: false, lock: { descriptor, operation in
                calls += 1
                if calls == 1 {
                    errno = EINTR
                    return -1
                }
                return flock(descriptor, operation)
            }, waiting: {})
            #expect(calls == 2)
            withExtendedLifetime(lock) {}
        }
    }

    /// A lock call that fails for another reason than a held lock (a
    /// network file system without lock support says ENOLCK) is that
    /// failure, said with the lock file's path: not "held by another run",
    /// and never waited for.
    @Test(arguments: [false, true]) func aLockThatCannotBeTakenSaysWhy(wait: Bool) throws {
        try withScratch { scratch in
            var calls = 0
            do {
                // Only the first call fails: a lock that took ENOLCK for "held" would ask again, and get it.
                _ = try ScratchLock(root: scratch.url, wait: wait, lock: { descriptor, operation in
                    calls += 1
                    guard calls == 1 else { return flock(descriptor, operation) }
                    errno = ENOLCK
                    return -1
                }, interruption: { nil }, poll: {}, waiting: {})
                Issue.record("the lock was taken")
            } catch let error as WorkspaceError {
                #expect(error.description == "cannot lock \(scratch.url.path)/.mutate-lock: \(String(cString: strerror(ENOLCK)))")
            }
            #expect(calls == 1)
        }
    }

    /// A lock call cut short by the user's own Ctrl-C ends the run as
    /// interrupted (exit 130), with or without `wait`: not as a held lock
    /// (exit 6), nor as a broken one.
    @Test(arguments: [false, true]) func aLockCallCutShortByTheUsersSignalIsAnInterrupt(wait: Bool) throws {
        try withScratch { scratch in
            var calls = 0
            var announced = false
            #expect(throws: LabError.interrupted(signal: SIGINT)) {
                _ = try ScratchLock(root: scratch.url, wait: wait, lock: { _, _ in
                    calls += 1
                    errno = EINTR
                    return -1
                }, interruption: { SIGINT }, waiting: { announced = true })
            }
            #expect(calls == 1, "not asked again")
            #expect(!announced, "no \"waiting for the lock\" on the user's Ctrl-C")
        }
    }
}

/// Which folders may hold a scratch copy: the sync deletes what the package
/// lacks, so only a folder the harness made (or an empty one) will do.
struct ScratchRulesTests {
    /// A path that does not exist yet resolves through the links of the
    /// part that does: a scratch folder to be made behind a link is judged
    /// where it will really be.
    @Test func aPathNotMadeYetResolvesThroughTheLinksAboveIt() throws {
        try withScratch { scratch in
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("real"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: scratch.url.appendingPathComponent("link"), withDestinationURL: scratch.url.appendingPathComponent("real"))
            let resolved = ScratchRules.realPath(scratch.url.appendingPathComponent("link/not/yet"))
            #expect(resolved == ScratchRules.realPath(scratch.url.appendingPathComponent("real")) + "/not/yet")
        }
    }

    @Test func anEmptyFolderAMarkedOneAndThePackagesOwnDefaultAreAcceptedAnotherIsNot() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            let package = scratch.url.appendingPathComponent("pkg")
            let defaultRoot = package.appendingPathComponent(".build/mutate/scratch")
            try scratch.write("pkg/.build/mutate/scratch/Package.swift", "// an older run's copy, made before the marker\n")
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
            try scratch.write("marked/\(ScratchRules.marker)", "")
            try scratch.write("marked/Package.swift", "// a copy\n")
            try scratch.write("users/notes.txt", "mine\n")
            for folder in ["empty", "marked", "pkg/.build/mutate/scratch", "not-yet-made"] {
                #expect(throws: Never.self, "\(folder)") {
                    try ScratchRules.check(root: scratch.url.appendingPathComponent(folder), package: package, defaultRoot: defaultRoot)
                }
            }
            #expect(throws: WorkspaceError.self) {
                try ScratchRules.check(root: scratch.url.appendingPathComponent("users"), package: package, defaultRoot: defaultRoot)
            }
        }
    }
}

extension ScratchWorkspaceTests {
    /// A resolved dependency path with a backslash is written into the
    /// manifest's string literal escaped, so the literal names that folder.
    @Test func aBackslashInAResolvedDependencyPathIsEscaped() {
        let package = URL(fileURLWithPath: #"/work/a\b/App"#)
        #expect(ManifestPaths.rewrite(#".package(path: "../Shared")"#, package: package) == #".package(path: "/work/a\\b/Shared")"#)
    }
}

extension ScratchRulesTests {
    /// A folder given with its trailing `/` (as the file system's root
    /// always is) contains what lies below it: `/` as the scratch folder
    /// contains the package and is refused as such.
    @Test func aFolderWithATrailingSlashContainsWhatLiesBelowIt() throws {
        #expect(ScratchRules.isInside("/work/pkg", "/"))
        #expect(ScratchRules.isInside("/a/b", "/a/"))
        #expect(!ScratchRules.isInside("/ab", "/a/"))
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            let package = scratch.url.appendingPathComponent("pkg")
            #expect(throws: WorkspaceError(reason: "the scratch folder / contains the package: the sync would delete files around it; pick a folder under .build/ or a new, empty folder")) {
                try ScratchRules.check(root: URL(fileURLWithPath: "/"), package: package, defaultRoot: package.appendingPathComponent(".build/mutate/scratch"))
            }
        }
    }
}

extension ScratchWorkspaceTests {
    /// What changed kind is removed entry by entry before anything is
    /// written: a dangling link where the package now has a folder goes (no
    /// folder can be made through it), an entry inside a folder already
    /// removed is skipped, and nothing else of the copy (its build folder,
    /// its TMPDIR) is touched.
    @Test func entriesThatChangedKindAreRemovedOneByOneAndNothingElse() throws {
        try withScratch { scratch in
            let manager = FileManager.default
            try scratch.write("pkg/Package.swift", "// manifest\n")
            try scratch.write("pkg/Sources/A/Gen/y.swift", "let y = 2\n")
            try scratch.write("pkg/Sources/B/Old", "now a file\n")
            let copy = scratch.url.appendingPathComponent("copy")
            try scratch.write("copy/Package.swift", "// manifest\n")
            try scratch.write("copy/.build/debug/kept.o", "object\n")
            try manager.createDirectory(at: copy.appendingPathComponent("Sources/A"), withIntermediateDirectories: true)
            try manager.createDirectory(at: copy.appendingPathComponent("Sources/B/Old"), withIntermediateDirectories: true)
            // A dangling link where the package has a folder; a link inside a folder that is now a file.
            try manager.createSymbolicLink(atPath: copy.appendingPathComponent("Sources/A/Gen").path, withDestinationPath: "Gone")
            try manager.createSymbolicLink(atPath: copy.appendingPathComponent("Sources/B/Old/L").path, withDestinationPath: "x")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: copy)

            let written = try workspace.sync()
            #expect(written == 2, "the folder's file and the new file; the manifest was already there")
            #expect(workspace.read("Sources/A/Gen/y.swift") == "let y = 2\n")
            #expect(workspace.read("Sources/B/Old") == "now a file\n")
            #expect(!manager.fileExists(atPath: copy.appendingPathComponent("Sources/A/Gone").path), "nothing is written through the link")
            #expect(manager.fileExists(atPath: copy.appendingPathComponent(".build/debug/kept.o").path), "the copy's build is kept")
            #expect(manager.fileExists(atPath: workspace.temporaryDirectory.path))
        }
    }
}

extension ScratchWorkspaceTests {
    /// An interrupted module's build folders are forgotten in every build
    /// folder of the copy's `.build`: another configuration (`release`), a
    /// platform's `debug`, and under the module's name, a target folder's
    /// `-` made `_`.
    @Test func anInterruptedModuleIsForgottenInEveryConfigurationUnderItsModuleName() throws {
        try withScratch { scratch in
            try scratch.write("pkg/Package.swift", "// manifest\n")
            let workspace = ScratchWorkspace(package: scratch.url.appendingPathComponent("pkg"), root: scratch.url.appendingPathComponent("copy"))
            _ = try workspace.sync()
            let build = scratch.url.appendingPathComponent("copy/.build")
            for folder in ["release/Tiny.build", "x86_64-unknown-linux-gnu/debug/Tiny.build", "debug/my_lib.build"] {
                try scratch.write("copy/.build/\(folder)/A.o", "object\n")
            }
            workspace.noteInterrupted(["Sources/Tiny/A.swift", "Sources/my-lib/B.swift"])
            #expect(workspace.forgetInterruptedBuilds() == ["Tiny", "my-lib"])
            #expect(!FileManager.default.fileExists(atPath: build.appendingPathComponent("release/Tiny.build").path), "another configuration")
            #expect(!FileManager.default.fileExists(atPath: build.appendingPathComponent("x86_64-unknown-linux-gnu/debug/Tiny.build").path),
                    "a platform's debug folder")
            #expect(!FileManager.default.fileExists(atPath: build.appendingPathComponent("debug/my_lib.build").path),
                    "a target folder with a dash builds a module with an underscore")
        }
    }
}
