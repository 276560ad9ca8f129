import Foundation
import Testing
@testable import MutationHarness

/// The working folder of the coverage pass and the switch pass.
struct PassFolderTests {
    /// What an earlier pass left (cut short, say) is gone: a stale profile
    /// would count as a test's.
    @Test func aPassStartsFromAnEmptyFolderWhateverWasThere() throws {
        try withScratch { scratch in
            try scratch.write("copy/.mutate/coverage/alone/0.profdata", "stale")
            let folder = scratch.url.appendingPathComponent("copy/.mutate/coverage")
            try PassFolder.makeEmpty(folder)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

            let fresh = scratch.url.appendingPathComponent("new/.mutate/switches")
            try PassFolder.makeEmpty(fresh)
            #expect(try FileManager.default.contentsOfDirectory(atPath: fresh.path).isEmpty, "made with its parents")
        }
    }

    @Test func aFolderThatCannotBeMadeStopsThePassSayingWhy() throws {
        try withScratch { scratch in
            try scratch.write("file", "")
            let folder = scratch.url.appendingPathComponent("file/pass")
            let error = #expect(throws: CoverageError.self) { try PassFolder.makeEmpty(folder) }
            #expect(error?.reason.hasPrefix("cannot create \(folder.path): ") == true, "\(String(describing: error?.reason))")
        }
    }
}
