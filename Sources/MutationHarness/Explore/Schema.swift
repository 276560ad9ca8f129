/// Mutant schemata: every generated mutation of a file compiled into one
/// build, each behind a switch read at run time (`MUTATE_SCHEMA_ID`), so a
/// generated mutant costs one test run and no build.
///
/// Each mutation becomes an edit that composes with the others:
/// - a binary operator token is replaced by a custom operator (one per token)
///   whose function picks the original or a mutated operator at run time;
///   operands, and any mutations inside them, stay where they are;
/// - a boolean or integer literal becomes `(__mutateActive(N) ? new : old)`;
/// - a removed call is wrapped in `if !__mutateActive(N) { ... }`;
/// - a constant return is inserted after the function's `{` (and a body that
///   was one expression gets its `return` written out);
/// - a removed condition becomes `(__mutateActive(N) ? true : (condition))`;
/// - a dropped update or a removed `if` is wrapped like a removed call, and
///   a removed `else if` branch gets a first condition that fails
///   (`else if !__mutateActive(N), ...`);
/// - `a ?? b` taking its fallback becomes `(__mutateActive(N) ? nil : (a)) ?? b`;
/// - a dropped operand is another case of the operator's function
///   (`return lhs`, `return try rhs()`);
/// - a ternary taking one side keeps its condition and forces the answer:
///   `((c) && !__mutateActive(N)) ? a : b`, `((c) || __mutateActive(N)) ? a : b`;
/// - a call replaced by its receiver becomes
///   `(__mutateActive(N) ? receiver : receiver.method(...))` (the receiver
///   is a plain path of names, `MutationFinder.isPlainPath`).
/// What does not type-check in the schema runs on the patch path instead,
/// and so does `true` in `while true` (see `isLoopForever`).
struct Schema {
    /// The schema's number for each point id (1-based; 0 means "original").
    var numbers: [String: Int] = [:]
    /// Rewritten file contents by path.
    var files: [String: String] = [:]
    /// The support file for each module folder (`Sources/X`), with the switch and the operators.
    var support: [String: String] = [:]
    /// The points in the schema (generated mutants).
    var points: [MutationPoint] = []
    /// Where each named mutant's bodies sit in the rewritten files (`PatchSchema`).
    var bodySites: [Site] = []

    /// A digest of the build this schema makes: every rewritten file and
    /// support file, by path. The same digest is the same code compiled.
    var digest: String {
        let texts = files.map { "file \($0.key)\u{0}\($0.value)" } + support.map { "support \($0.key)\u{0}\($0.value)" }
        return SHA256.hex(texts.sorted().joined(separator: "\u{0}\n"))
    }

    /// Where each mutant's code sits in the rewritten files (a generated
    /// one's: its point's line, which the schema's edits keep, or the lines
    /// from its switch to it): a compiler
    /// error on those lines leaves it out of the schema.
    var sites: [Site] { points.map { Site(id: $0.id, file: $0.file, lines: siteLines[$0.id] ?? $0.line...$0.line) } + bodySites }

    /// The lines of a point whose switch is not on its own line (a ternary's
    /// condition above the side it replaces), by id.
    var siteLines: [String: ClosedRange<Int>] = [:]

    /// Lines a named mutants' wrapper adds (`PatchSchema`), by file, in
    /// order: after `line` of the rewritten file (the original body's
    /// closing line) come `extra` lines of variants. A generated schema adds
    /// no line.
    var lineShifts: [String: [LineShift]] = [:]

    struct LineShift: Equatable, Sendable {
        var line: Int
        var extra: Int
    }

    /// The original file's line for `line` of the rewritten `file`: a line
    /// of a variant is its body's closing line.
    func originalLine(_ line: Int, in file: String) -> Int {
        var shift = 0
        for wrapper in lineShifts[file] ?? [] {
            if line <= wrapper.line { break }
            if line <= wrapper.line + wrapper.extra { return wrapper.line - shift }
            shift += wrapper.extra
        }
        return line - shift
    }

    struct Site: Equatable {
        /// The mutant's name (a generated one's id).
        var id: String
        var file: String
        var lines: ClosedRange<Int>
    }

