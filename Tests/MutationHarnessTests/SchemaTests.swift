import Foundation
import Testing
@testable import MutationHarness

/// The mutant schema against the patches it replaces: one program compiled
/// with every mutation behind the switch behaves, for each switch position,
/// exactly like the program with that one mutation applied as a patch.
@Suite(.ownThread)
struct SchemaTests {
    static let source = """
        var logged = 0
        func log() { logged += 1 }
        func isBig(_ b: Int) -> Bool {
            b > 4
        }
        func even(_ b: Int) throws -> Bool { b % 2 == 0 }
        func check(_ a: Int, _ b: Int) throws -> Bool {
            guard a > 0 else { return false }
            if a <= b && b != 3 { log() }
            if try even(b), firstAbove(a) == 4 { log() }
            return a * 2 == b - 1 || b == 4 || isBig(b) && a == 1
        }
        func firstAbove(_ a: Int) -> Int {
            var rest = [a]
            while true {
                // With its `else`, no mutant removes this `if`: the loop would never end.
                if rest.isEmpty { return a } else { rest = [] }
            }
        }
        enum Odd: Error { case odd }
        func evenOrThrow(_ b: Int) throws(Odd) -> Bool { if b % 2 != 0 { throw .odd }; return b > 2 }
        // A removed `try` condition in a typed-throws function: behind `||` (an
        // autoclosure rethrowing `any Error`) this would not compile.
        func typed(_ b: Int) throws(Odd) -> Int {
            guard try evenOrThrow(b) else { return 0 }
            return 1
        }
        // One explicit return: the schema must not write a second `return` before it.
        func isSmall(_ b: Int) -> Bool { return b < 2 }
        var state = 0
        var table: [Int: Int] = [:]
        func bump() throws { state *= 2 }
        func update(_ b: Int) throws {
            state += b
            table[b] = b * 3
            try? bump()
            if b > 3 { state -= 1 }
            if b == 0 { state += 9 } else if b == 1 { state += 8 } else if b == 2, state > 1 { state += 7 } else { state += 6 }
            if b > 4 { state += 5 } else if b < 1 { state -= 4 }
        }
        func pick(_ a: Int, _ b: Int) -> Int {
            let found: Int? = a > b ? a : nil
            let wide: Bool? = a == 2 ? nil : b > 2
            if wide ?? false, a > 0 && a < 3 { return (a * 10) / 2 }
            return found ?? (b == 1 ? nil : b) ?? 0
        }
        // Ternaries and calls whose receiver can stand in for them, where their switches
        // start or end beside others': a call on a call, a fallback or a call at the start
        // of a ternary's condition, a ternary that is an `if`'s whole condition.
        func label(_ a: Int, _ b: Int) -> Int {
            let names = [b, a, 3]
            let picked = a > b ? names.sorted() : names.filter { $0 != 3 }
            let first = (a >= 1 ? picked : names).map { $0 * 2 }
            var total = (b > 2 ? first.bumped().sorted() : first).reduce(0) { $0 * 10 + $1 } + (a < 0 ? b : a)
            if a > 0 ? b > 1 : b < 1 { total += 1 }
            total += names.first ?? 0 > 1 ? a : b
            total += names.filter { $0 > 3 }.isEmpty ? b : a * 3
            // A comment between a condition and its `?`; a condition that ends in a fraction.
            total += a > 3 // far
                ? b
                : a
            total += Double(b) > 2.5 ? a /* one */ : b
            return total
        }
        extension Array where Element == Int {
            func bumped() -> [Int] { map { $0 + 1 } }
        }

        """
    /// With `KILL_EARLY` set, the program runs only `isSmall` and is killed
    /// by SIGKILL: the switches it ran must be on record all the same.
    static let main = "#if canImport(Glibc)\nimport Glibc\n#else\nimport Darwin\n#endif\n"
        + "if getenv(\"KILL_EARLY\") != nil { print(isSmall(1)); fflush(stdout); kill(getpid(), SIGKILL) }\n"
        + "for a in -1...4 { for b in 0...5 { print(try! check(a, b) ? 1 : 0, terminator: \"\") } }\n"
        + "for b in 0...5 { print((try? typed(b)) ?? -1, terminator: \"\") }\nprint(\" \\(logged)\")\n"
        + "for b in 0...5 { try! update(b); print(state, terminator: \" \") }\nprint(table.sorted { $0.key < $1.key }.map(\\.value))\n"
        + "for a in -1...4 { for b in 0...5 { print(pick(a, b), terminator: \" \") } }\nprint()\n"
        + "for a in -1...4 { for b in 0...5 { print(label(a, b), terminator: \" \") } }\nprint()\n"

