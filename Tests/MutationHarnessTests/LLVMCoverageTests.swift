import Foundation
import Testing
@testable import MutationHarness

struct LLVMCoverageTests {
    @Test func aProfileShowsAFunctionAsRunWhenAnyCounterIsAboveZero() {
        let text = """
            # IR level Instrumentation Flag
            :fe
            $s4Tiny3addyyF
            # Func Hash:
            0
            # Num Counters:
            2
            # Counter Values:
            0
            3

            /path/Sources/A.swift:$s4Tiny7privateyyF
            # Func Hash:
            12
            # Num Counters:
            1
            # Counter Values:
            1

            $s4Tiny4idleyyF
            # Func Hash:
            7
            # Num Counters:
            2
            # Counter Values:
            0
            0

            """
        #expect(LLVMCoverage.reachedFunctions(profileText: text) == ["$s4Tiny3addyyF", "$s4Tiny7privateyyF"],
                "a private function's file prefix is dropped, as llvm-cov export names it; the hash and count lines are not counters")
    }

    @Test func exportGivesEachFunctionsLinesInItsFileRelativeToThePackage() throws {
        let json = """
            {"data":[{"functions":[
              {"name":"f","count":4,"filenames":["/copy/Sources/A.swift"],
               "regions":[[10,5,12,6,4,0,0,0],[11,1,11,9,0,0,0,0],[40,1,90,1,0,1,0,0],[8,1,9,1,0,0,0,2]]},
              {"name":"derived","count":1,"filenames":["/elsewhere/runner.swift"],"regions":[[1,1,2,1,1,0,0,0]]},
              {"name":"empty","count":0,"filenames":["/copy/Sources/B.swift"],"regions":[[3,1,4,1,0,0,0,2]]}
            ]}]}
            """
        let functions = try LLVMCoverage.functions(exportJSON: Data(json.utf8), root: "/copy")
        #expect(functions == [CoverageMap.Function(name: "f", file: "Sources/A.swift", firstLine: 10, lastLine: 12, count: 4)],
                "code regions of the function's own file only; files outside the copy and functions without code are left out")
        #expect(throws: CoverageError.self) { try LLVMCoverage.functions(exportJSON: Data("[]".utf8), root: "/copy") }
        let exported = try LLVMCoverage.exportedFunctions(Data(json.utf8))
        #expect(exported.map(\.name) == ["f", "derived"], "a function with no code region is not one the tests can run")
    }

    /// What another LLVM might print: a region of fewer numbers is skipped,
    /// a function without a count ran 0 times, a region that ends before it
    /// starts is its first line. None stops the pass.
    @Test func anExportOfAnotherShapeIsReadWithoutATrap() throws {
        let json = """
            {"data":[{"functions":[
              {"name":"short","count":2,"filenames":["/copy/Sources/A.swift"],"regions":[[10,5,12],[20,1,22,2,2,0,0,0]]},
              {"name":"uncounted","filenames":["/copy/Sources/A.swift"],"regions":[[30,1,31,1,0,0,0,0]]},
              {"name":"backwards","count":1,"filenames":["/copy/Sources/B.swift"],"regions":[[9,1,7,1,1,0,0,0]]}
            ]}]}
            """
        let exported = try LLVMCoverage.exportedFunctions(Data(json.utf8))
        #expect(exported.map(\.name) == ["short", "uncounted", "backwards"])
        #expect(exported.first?.regions == [[20, 22, 2]], "only the region of eight numbers")
        #expect(exported.dropFirst().first?.count == 0)
        #expect(LLVMCoverage.suiteOnlyLines(suite: exported, alone: [], root: "/copy") == ["Sources/A.swift": Set(20...22), "Sources/B.swift": [9]])
    }

    @Test func codeTheSuiteRanButNoTestAloneIsFoundByRegion() throws {
        func export(_ counts: [Int], other: Int = 0) -> Data {
            Data("""
                {"data":[{"functions":[
                  {"name":"f","count":\(counts[0]),"filenames":["/copy/Sources/A.swift"],
                   "regions":[[10,5,20,6,\(counts[0]),0,0,0],[12,1,14,9,\(counts[1]),0,0,0],[16,1,16,9,\(counts[2]),0,0,0],[8,1,9,1,5,0,0,2]]},
                  {"name":"g","count":\(counts[3]),"filenames":["/copy/Sources/B.swift"],"regions":[[1,1,3,1,\(counts[3]),0,0,0]]},
                  {"name":"h","count":\(other),"filenames":["/elsewhere/C.swift"],"regions":[[1,1,3,1,\(other),0,0,0]]}
                ]}]}
                """.utf8)
        }
        let alone = try LLVMCoverage.exportedFunctions(export([3, 1, 0, 0]))
        let suite = try LLVMCoverage.exportedFunctions(export([9, 4, 2, 1], other: 5))
        #expect(LLVMCoverage.suiteOnlyLines(suite: suite, alone: alone, root: "/copy")
            == ["Sources/A.swift": [16], "Sources/B.swift": [1, 2, 3]],
            "a region a test alone also ran is not counted; a function no test alone ran counts whole; files outside the copy and gap regions are left out")
        #expect(LLVMCoverage.suiteOnlyLines(suite: alone, alone: alone, root: "/copy").isEmpty)
        #expect(LLVMCoverage.suiteOnlyLines(suite: suite, alone: alone, root: "/copy/")
            == ["Sources/A.swift": [16], "Sources/B.swift": [1, 2, 3]], "a root given with its trailing slash is the same root")
        let reshaped = try LLVMCoverage.exportedFunctions(Data("""
            {"data":[{"functions":[{"name":"f","count":3,"filenames":["/copy/Sources/A.swift"],"regions":[[10,5,20,6,3,0,0,0]]}]}]}
            """.utf8))
        #expect(LLVMCoverage.suiteOnlyLines(suite: suite, alone: reshaped, root: "/copy")["Sources/A.swift"] == Set(10...20),
                "regions that do not line up: the function counts whole")
        // As many regions, but not the same lines: no region of the suite is known to have run alone.
        for moved in ["[[10,5,20,6,3,0,0,0],[12,1,15,9,1,0,0,0],[16,1,16,9,1,0,0,0]]", "[[10,5,20,6,3,0,0,0],[13,1,14,9,1,0,0,0],[16,1,16,9,1,0,0,0]]"] {
            let shifted = try LLVMCoverage.exportedFunctions(Data("""
                {"data":[{"functions":[{"name":"f","count":3,"filenames":["/copy/Sources/A.swift"],"regions":\(moved)}]}]}
                """.utf8))
            #expect(LLVMCoverage.suiteOnlyLines(suite: suite, alone: shifted, root: "/copy")["Sources/A.swift"] == Set(12...14),
                    "the region 12-14 lines up with none alone: \(moved)")
        }
    }

    @Test func theToolsBesideSwiftComeFirst() throws {
        try withScratch { scratch in
            for tool in ["toolchain/bin/swift", "toolchain/bin/llvm-profdata", "toolchain/bin/llvm-cov", "path/llvm-profdata", "path/llvm-cov"] {
                try scratch.writeExecutable(tool, "#!/bin/sh\n")
            }
            let toolchain = scratch.url.appendingPathComponent("toolchain/bin").path
            let path = scratch.url.appendingPathComponent("path").path
            #expect(LLVMCoverage.find(swift: "swift", path: "\(toolchain):\(path)")?.profdata == toolchain + "/llvm-profdata")
            #expect(LLVMCoverage.find(swift: toolchain + "/swift", path: path)?.cov == toolchain + "/llvm-cov")
            #expect(LLVMCoverage.find(swift: "swift", path: path)?.cov == path + "/llvm-cov", "no swift found: the PATH's tools")
            // `swift` a wrapper script: the tools beside the compiler on PATH, not an older LLVM's earlier on it.
            try scratch.write("wrapper/swift", "#!/bin/sh\n")
            try scratch.writeExecutable("toolchain/bin/swiftc", "#!/bin/sh\n")
            #expect(LLVMCoverage.find(swift: scratch.url.appendingPathComponent("wrapper/swift").path, path: "\(path):\(toolchain)")?.profdata
                == toolchain + "/llvm-profdata")
            // A tool that cannot be run is not one: the next folder's are taken.
            try scratch.write("notrun/llvm-profdata", "")
            try scratch.writeExecutable("notrun/llvm-cov", "#!/bin/sh\n")
            let notRun = scratch.url.appendingPathComponent("notrun").path
            #expect(LLVMCoverage.find(swift: "/nowhere/swift", path: "\(notRun):\(path)")?.profdata == path + "/llvm-profdata")
            try FileManager.default.removeItem(atPath: path + "/llvm-cov")
            #expect(LLVMCoverage.find(swift: "/nowhere/swift", path: path) == nil, "both tools or none")
        }
    }

    /// The lab's own finder searches the caller's `PATH`: tools installed
    /// elsewhere than /usr/bin or /bin (a toolchain unpacked in /opt and put
    /// on PATH) are found; only a caller without a PATH gets those two.
    @Test func theLabsFinderSearchesTheCallersPath() throws {
        try withScratch { scratch in
            for tool in ["path/llvm-profdata", "path/llvm-cov"] { try scratch.writeExecutable(tool, "#!/bin/sh\n") }
            let path = scratch.url.appendingPathComponent("path").path
            let found = Lab.llvmTools(swift: "/nowhere/swift", environment: ["PATH": path])
            #expect(found?.profdata == path + "/llvm-profdata" && found?.cov == path + "/llvm-cov", "\(String(describing: found))")
            #expect(Lab.llvmTools(swift: "/nowhere/swift", environment: [:])?.profdata
                == LLVMCoverage.find(swift: "/nowhere/swift", path: "/usr/bin:/bin")?.profdata, "no PATH: /usr/bin and /bin")
        }
    }
}