    static let supportFileName = "__MutateSchema.swift"
    static let variable = "MUTATE_SCHEMA_ID"
    /// The file a process appends the number of each switch it runs to
    /// (`SwitchPass`); unset, nothing is recorded.
    static let reachedVariable = "MUTATE_REACHED"

    /// An edit of the original bytes: replace [start, end) with `text`
    /// (an insertion when start == end).
    struct Edit {
        var start: Int
        var end: Int
        var text: String
        /// Among insertions at one position, higher goes first in the result
        /// (it encloses the others).
        var order: Int
    }

    /// Builds the schema for `points`; `sources` holds each file's bytes and
    /// `module` names the module folder of a file (where its support file
    /// goes). Operator names are unique across the whole package: an operator
    /// declaration is visible to every module that imports its module.
    static func build(points: [MutationPoint], sources: [String: [UInt8]], module: (String) -> String) -> Schema {
        var schema = Schema()
        var number = 0
        var edits: [String: [Edit]] = [:]
        var operatorFunctions: [String: [String]] = [:]
        var operatorCount = 0
        let byFile = Dictionary(grouping: points, by: \.file)
        for file in byFile.keys.sorted() {
            guard let source = sources[file] else { continue }
            let filePoints = byFile[file]!.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            var tokenGroups: [Int: (end: Int, cases: [(Int, OperatorCase)])] = [:]
            var returnsSpelled: Set<Int> = []
            for point in filePoints where !Self.isLoopForever(point, in: source) {
                schema.points.append(point)
                number += 1
                schema.numbers[point.id] = number
                let active = "__mutateActive(\(number))"
                switch point.mutationOperator {
                case .relationalBoundary, .relationalNegation, .logical, .arithmetic:
                    tokenGroups[point.start, default: (point.end, [])].cases.append((number, .swap(point.replacement)))
                case .droppedOperand:
                    guard let token = point.switchSite else { continue }
                    let keeps: OperatorCase = Self.keepsRightOperand(point, token: token, in: source) ? .keepRight : .keepLeft
                    tokenGroups[token.start, default: (token.end, [])].cases.append((number, keeps))
                case .booleanLiteral, .integerLiteral:
                    edits[file, default: []].append(Edit(start: point.start, end: point.end,
                                                         text: "(\(active) ? \(point.replacement) : \(point.original))", order: 1))
                case .removeBranch where point.switchSite != nil:
                    edits[file, default: []].append(Edit(start: point.switchSite!.start, end: point.switchSite!.start, text: " !\(active),", order: 1))
                case .removeVoidCall, .droppedUpdate, .removeBranch:
                    // Before the `;` a removed statement takes with it: `if !on { a() }; b()`.
                    let close = point.original.hasSuffix(";") ? point.end - 1 : point.end
                    edits[file, default: []].append(Edit(start: point.start, end: point.start, text: "if !\(active) { ", order: 0))
                    edits[file, default: []].append(Edit(start: close, end: close, text: " }", order: 2))
                case .returnConstant:
                    let constant = point.replacement.contains("true") ? "true" : "false"
                    edits[file, default: []].append(Edit(start: point.end, end: point.end, text: " if \(active) { return \(constant) };", order: 1))
                    // After the switch the body is no longer one expression: its return must be written.
                    if let start = point.implicitReturn, !returnsSpelled.contains(start) {
                        returnsSpelled.insert(start)
                        edits[file, default: []].append(Edit(start: start, end: start, text: "return ", order: 0))
                    }
                case .removeCondition:
                    // A ternary, not `||`: the condition stays an expression of its own (no
                    // autoclosure), so a `try` or `await` in it keeps its typed error and context.
                    edits[file, default: []].append(Edit(start: point.start, end: point.start, text: "(\(active) ? true : (", order: 0))
                    edits[file, default: []].append(Edit(start: point.end, end: point.end, text: "))", order: 2))
                case .nilFallback:
                    guard let left = point.switchSite else { continue }
                    // Inside a removed condition or a ternary's switch that starts at the same byte.
                    edits[file, default: []].append(Edit(start: left.start, end: left.start, text: "(\(active) ? nil : (", order: -2))
                    edits[file, default: []].append(Edit(start: left.end, end: left.end, text: "))", order: 2))
                case .ternarySide:
                    // The condition still runs; its answer is forced (true when the else side became the then side).
                    guard let condition = point.switchSite, let forcedTrue = point.forcedAnswer else { continue }
                    schema.siteLines[point.id] = Self.line(of: condition.start, in: source)...Self.line(of: max(point.start, point.end - 1), in: source)
                    edits[file, default: []].append(Edit(start: condition.start, end: condition.start, text: "((", order: -1))
                    edits[file, default: []].append(Edit(start: condition.end, end: condition.end,
                                                         text: forcedTrue ? ") || \(active))" : ") && !\(active))", order: forcedTrue ? 3 : 2))
                case .identity:
                    // Inside every other switch that starts or ends where the call does; a longer call encloses a shorter one.
                    let length = point.end - point.start
                    edits[file, default: []].append(Edit(start: point.start, end: point.start, text: "(\(active) ? \(point.replacement) : ",
                                                         order: -3 - 1_000_000 + length))
                    edits[file, default: []].append(Edit(start: point.end, end: point.end, text: ")", order: 4 + 1_000_000 - length))
                }
            }
            for start in tokenGroups.keys.sorted() {
                let group = tokenGroups[start]!
                let original = String(decoding: source[start..<group.end], as: UTF8.self)
                operatorCount += 1
                let name = Self.operatorName(operatorCount)
                edits[file, default: []].append(Edit(start: start, end: group.end, text: name, order: 1))
                operatorFunctions[module(file), default: []] += Self.operatorDeclarations(name: name, original: original, cases: group.cases)
            }
            schema.files[file] = apply(edits[file] ?? [], to: source)
        }
        for module in Set(byFile.keys.map(module)) {
            schema.support[module] = supportFile(operators: operatorFunctions[module] ?? [], switches: number)
        }
        return schema
    }

