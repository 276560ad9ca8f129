import Foundation
import Testing
@testable import MutationHarness

struct TestLocatorTests {
    @Test func swiftTestingTestsAreLocatedFromTheEventStreamRelativeToThePackage() throws {
        try withScratch { scratch in
            let root = scratch.url.appendingPathComponent("pkg")
            let path = root.appendingPathComponent("Tests/ModTests/QueueTests.swift").path
            try scratch.write("events.jsonl", """
            {"kind":"test","payload":{"id":"ModTests.QueueTests","kind":"suite","name":"QueueTests","sourceLocation":{"filePath":"\(path)","line":3}}}
            {"kind":"test","payload":{"id":"ModTests.QueueTests/keepsOrder()/QueueTests.swift:16:6","kind":"function","name":"keepsOrder()","sourceLocation":{"filePath":"\(path)","line":16,"column":6}}}
            not json
            {"kind":"event","payload":{"kind":"testStarted","testID":"ModTests.QueueTests/keepsOrder()/QueueTests.swift:16:6"}}

            """)
            let found = TestLocator.swiftTestingLocations(eventStream: scratch.url.appendingPathComponent("events.jsonl"), packageRoot: root)
            #expect(found == ["ModTests.QueueTests/keepsOrder()": TestLocation(file: "Tests/ModTests/QueueTests.swift", line: 16)])
        }
    }

    @Test func xctestCasesAreFoundByTheirClassAndFunction() throws {
        try withScratch { scratch in
            try scratch.write("Tests/ModTests/A.swift", "import XCTest\nfinal class AlphaTestsExtra: XCTestCase {\n    func testOne() {}\n}\n")
            try scratch.write("Tests/ModTests/Nested/B.swift", """
            import XCTest

            final class AlphaTests: XCTestCase {
                func testOneMore() {}
                func testOne() {}
            }
            """)
            let found = TestLocator.xctestLocations(
                ids: ["ModTests.AlphaTests/testOne", "ModTests.AlphaTests/testGone", "ModTests.Missing/testX", "malformed", "NoModule/testX"],
                packageRoot: scratch.url)
            #expect(found["ModTests.AlphaTests/testOne"] == TestLocation(file: "Tests/ModTests/Nested/B.swift", line: 5))
            // A test the source no longer names falls back to its class's line.
            #expect(found["ModTests.AlphaTests/testGone"] == TestLocation(file: "Tests/ModTests/Nested/B.swift", line: 3))
            #expect(found["ModTests.Missing/testX"] == nil)
            #expect(found.count == 2)
        }
    }

    /// A declaration is found only as whole words: not inside a longer
    /// name, and also when the name ends its line.
    @Test func aDeclarationIsMatchedAsWholeWordsOnly() throws {
        try withScratch { scratch in
            try scratch.write("Tests/ModTests/C.swift", """
                // my_class LegacyTests and xfunc testOld are not declarations
                final class LegacyTests
                    : XCTestCase
                {
                    func testOld() {}
                }
                """)
            let found = TestLocator.xctestLocations(ids: ["ModTests.LegacyTests/testOld", "ModTests.LegacyTests/testGone"], packageRoot: scratch.url)
            #expect(found["ModTests.LegacyTests/testOld"] == TestLocation(file: "Tests/ModTests/C.swift", line: 5))
            #expect(found["ModTests.LegacyTests/testGone"] == TestLocation(file: "Tests/ModTests/C.swift", line: 2), "the class's own line")
        }
    }

    /// A declaration at the very start of its line (no modifier, no indent).
    @Test func aDeclarationThatStartsItsLineIsFound() throws {
        try withScratch { scratch in
            try scratch.write("Tests/ModTests/D.swift", "class PlainTests: XCTestCase {\nfunc testAtLineStart() {}\n}\n")
            let found = TestLocator.xctestLocations(ids: ["ModTests.PlainTests/testAtLineStart", "ModTests.PlainTests/testGone"], packageRoot: scratch.url)
            #expect(found["ModTests.PlainTests/testAtLineStart"] == TestLocation(file: "Tests/ModTests/D.swift", line: 2))
            #expect(found["ModTests.PlainTests/testGone"] == TestLocation(file: "Tests/ModTests/D.swift", line: 1))
        }
    }

    /// An id that is not `Module.Class/test` is passed over, not read past
    /// its end.
    @Test func anIdWithoutATestPartIsPassedOver() throws {
        try withScratch { scratch in
            try scratch.write("Tests/ModTests/D.swift", "class PlainTests: XCTestCase {\nfunc testA() {}\n}\n")
            let found = TestLocator.xctestLocations(ids: ["ModTests.PlainTests", "PlainTests/testA", "ModTests.PlainTests/testA"], packageRoot: scratch.url)
            #expect(found == ["ModTests.PlainTests/testA": TestLocation(file: "Tests/ModTests/D.swift", line: 2)])
        }
    }

