import Foundation
import Testing
@testable import MutationHarness

/// The named mutants' schema against the patches it replaces: one program
/// with every changed body behind the switch behaves, for each switch
/// position, like the program with that one patch applied, and with every
/// switch off like the original.
@Suite(.ownThread)
struct PatchSchemaTests {
    static let source = """
        var log: [String] = []
        struct Counter {
            var count = 0 {
                didSet { log.append("count \\(count)") }
            }
            let step: Int
            init(step: Int) { self.step = step }
            var doubled: Int { count * 2 }
            var label: String {
                get { "c\\(count)" }
                set { count = newValue.count }
            }
            mutating func add() -> Int {
                count += step
                return count
            }
            func isBig() -> Bool { count > 4 }
        }
        func run() {
            var counter = Counter(step: 2)
            for _ in 0..<3 { _ = counter.add() }
            counter.label = "abcd"
            print(counter.doubled, counter.label, counter.isBig(), log.joined(separator: ","))
        }

        """
    static let main = "run()\n"

    /// Each mutant: what it replaces with what (one edit each, in the original).
    static let mutants: [(name: String, edits: [(String, String)])] = [
        ("boundary", [("count > 4", "count >= 4")]),
        // A body of one expression (an implicit return) made a statement list: both get their `return` written.
        ("doubled-statements", [("{ count * 2 }", "{ let twice = count + count; return twice + 1 }")]),
        ("step-ignored", [("self.step = step", "self.step = 1")]),
        ("no-log", [("didSet { log.append(\"count \\(count)\") }", "didSet { }")]),
        // Two mutants in one body, and one mutant in two bodies.
        ("add-twice", [("count += step\n", "count += step + step\n")]),
        ("add-and-getter", [("return count\n", "return count - 1\n"), ("get { \"c\\(count)\" }", "get { \"d\\(count)\" }")]),
        ("setter", [("count = newValue.count", "count = newValue.count * 3")]),
    ]

    static func mutated(_ edits: [(String, String)]) -> String {
        var text = source
        for (old, new) in edits { text = text.replacingOccurrences(of: old, with: new) }
        return text
    }

    static func bodies(_ text: String, in scratch: Scratch, as name: String) throws -> [FunctionBody] {
        try scratch.write("parse/\(name)", text)
        let found = try FunctionBodies.parse(swiftc: "swiftc", files: [name], in: scratch.url.appendingPathComponent("parse"),
                                             environment: scratch.toolEnvironment())
        return try #require(found[name])
    }