    /// Only the `true` of `while true` is left to a patch (behind a switch
    /// the loop could end, and the compiler would ask for a return after
    /// it); every other point goes into the schema, in the order given.
    @Test(arguments: [
        ("while true", true), ("while\n    true", true), ("awhile true", false), ("Awhile true", false), ("zwhile true", false), ("Zwhile true", false), ("_while true", false),
        ("0while true", false), ("9while true", false), ("(while true", true), ("{while true", true), ("loop:while true", true),
        ("let values = [1, 2,\n    true]", false), ("if ready, true", false),
    ])
    func onlyTheTrueOfAWhileLoopIsLeftToAPatch(source: String, leftOut: Bool) {
        let bytes = Array(source.utf8)
        let start = bytes.count - (source.hasSuffix("]") ? 5 : 4)
        let loop = MutationPoint(file: "A.swift", start: start, end: start + 4, line: 1, column: 1, mutationOperator: .booleanLiteral,
                                 original: "true", replacement: "false")
        let first = MutationPoint(file: "A.swift", start: 0, end: 1, line: 1, column: 1, mutationOperator: .booleanLiteral,
                                  original: String(source.prefix(1)), replacement: "x")
        #expect(Schema.isLoopForever(loop, in: bytes) == leftOut)
        let schema = Schema.build(points: [loop, first], sources: ["A.swift": bytes], module: { _ in "M" })
        #expect(schema.points == (leftOut ? [first] : [first, loop]), "\(schema.points.map(\.summary))")
    }

    @Test func eachSwitchPositionBehavesLikeItsPatch() throws {
        try withScratch { scratch in
            try scratch.write("dump/A.swift", Self.source)
            let dump = scratch.url.appendingPathComponent("dump")
            let tree = try #require(try ASTDump.run(swiftc: "swiftc", module: "M", packageName: "m", files: ["A.swift"], in: dump,
                                                    searchPaths: [], moduleMaps: [], environment: scratch.toolEnvironment()).first)
            let bytes = Array(Self.source.utf8)
            let found = MutationFinder(path: "A.swift", source: bytes).points(in: tree.root)
            #expect(found.count >= 15)
            let schema = Schema.build(points: found, sources: ["A.swift": bytes], module: { _ in "M" })
            // All but `while true`, which runs as a patch (behind a switch the loop could end, and `firstAbove` would need a return).
            #expect(found.filter { schema.numbers[$0.id] == nil }.map(\.summary) == found.filter { $0.original == "true" && $0.line == 15 }.map(\.summary))
            #expect(schema.numbers.count == found.count - 1)
            let points = found.filter { schema.numbers[$0.id] != nil }