    @Test func bothRunnersAreLocatedInOneCall() throws {
        try withScratch { scratch in
            let path = scratch.url.appendingPathComponent("Tests/ModTests/QueueTests.swift").path
            try scratch.write("events.jsonl", """
            {"kind":"test","payload":{"id":"ModTests.QueueTests/keepsOrder()/QueueTests.swift:16:6","kind":"function","sourceLocation":{"filePath":"\(path)","line":16}}}

            """)
            try scratch.write("Tests/ModTests/Legacy.swift", "import XCTest\nfinal class LegacyTests: XCTestCase {\n    func testOld() {}\n}\n")
            let found = TestLocator.locations(ids: ["ModTests.QueueTests/keepsOrder()", "ModTests.LegacyTests/testOld"],
                                              eventStream: scratch.url.appendingPathComponent("events.jsonl"), packageRoot: scratch.url)
            #expect(found == [
                "ModTests.QueueTests/keepsOrder()": TestLocation(file: "Tests/ModTests/QueueTests.swift", line: 16),
                "ModTests.LegacyTests/testOld": TestLocation(file: "Tests/ModTests/Legacy.swift", line: 3),
            ])
        }
    }
}

extension TestLocatorTests {
    /// A class is looked up in its own module's folder: one of the same name elsewhere in the package is not the test's.
    @Test func aClassIsLookedUpInItsModulesFolderOnly() throws {
        try withScratch { scratch in
            try scratch.write("Tests/HelperTests/Same.swift", "class AlphaTests {\n    func testOne() {}\n}\n")
            try scratch.write("Tests/ModTests/Alpha.swift", "import XCTest\n\nfinal class AlphaTests: XCTestCase {\n    func testOne() {}\n}\n")
            let found = TestLocator.xctestLocations(ids: ["ModTests.AlphaTests/testOne"], packageRoot: scratch.url)
            #expect(found == ["ModTests.AlphaTests/testOne": TestLocation(file: "Tests/ModTests/Alpha.swift", line: 4)])
        }
    }
}

extension TestLocatorTests {
    /// A package at the file system's root has its files relative to "/", not to "//".
    @Test func aPackageAtTheRootHasItsFilesRelativeToIt() throws {
        try withScratch { scratch in
            try scratch.write("events.jsonl", """
                {"kind":"test","payload":{"id":"ModTests.QueueTests/keepsOrder()/QueueTests.swift:16:6","kind":"function","sourceLocation":{"filePath":"/Tests/ModTests/QueueTests.swift","line":16}}}

                """)
            let found = TestLocator.swiftTestingLocations(eventStream: scratch.url.appendingPathComponent("events.jsonl"),
                                                          packageRoot: URL(fileURLWithPath: "/"))
            #expect(found == ["ModTests.QueueTests/keepsOrder()": TestLocation(file: "Tests/ModTests/QueueTests.swift", line: 16)])
        }
    }

    /// A test file outside the package keeps its full path.
    @Test func aTestFileOutsideThePackageKeepsItsFullPath() throws {
        try withScratch { scratch in
            try scratch.write("events.jsonl", """
                {"kind":"test","payload":{"id":"ModTests.QueueTests/keepsOrder()/QueueTests.swift:16:6","kind":"function","sourceLocation":{"filePath":"/elsewhere/QueueTests.swift","line":16}}}

                """)
            let found = TestLocator.swiftTestingLocations(eventStream: scratch.url.appendingPathComponent("events.jsonl"),
                                                          packageRoot: scratch.url.appendingPathComponent("pkg"))
            #expect(found == ["ModTests.QueueTests/keepsOrder()": TestLocation(file: "/elsewhere/QueueTests.swift", line: 16)])
        }
    }

    /// Files are read in path order, whatever order the folder lists them in.
    @Test func sourcesAreReadInPathOrderWhateverOrderTheFolderListsThemIn() throws {
        try withScratch { scratch in
            for name in ["A", "B", "C"] { try scratch.write("Tests/ModTests/\(name).swift", "class AlphaTests {}\n") }
            let listed = ["C", "A", "B"].map { scratch.url.appendingPathComponent("Tests/ModTests/\($0).swift") }
            #expect(TestLocator.readSources(listed, packageRoot: scratch.url).map { $0.path }
                == ["Tests/ModTests/A.swift", "Tests/ModTests/B.swift", "Tests/ModTests/C.swift"])
        }
    }
}