    @Test func theParseFindsTheOutermostBodyOfEachFunctionInitializerAndAccessor() throws {
        try withScratch { scratch in
            let bytes = Array(Self.source.utf8)
            let found = try Self.bodies(Self.source, in: scratch, as: "A.swift")
            let texts = found.map { String(decoding: bytes[$0.start...$0.end], as: UTF8.self) }
            #expect(texts == ["{ log.append(\"count \\(count)\") }", "{ self.step = step }", "{ count * 2 }", "{ \"c\\(count)\" }",
                              "{ count = newValue.count }", "{\n        count += step\n        return count\n    }", "{ count > 4 }",
                              String(Self.source[Self.source.range(of: "{\n    var counter")!.lowerBound...].dropLast(1))])
            #expect(found.map(\.returnsValue) == [false, false, true, true, false, true, true, false])
            #expect(found.map { $0.expressionStart != nil } == [true, true, true, true, true, false, true, false])
            // A local function and a closure sit inside a body: only the outer one counts.
            let nested = "func outer() -> Int {\n    func inner() -> Int { 1 }\n    let f = { 2 }\n    return inner() + f()\n}\n"
            #expect(try Self.bodies(nested, in: scratch, as: "B.swift").count == 1)
            // A lone expression after a comment starts after it.
            let commented = Array("func f() -> Int { // one\n /* a /* nested */ note */ 1 }\n".utf8)
            #expect(FunctionBodies.firstCode(after: 16, in: commented) == commented.count - 4)
        }
    }

    /// The compiler stops printing trees at a file with a syntax error:
    /// that file is left out, and every other one is still parsed.
    @Test func aFileThatDoesNotParseIsLeftOutAndTheOthersAreParsed() throws {
        try withScratch { scratch in
            try scratch.write("parse/A.swift", "func a() -> Int { 1 }\n")
            try scratch.write("parse/Broken.swift", "func f() -> Int {\n  let x = (\n  return 1\n}\n")
            try scratch.write("parse/C.swift", "func c() { }\nfunc d() { }\n")
            let found = try FunctionBodies.parse(swiftc: "swiftc", files: ["Broken.swift", "A.swift", "C.swift"],
                                                 in: scratch.url.appendingPathComponent("parse"), environment: scratch.toolEnvironment())
            #expect(found.keys.sorted() == ["A.swift", "C.swift"])
            #expect(found["C.swift"]?.count == 2)
            #expect(FunctionBodies.broken(["Broken.swift"], in: "{\"_kind\":\"source_file\"}Broken.swift:3:3: error: expected expression") == ["Broken.swift"])
            #expect(FunctionBodies.broken(["1-A.swift"], in: "11-A.swift:3:3: error: x\nA.swift:2:1: warning: y").isEmpty)
            #expect(FunctionBodies.broken(["A.swift"], in: "A.swift:2:1: warning: y").isEmpty)
            #expect(throws: ASTDumpError.self) {
                try FunctionBodies.parse(swiftc: scratch.url.appendingPathComponent("no-such-swiftc").path, files: ["A.swift"],
                                         in: scratch.url.appendingPathComponent("parse"))
            }
        }
    }

    /// An executable's `main.swift` may hold top-level code, which the
    /// compiler allows only under that name, and it refuses two files of
    /// one name in a run: each copy keeps its name in a folder of its own,
    /// and copies of one name are parsed in runs of their own.
    @Test func mainFilesKeepTheirNameAndAreParsedInRunsOfTheirOwn() throws {
        try withScratch { scratch in
            let main = "let usage = \"u\"\nfunc serve() -> Int {\n    1\n}\nprint(serve())\n"
            try scratch.write("parse/0/main.swift", main)
            try scratch.write("parse/1/main.swift", main.replacingOccurrences(of: "    1\n", with: "    2\n"))
            try scratch.write("parse/2-A.swift", "func a() -> Int { 1 }\nfunc b() { }\n")
            let found = try FunctionBodies.parse(swiftc: "swiftc", files: ["0/main.swift", "1/main.swift", "2-A.swift"],
                                                 in: scratch.url.appendingPathComponent("parse"), environment: scratch.toolEnvironment())
            #expect(found.keys.sorted() == ["0/main.swift", "1/main.swift", "2-A.swift"], "\(found)")
            #expect(found["0/main.swift"]?.count == 1 && found["1/main.swift"]?.count == 1 && found["2-A.swift"]?.count == 2)
        }
    }

    @Test func onlyAPatchConfinedToFunctionBodiesIsSwapped() throws {
        try withScratch { scratch in
            let original = Array(Self.source.utf8)
            let old = try Self.bodies(Self.source, in: scratch, as: "A.swift")
            func swaps(_ text: String) throws -> Result<[PatchSchema.Swap], PatchSchema.Refusal> {
                PatchSchema.swaps(file: "A.swift", original: original, originalBodies: old,
                                  mutated: Array(text.utf8), mutatedBodies: try Self.bodies(text, in: scratch, as: "M.swift"))
            }
            let two = try swaps(Self.mutated(Self.mutants[5].edits)).get()
            #expect(two.map(\.body.start) == [old[3].start, old[5].start])
            #expect(two.map(\.replacement) == ["{ \"d\\(count)\" }", "{\n        count += step\n        return count - 1\n    }"])
            #expect(try swaps(Self.source).get().isEmpty)
            #expect(throws: PatchSchema.Refusal.self) { try swaps(Self.source.replacingOccurrences(of: "var count = 0", with: "var count = 1")).get() }
            #expect(throws: PatchSchema.Refusal.self) { try swaps(Self.source + "func extra() {}\n").get() }
            #expect(throws: PatchSchema.Refusal.self) { try swaps(Self.source.replacingOccurrences(of: "let step: Int", with: "var step: Int")).get() }
        }
    }

    @Test func eachSwitchPositionBehavesLikeItsPatch() throws {
        try withScratch { scratch in
            let original = Array(Self.source.utf8)
            let old = try Self.bodies(Self.source, in: scratch, as: "A.swift")
            var plan: [(name: String, swaps: [PatchSchema.Swap])] = []
            for mutant in Self.mutants {
                let text = Self.mutated(mutant.edits)
                #expect(text != Self.source, "\(mutant.name) changes the source")
                let swaps = try PatchSchema.swaps(file: "A.swift", original: original, originalBodies: old, mutated: Array(text.utf8),
                                                  mutatedBodies: try Self.bodies(text, in: scratch, as: "\(mutant.name).swift")).get()
                #expect(swaps.count == mutant.edits.count, "\(mutant.name)")
                plan.append((mutant.name, swaps))
            }
            let schema = PatchSchema.build(plan, sources: ["A.swift": original], module: { _ in "M" })
            #expect(schema.numbers == Dictionary(uniqueKeysWithValues: Self.mutants.enumerated().map { ($1.name, $0 + 1) }))
            let folder = scratch.url.appendingPathComponent("schema")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let switched = try CompiledProgram.run(["A.swift": try #require(schema.files["A.swift"]), "main.swift": Self.main,
                                                   Schema.supportFileName: try #require(schema.support["M"])],
                                                  in: folder, runs: [[:]] + Self.mutants.indices.map { [Schema.variable: String($0 + 1)] })
            let unmutated = scratch.url.appendingPathComponent("original")
            try FileManager.default.createDirectory(at: unmutated, withIntermediateDirectories: true)
            let expected = try CompiledProgram.run(["A.swift": Self.source, "main.swift": Self.main], in: unmutated, runs: [[:]])[0]
            #expect(switched[0] == expected, "every switch off: the original program")
            for (index, mutant) in Self.mutants.enumerated() {
                let patchFolder = scratch.url.appendingPathComponent("patch-\(mutant.name)")
                try FileManager.default.createDirectory(at: patchFolder, withIntermediateDirectories: true)
                let patched = try CompiledProgram.run(["A.swift": Self.mutated(mutant.edits), "main.swift": Self.main], in: patchFolder, runs: [[:]])[0]
                #expect(patched != expected, "\(mutant.name) changes what the program prints")
                #expect(switched[index + 1] == patched, "\(mutant.name): schema \(switched[index + 1]) vs patch \(patched)")
            }
            // Each mutant's site covers the lines of every body it swaps, in the rewritten file.
            let lines = try #require(schema.files["A.swift"]).split(separator: "\n", omittingEmptySubsequences: false)
            for site in schema.sites {
                let text = lines[(site.lines.lowerBound - 1)..<site.lines.upperBound].joined(separator: "\n")
                #expect(text.contains("__mutateActive(\(schema.numbers[site.id]!))"), "\(site.id) at \(site.lines)")
            }
        }
    }
}