            let schemaFolder = scratch.url.appendingPathComponent("schema")
            try FileManager.default.createDirectory(at: schemaFolder, withIntermediateDirectories: true)
            let record = scratch.url.appendingPathComponent("reached")
            let killedRecord = scratch.url.appendingPathComponent("reached-killed")
            let environments = [[:]] + points.map { [Schema.variable: String(schema.numbers[$0.id]!)] }
                + [[Schema.reachedVariable: killedRecord.path, "KILL_EARLY": "1"], [Schema.reachedVariable: record.path]]
            let switched = try CompiledProgram.run(["A.swift": try #require(schema.files["A.swift"]), "main.swift": Self.main,
                                              Schema.supportFileName: try #require(schema.support["M"])],
                                             in: schemaFolder, runs: environments)

            // Recording which switches ran changes nothing, names each switch
            // once, and leaves out only switches that cannot change the output.
            #expect(switched.last == switched[0])
            let recorded = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map { Int($0) }
            #expect(Set(recorded).count == recorded.count, "each switch once: \(recorded)")
            let reached = Set(recorded.compactMap { $0 })
            for (index, point) in points.enumerated() where !reached.contains(schema.numbers[point.id]!) {
                #expect(switched[index + 1] == switched[0], "\(point.summary) was not recorded, yet switching it on changes the output")
            }
            #expect(points.contains { !reached.contains(schema.numbers[$0.id]!) }, "isSmall runs nowhere: its switches are not recorded")
            // A process killed by a signal writes no coverage profile; the switches it ran are on record all the same.
            let smallLine = Self.source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("func isSmall") }! + 1
            let small = points.filter { $0.line == smallLine }.compactMap { schema.numbers[$0.id] }
            #expect(!small.isEmpty)
            #expect(switched[switched.count - 2] == "true\n", "killed right after isSmall")
            let killed = try String(contentsOf: killedRecord, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
            #expect(Set(killed) == Set(small), "\(killed) against isSmall's \(small)")
            #expect(points.enumerated().contains { reached.contains(schema.numbers[$1.id]!) && switched[$0 + 1] != switched[0] })

            // The original, and a sample of patches: one of each kind of edit.
            let original = try CompiledProgram.run(["A.swift": Self.source, "main.swift": Self.main],
                                             in: scratch.url.appendingPathComponent("dump"), runs: [[:]])
            #expect(switched[0] == original[0], "switch off: the original program")
            let kinds: [MutationOperator] = [.relationalBoundary, .logical, .arithmetic, .integerLiteral, .booleanLiteral,
                                             .removeVoidCall, .returnConstant, .removeCondition, .droppedUpdate, .removeBranch, .nilFallback,
                                             .droppedOperand, .ternarySide, .identity]
            // Every `&&` and `||`: in a chain (`a || b || c`), the swap must keep the tree's grouping as the switch does.
            let logical = points.filter { $0.mutationOperator == .logical }
            #expect(logical.contains { $0.group != nil }, "the chain on the return line is regrouped: \(logical.map(\.summary))")
            var samples = try kinds.map { kind in try #require(points.first { $0.mutationOperator == kind }, "\(kind)") }
            samples += logical.filter { point in !samples.contains { $0.id == point.id } }
            // Every switch that sits beside another's: each fallback (one inside a removed condition that starts at
            // the same byte), each removed `else if` (its condition removed too), each operand kept from the right.
            samples += points.filter { point in
                (point.mutationOperator == .nilFallback || (point.mutationOperator == .removeBranch && point.switchSite != nil)
                    || (point.mutationOperator == .droppedOperand && Schema.keepsRightOperand(point, token: point.switchSite!, in: bytes)))
                    && !samples.contains { $0.id == point.id }
            }
            // A call behind `try?` is removed with it.
            samples += points.filter { $0.mutationOperator == .removeVoidCall && $0.original.hasPrefix("try?") }
            // Every side a ternary takes and every call its receiver stands in for: their switches nest with others'.
            samples += points.filter { [.ternarySide, .identity].contains($0.mutationOperator) && !samples.map(\.id).contains($0.id) }
            for point in samples {
                let kind = point.mutationOperator
                let mutated = GeneratedMutant.mutatedSource(for: point, source: bytes)
                let folder = scratch.url.appendingPathComponent("patch-\(point.id)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let patched = try CompiledProgram.run(["A.swift": String(decoding: mutated, as: UTF8.self), "main.swift": Self.main],
                                                in: folder, runs: [[:]])
                let index = points.firstIndex { $0.id == point.id }! + 1
                #expect(switched[index] == patched[0], "\(point.summary): schema \(switched[index]) vs patch \(patched[0])")
                #expect(patched[0] != original[0] || kind == .relationalBoundary, "the mutation changes something: \(point.summary)")
            }
        }
    }
}

extension SchemaTests {
    /// A line of a named mutant's variant maps to its body's closing line;
    /// the lines after each wrapper move back by its variants' lines.
    @Test func aLineOfAVariantMapsToItsBodysClosingLine() {
        var schema = Schema()
        schema.lineShifts = ["A.swift": [Schema.LineShift(line: 5, extra: 3), Schema.LineShift(line: 12, extra: 2)]]
        #expect([4, 5, 6, 8, 9, 12, 13, 14, 15].map { schema.originalLine($0, in: "A.swift") } == [4, 5, 5, 5, 6, 9, 9, 9, 10])
        #expect(schema.originalLine(7, in: "B.swift") == 7)
    }