    /// `while true`: the compiler knows such a loop never ends and asks for
    /// no `return` after it; behind a switch it would. It runs as a patch.
    static func isLoopForever(_ point: MutationPoint, in source: [UInt8]) -> Bool {
        guard point.mutationOperator == .booleanLiteral, point.original == "true" else { return false }
        var index = point.start
        while index > 0, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n")].contains(source[index - 1]) { index -= 1 }
        let keyword = Array("while".utf8)
        guard index >= keyword.count, Array(source[(index - keyword.count)..<index]) == keyword else { return false }
        let before = index - keyword.count - 1
        return before < 0 || !(source[before] == UInt8(ascii: "_") || (source[before] >= 0x30 && source[before] <= 0x39)
            || ((source[before] | 0x20) >= 0x61 && (source[before] | 0x20) <= 0x7A))
    }

    /// Applies edits from the end of the file backwards, so offsets hold.
    static func apply(_ edits: [Edit], to source: [UInt8]) -> String {
        var bytes = source
        let ordered = edits.sorted { ($0.start, $0.end, -$0.order) > ($1.start, $1.end, -$1.order) }
        for edit in ordered {
            bytes.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `^~^` then the number in binary as `^` (0) and `~` (1), then `~~`:
    /// operator characters only, and no name is a prefix of another.
    static func operatorName(_ number: Int) -> String {
        "^~^" + String(number, radix: 2).map { $0 == "0" ? "^" : "~" } + "~~"
    }

    /// What one switch of an operator's function returns.
    enum OperatorCase: Equatable {
        /// The operands under another operator.
        case swap(String)
        /// The left operand alone.
        case keepLeft
        /// The right operand alone.
        case keepRight
    }

    /// The 1-based line of byte `offset`.
    static func line(of offset: Int, in source: [UInt8]) -> Int {
        source[..<min(offset, source.count)].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// Whether a `dropped-operand` point keeps the right operand: its
    /// replacement is the text after the operator token.
    static func keepsRightOperand(_ point: MutationPoint, token: MutationPoint.ByteRange, in source: [UInt8]) -> Bool {
        var start = token.end
        while start < point.end, [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(source[start]) { start += 1 }
        return source[start..<point.end].elementsEqual(point.replacement.utf8)
    }

    static func operatorDeclarations(name: String, original: String, cases: [(Int, OperatorCase)]) -> [String] {
        let precedence: String
        let signatures: [String]
        switch original {
        case "<", "<=", ">", ">=":
            precedence = "ComparisonPrecedence"
            signatures = ["<T: Comparable>(lhs: T, rhs: T) -> Bool"]
        case "==", "!=":
            precedence = "ComparisonPrecedence"
            signatures = ["<T: Equatable>(lhs: T, rhs: T) -> Bool"]
        case "&&", "||":
            precedence = original == "&&" ? "LogicalConjunctionPrecedence" : "LogicalDisjunctionPrecedence"
            signatures = ["(lhs: Bool, rhs: @autoclosure () throws -> Bool) rethrows -> Bool"]
        case "*", "/":
            precedence = "MultiplicationPrecedence"
            signatures = ["<T: BinaryInteger>(lhs: T, rhs: T) -> T", "<T: FloatingPoint>(lhs: T, rhs: T) -> T"]
        default:
            precedence = "AdditionPrecedence"
            signatures = ["<T: Numeric>(lhs: T, rhs: T) -> T"]
        }
        let logical = ["&&", "||"].contains(original)
        func call(_ op: String) -> String {
            logical ? "try lhs \(op) rhs()" : "lhs \(op) rhs"
        }
        func result(_ switched: OperatorCase) -> String {
            switch switched {
            case .swap(let op): call(op)
            case .keepLeft: "lhs"
            case .keepRight: logical ? "try rhs()" : "rhs"
            }
        }
        var lines = ["infix operator \(name) : \(precedence)"]
        for signature in signatures {
            let body = cases.map { "if __mutateActive(\($0.0)) { return \(result($0.1)) }" }.joined(separator: "; ")
            lines.append("@usableFromInline @inline(never) func \(name)\(signature) { \(body); return \(call(original)) }")
        }
        return lines
    }

    /// The switch of one module: `__mutateActive(n)` is true in a process
    /// started with `MUTATE_SCHEMA_ID=n`. With `MUTATE_REACHED` set, it also
    /// appends `n` to that file the first time it runs in the process, at
    /// once (one `write`), so a process killed by a signal has still said
    /// which switches it ran; a file it cannot open or write to stops the
    /// process (a record missing in silence would read as "reached by no test").
    /// `switches` is the schema's highest number.
    static func supportFile(operators: [String], switches: Int) -> String {
        """
        // Generated by `mutate explore` in the scratch copy: the switch of the
        // mutant schema. Never in the package itself.
        #if canImport(Glibc)
        import Glibc
        #elseif canImport(Darwin)
        import Darwin
        #endif

        // Usable from inlinable code and default arguments, which a mutation may sit in.
        @usableFromInline let __mutateSchemaID: Int = getenv("\(variable)").flatMap { Int(String(cString: $0)) } ?? 0

        // Which switches ran (the switch pass): each number once per process, written at once.
        nonisolated(unsafe) let __mutateReached: (file: Int32, seen: UnsafeMutablePointer<UInt8>)? = {
            guard let path = getenv("\(reachedVariable)") else { return nil }
            let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            if file < 0 { fatalError("mutate: cannot record the switches this process runs in \\(String(cString: path))") }
            let seen = UnsafeMutablePointer<UInt8>.allocate(capacity: \(switches + 1))
            seen.initialize(repeating: 0, count: \(switches + 1))
            return (file, seen)
        }()

        @usableFromInline @inline(never) func __mutateActive(_ id: Int) -> Bool {
            if let reached = __mutateReached, id >= 0, id <= \(switches), reached.seen[id] == 0 {
                reached.seen[id] = 1
                let line = Array("\\(id)\\n".utf8)
                let written = line.withUnsafeBytes { write(reached.file, $0.baseAddress, $0.count) }
                if written != line.count { fatalError("mutate: cannot record that switch \\(id) ran (a full disk?)") }
            }
            return __mutateSchemaID == id
        }

        \(operators.joined(separator: "\n"))

        """
    }
}