extension PatchSchemaTests {
    /// Refusals say why (the reason goes to the mutant's log): a function
    /// added, or a change after the last body.
    @Test func aSwapIsRefusedWithItsReason() {
        let original = Array("func a() { 1 }\n".utf8)
        let a = FunctionBody(start: 9, end: 13, returnsValue: false, expressionStart: 11)
        let added = Array("func a() { 1 }\nfunc b() { }\n".utf8)
        #expect(PatchSchema.swaps(file: "A.swift", original: original, originalBodies: [a], mutated: added,
                                  mutatedBodies: [a, FunctionBody(start: 24, end: 26, returnsValue: false, expressionStart: nil)])
                == .failure(PatchSchema.Refusal(reason: "it adds or removes a function in A.swift")))
        let tail = Array("func a() { 1 }\nlet x = 2\n".utf8)
        #expect(PatchSchema.swaps(file: "A.swift", original: original, originalBodies: [a], mutated: tail, mutatedBodies: [a])
                == .failure(PatchSchema.Refusal(reason: "it changes A.swift outside function bodies")))
    }

    /// A site covers its wrapper's lines; a lone expression gets its
    /// `return` right before it, after a comment too.
    @Test func aWrapperSpellsTheReturnRightBeforeTheExpressionAndIsASite() {
        let source = Array("func f() -> Int { 1 }\n".utf8)
        let f = FunctionBody(start: 16, end: 20, returnsValue: true, expressionStart: 18)
        let swap = PatchSchema.Swap(file: "A.swift", body: f, replacement: "{ 2 }", replacementExpression: 2)
        let schema = PatchSchema.build([("m", [swap])], sources: ["A.swift": source], module: { _ in "M" })
        #expect(schema.files["A.swift"] == "func f() -> Int { if !__mutateActive(1) { return 1 } else { return 2 } }\n")
        #expect(schema.bodySites == [Schema.Site(id: "m", file: "A.swift", lines: 1...1)])
        let commented = Array("func f() -> Int { /*c*/1 }\n".utf8)
        let g = FunctionBody(start: 16, end: 25, returnsValue: true, expressionStart: 23)
        let variant = PatchSchema.Swap(file: "A.swift", body: g, replacement: "{ /*c*/2 }", replacementExpression: 7)
        #expect(PatchSchema.wrapper(original: commented, body: g, variants: [(1, variant)])
                == "{ if !__mutateActive(1) { /*c*/return 1 } else { /*c*/return 2 } }")
    }
}