    /// A compiler error on a ternary's condition is blamed on the mutants
    /// of its sides: their switch is there.
    @Test func aTernarySidesSiteRunsFromItsConditionToTheSide() {
        let source = Array("let x = c\n    ? a\n    : f(\n)\n".utf8)
        var point = MutationPoint(file: "A.swift", start: 24, end: 28, line: 3, column: 7, mutationOperator: .ternarySide,
                                  original: "f(\n)", replacement: "a", switchSite: MutationPoint.ByteRange(start: 8, end: 9))
        point.forcedAnswer = true
        let schema = Schema.build(points: [point], sources: ["A.swift": source], module: { _ in "M" })
        #expect(schema.files["A.swift"] == "let x = ((c) || __mutateActive(1))\n    ? a\n    : f(\n)\n")
        #expect(schema.sites.map(\.lines) == [1...4])
    }

    /// A removed call's `;` stays outside the switch, so the file compiles.
    @Test func aRemovedCallKeepsItsSemicolonOutsideTheSwitch() {
        let point = MutationPoint(file: "A.swift", start: 0, end: 4, line: 1, column: 1, mutationOperator: .removeVoidCall,
                                  original: "f();", replacement: "")
        let schema = Schema.build(points: [point], sources: ["A.swift": Array("f(); g()\n".utf8)], module: { _ in "M" })
        #expect(schema.files["A.swift"] == "if !__mutateActive(1) { f() }; g()\n")
    }

    /// A call its receiver stands in for closes inside a removed statement
    /// that ends with it, also past half a megabyte into a file.
    @Test(arguments: [0, 600_000])
    func aCallThatEndsARemovedStatementClosesInsideIt(padding: Int) {
        let prefix = padding == 0 ? "" : "//" + String(repeating: "x", count: padding) + "\n"
        let statement = "names = names.sorted()"
        let at = prefix.utf8.count, line = padding == 0 ? 1 : 2
        let update = MutationPoint(file: "A.swift", start: at, end: at + 22, line: line, column: 1, mutationOperator: .droppedUpdate,
                                   original: statement, replacement: "")
        let call = MutationPoint(file: "A.swift", start: at + 8, end: at + 22, line: line, column: 9, mutationOperator: .identity,
                                 original: "names.sorted()", replacement: "names")
        let schema = Schema.build(points: [call, update], sources: ["A.swift": Array((prefix + statement + "\n").utf8)], module: { _ in "M" })
        #expect(schema.files["A.swift"] == prefix + "if !__mutateActive(1) { names = (__mutateActive(2) ? names : names.sorted()) }\n")
    }

    /// The right operand is kept when the replacement is the text after the
    /// operator, blanks skipped; the left one is not the right one.
    @Test func theRightOperandIsKeptWhenTheReplacementIsTheTextAfterTheOperator() {
        let bytes = Array("a && b".utf8)
        func kept(_ replacement: String) -> Bool {
            let point = MutationPoint(file: "A.swift", start: 0, end: 6, line: 1, column: 1, mutationOperator: .droppedOperand,
                                      original: "a && b", replacement: replacement)
            return Schema.keepsRightOperand(point, token: MutationPoint.ByteRange(start: 2, end: 4), in: bytes)
        }
        #expect(kept("b") && !kept("a"))
    }
}

extension SchemaTests {
    /// A schema's digest is of its texts in sorted order, not in the order
    /// its dictionaries keep them (which changes from run to run), so the
    /// same schema has the same digest in every run.
    @Test func aSchemasDigestIsOfItsTextsInSortedOrder() {
        var schema = Schema()
        let names = (1...12).map { "Sources/M/F\($0).swift" }
        for name in names { schema.files[name] = "// \(name)\n" }
        schema.support["Sources/M"] = "// support\n"
        let texts = names.map { "file \($0)\u{0}// \($0)\n" }.sorted() + ["support Sources/M\u{0}// support\n"]
        #expect(schema.digest == SHA256.hex(texts.joined(separator: "\u{0}\n")))
    }
}
