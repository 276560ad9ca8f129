/// Walks one file's type-checked tree and lists its mutation points.
///
/// Only explicit nodes that carry a type and a range are mutated: inactive
/// `#if` code is not in the tree at all, comments never are, and nothing
/// inside a string literal (its interpolations included) is touched. Every
/// operator token is checked against the source bytes before it is used.
struct MutationFinder {
    let path: String
    let source: [UInt8]
    let markers: SkipMarkers
    private let lineStarts: [Int]

    init(path: String, source: [UInt8]) {
        self.path = path
        self.source = source
        markers = SkipMarkers(source: source)
        var starts = [0]
        for (index, byte) in source.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        lineStarts = starts
    }

    static let numericTypes: Set<String> = [
        "$sSiD", "$sSuD", "$sSdD", "$sSfD", "$ss5Int64VD", "$ss5Int32VD", "$ss5Int16VD", "$ss4Int8VD",
        "$ss6UInt64VD", "$ss6UInt32VD", "$ss6UInt16VD", "$ss5UInt8VD", "$s12CoreGraphics7CGFloatVD",
    ]
    static let boolType = "$sSbD"
    static let neverType = "$ss5NeverOD"

    /// (operator, replacement) pairs for each binary operator.
    static let binary: [String: [(MutationOperator, String)]] = [
        "<": [(.relationalBoundary, "<="), (.relationalNegation, ">=")],
        "<=": [(.relationalBoundary, "<"), (.relationalNegation, ">")],
        ">": [(.relationalBoundary, ">="), (.relationalNegation, "<=")],
        ">=": [(.relationalBoundary, ">"), (.relationalNegation, "<")],
        "==": [(.relationalNegation, "!=")],
        "!=": [(.relationalNegation, "==")],
        "&&": [(.logical, "||")],
        "||": [(.logical, "&&")],
        "+": [(.arithmetic, "-")],
        "-": [(.arithmetic, "+")],
        "*": [(.arithmetic, "/")],
        "/": [(.arithmetic, "*")],
    ]

    func points(in root: [String: Any]) -> [MutationPoint] {
        guard !markers.skipsFile else { return [] }
        var found: [MutationPoint] = []
        walk(root, context: Context(), into: &found)
        let points = found.filter { !markers.skips(start: $0.start, end: $0.end) }
            .sorted { ($0.start, $0.end, $0.mutationOperator.rawValue, $0.replacement) < ($1.start, $1.end, $1.mutationOperator.rawValue, $1.replacement) }
        // Two operators that make the same edit make one mutant (the first operator by name keeps it):
        // `c ? x.sorted() : x` taking its else side is `x.sorted()` replaced by `x`.
        var edits: Set<String> = []
        let distinct = points.filter { edits.insert("\($0.start)|\($0.end)|\($0.replacement)|\(String(describing: $0.group))").inserted }
        return anchored(distinct)
    }

    /// Which way `anchored` makes anchors (and so ids): 2 since a repeated
    /// place carries its neighbours. A results file's points made another
    /// way are found again (`ResultsFile.Explored.anchorScheme`).
    static let anchorScheme = 2

    /// Each point with its anchor: the trimmed text of the lines it spans,
    /// where it starts and ends in that text, and the mutation. A place
    /// that occurs more than once in the file also carries its neighbours
    /// (the nearest line above and below that is neither blank nor only a
    /// comment) and how many identical places with the same neighbours come
    /// before it: removing one of the others then never hands its id to
    /// another, and a place that becomes or stops being one of several gets
    /// a new id, which an ignore entry reports as naming no mutant.
    private func anchored(_ points: [MutationPoint]) -> [MutationPoint] {
        let places = points.map(place(of:))
        var seen: Set<String> = []
        var repeated: Set<String> = []
        for place in places where !seen.insert(place).inserted { repeated.insert(place) }
        var rank: [String: Int] = [:]
        return zip(points, places).map { point, place in
            let key = repeated.contains(place) ? place + "|" + neighbours(of: point) : place
            var anchoredPoint = point
            anchoredPoint.anchor = "\(key)#\(rank[key, default: 0])"
            rank[key, default: 0] += 1
            return anchoredPoint
        }
    }

    /// The trimmed text of the lines a point spans, where it starts and
    /// ends in that text, its operator and its replacement.
    private func place(of point: MutationPoint) -> String {
        let first = lineStarts[point.line - 1]
        var last = point.end
        while last < source.count, source[last] != UInt8(ascii: "\n") { last += 1 }
        var indent = first
        while indent < last, source[indent] == UInt8(ascii: " ") || source[indent] == UInt8(ascii: "\t") { indent += 1 }
        let lines = String(decoding: source[indent..<last], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        return "\(lines)|\(point.start - indent)|\(point.end - point.start)|\(point.mutationOperator.rawValue)|\(point.replacement)"
    }

    /// The nearest line above the point's first line and below its last
    /// that holds code (not blank, not only a `//` comment), trimmed; empty
    /// at either end of the file.
    private func neighbours(of point: MutationPoint) -> String {
        func code(_ index: Int) -> String? {
            let start = lineStarts[index]
            let end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : source.count
            let text = String(decoding: source[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return text.isEmpty || text.hasPrefix("//") ? nil : text
        }
        let above = (0..<(point.line - 1)).reversed().lazy.compactMap(code).first ?? ""
        let below = (position(of: max(point.start, point.end - 1)).line..<lineStarts.count).lazy.compactMap(code).first ?? ""
        return above + "\n" + below
    }

    /// What a node's place in the tree says about it.
    struct Context {
        /// Inside an initializer, where every stored property must be set:
        /// no assignment is dropped.
        var inInitializer = false
        /// The expression directly inside the nearest parentheses, and the
        /// parentheses' own range.
        var parenthesized: (inner: (start: Int, end: Int), outer: (start: Int, end: Int))? = nil
        /// The calls that are statements of the nearest block (through
        /// `try` and `await`): their result is not used.
        var statementCalls: Set<MutationPoint.ByteRange> = []
        /// How many times the nearest closure uses each of its arguments
        /// (`$0`, `$1`): no mutation removes the last use.
        var closureArguments: [String: Int] = [:]
    }

    private func walk(_ value: Any, context: Context, into found: inout [MutationPoint]) {
        if let array = value as? [Any] {
            for element in array { walk(element, context: context, into: &found) }
            return
        }
        guard let node = value as? [String: Any] else { return }
        let kind = node["_kind"] as? String ?? ""
        if kind == "interpolated_string_literal_expr" || kind == "string_literal_expr" { return }
        if kind.hasSuffix("_decl"), let range = Self.range(node) { markers.noteDeclaration(start: range.start, end: range.end) }
        // A `case` body is an implicit block of explicit statements (each is checked on its own).
        if node["implicit"] as? Bool != true || kind == "brace_stmt" {
            visit(kind, node, context: context, into: &found)
        }
        var inner = context
        if kind == "constructor_decl" { inner.inInitializer = true }
        if kind == "paren_expr", let outer = Self.range(node), let sub = node["sub_expr"] as? [String: Any], let range = Self.range(sub) {
            inner.parenthesized = (range, outer)
        }
        if kind == "closure_expr" { inner.closureArguments = Self.argumentUses(in: node["body"] ?? [:]) }
        if kind == "brace_stmt" {
            inner.statementCalls = Set((node["elements"] as? [[String: Any]] ?? []).compactMap { element in
                Self.call(under: element).flatMap(Self.range).map { MutationPoint.ByteRange(start: $0.start, end: tokenEnd(at: $0.end)) }
            })
        }
        for (key, child) in node where key != "_kind" {
            walk(child, context: inner, into: &found)
        }
    }

    private func visit(_ kind: String, _ node: [String: Any], context: Context, into found: inout [MutationPoint]) {
        switch kind {
        case "binary_expr":
            binaryOperator(node, context: context, into: &found)
        case "boolean_literal_expr":
            guard let range = Self.range(node), let value = node["value"] as? String, text(range.start, value.utf8.count) == value else { return }
            add(.booleanLiteral, range.start, range.start + value.utf8.count, value == "true" ? "false" : "true", into: &found)
        case "integer_literal_expr":
            guard let range = Self.range(node) else { return }
            let end = tokenEnd(at: range.start)
            let literal = text(range.start, end - range.start)
            guard let value = Int(literal.replacingOccurrences(of: "_", with: "")), literal.first?.isNumber == true else { return }
            add(.integerLiteral, range.start, end, value == 0 ? "1" : String(value + 1), into: &found)
        case "brace_stmt":
            for element in node["elements"] as? [[String: Any]] ?? [] where element["implicit"] as? Bool != true {
                statement(element, context: context, into: &found)
            }
        case "func_decl":
            guard node["result"] as? String == Self.boolType, let body = node["body"] as? [String: Any], body["implicit"] as? Bool != true,
                  let range = Self.range(body), source.indices.contains(range.start), source[range.start] == UInt8(ascii: "{")
            else { return }
            let elements = body["elements"] as? [[String: Any]] ?? []
            let implicitReturn = elements.count == 1 && elements[0]["_kind"] as? String == "return_stmt" && elements[0]["implicit"] as? Bool == true
                ? Self.range(elements[0])?.start : nil
            for constant in ["true", "false"] {
                add(.returnConstant, range.start, range.start + 1, "{ return \(constant);", implicitReturn: implicitReturn, into: &found)
            }
        case "guard_stmt", "if_stmt":
            for condition in node["conditions"] as? [[String: Any]] ?? [] {
                guard (condition["_kind"] as? String)?.hasSuffix("_expr") == true, condition["type"] as? String == Self.boolType,
                      let range = Self.range(condition)
                else { continue }
                let end = tokenEnd(at: range.end)
                guard text(range.start, end - range.start) != "true", !leavesAnArgumentUnused(removing: condition, context: context) else { continue }
                add(.removeCondition, range.start, end, "true", into: &found)
            }
            if kind == "if_stmt" { elseIfBranch(node, context: context, into: &found) }
        case "ternary_expr":
            ternarySides(node, context: context, into: &found)
        case "call_expr":
            identityCall(node, context: context, into: &found)
        default:
            break
        }
    }

    private func binaryOperator(_ node: [String: Any], context: Context, into found: inout [MutationPoint]) {
        guard let function = node["fn"] as? [String: Any], let range = Self.range(function), let name = Self.declName(in: function),
              text(range.start, name.utf8.count) == name
        else { return }
        if name == "??" { return nilFallback(node, context: context, into: &found) }
        guard let replacements = Self.binary[name] else { return }
        // The token must be the operator itself, not the start of a longer one.
        let after = range.start + name.utf8.count
        if source.indices.contains(after), "<>=!&|+-*/%".utf8.contains(source[after]) { return }
        if ["+", "-", "*", "/"].contains(name), !Self.numericTypes.contains(node["type"] as? String ?? "") { return }
        let group = regrouped(node, operator: name)
        for (mutation, replacement) in replacements {
            add(mutation, range.start, after, replacement, group: group, into: &found)
        }
        droppedOperands(node, operator: name, token: MutationPoint.ByteRange(start: range.start, end: after), context: context, into: &found)
    }

    /// The bytes to put in parentheses when swapping `&&` and `||` would
    /// change how the operands group as text: a `&&` that is the left
    /// operand of another `&&` (`a && b && c`: the expression), or a `||`
    /// whose left operand is another `||` (`a || b || c`: that operand).
    /// Elsewhere the swap reads as the tree has it
    /// (both operators associate to the left, and mixed chains keep their
    /// meaning either way).
    private func regrouped(_ node: [String: Any], operator name: String) -> MutationPoint.ByteRange? {
        guard name == "&&" || name == "||", let whole = Self.range(node) else { return nil }
        let end = tokenEnd(at: whole.end)
        if name == "&&" {
            var next = end
            while next < source.count, [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(source[next]) { next += 1 }
            guard next + 1 < source.count, source[next] == UInt8(ascii: "&"), source[next + 1] == UInt8(ascii: "&") else { return nil }
        } else {
            guard let left = Self.operands(node).first, left["_kind"] as? String == "binary_expr",
                  let function = left["fn"] as? [String: Any], Self.declName(in: function) == "||", let operand = Self.range(left)
            else { return nil }
            return MutationPoint.ByteRange(start: operand.start, end: tokenEnd(at: operand.end))
        }
        return MutationPoint.ByteRange(start: whole.start, end: end)
    }

    /// Adds the point that replaces [start, end) with `replacement`, with
    /// the fields some operators set (see `MutationPoint`); a range outside
    /// the file adds nothing.
    func add(_ mutation: MutationOperator, _ start: Int, _ end: Int, _ replacement: String, group: MutationPoint.ByteRange? = nil,
             implicitReturn: Int? = nil, switchSite: MutationPoint.ByteRange? = nil, forcedAnswer: Bool? = nil,
             into found: inout [MutationPoint])
    {
        guard start >= 0, end <= source.count, start <= end else { return }
        let (line, column) = position(of: start)
        var point = MutationPoint(file: path, start: start, end: end, line: line, column: column, mutationOperator: mutation,
                                  original: text(start, end - start), replacement: replacement, implicitReturn: implicitReturn,
                                  group: group, switchSite: switchSite)
        point.forcedAnswer = forcedAnswer
        found.append(point)
    }

    // MARK: - Source helpers

    static func range(_ node: [String: Any]) -> (start: Int, end: Int)? {
        guard let range = node["range"] as? [String: Any], let start = range["start"] as? Int, let end = range["end"] as? Int, end >= start else {
            return nil
        }
        return (start, end)
    }

    /// The first `decl.base_name` below `node` (the operator a binary expression calls).
    static func declName(in node: [String: Any]) -> String? {
        if let decl = node["decl"] as? [String: Any], let name = decl["base_name"] as? String { return name }
        if let inner = node["fn"] as? [String: Any] { return declName(in: inner) }
        return nil
    }

    func text(_ start: Int, _ length: Int) -> String {
        guard start >= 0, length >= 0, start + length <= source.count else { return "" }
        return String(decoding: source[start..<(start + length)], as: UTF8.self)
    }

    /// The end of the token that starts at `offset`: an identifier (`$0`
    /// too), a number (`0.5`, `1e-3`, `0x1p4`), a string literal (raw,
    /// multi-line, with interpolations), or one punctuation character.
    func tokenEnd(at offset: Int) -> Int {
        guard source.indices.contains(offset) else { return offset }
        let byte = source[offset]
        if Self.isIdentifier(byte) {
            var end = offset
            while end < source.count, Self.isIdentifier(source[end]) { end += 1 }
            // A number goes on through its fraction and its exponent's sign (not after a `.`: `t.0.1` is two tuple indexes).
            let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
            guard digit.contains(byte), offset == 0 || source[offset - 1] != UInt8(ascii: ".") else { return end }
            while end + 1 < source.count {
                let next = source[end], after = source[end + 1]
                let exponent = (source.has(Array("0x".utf8), at: offset) ? "pP" : "eE").utf8.contains(source[end - 1])
                guard digit.contains(after), next == UInt8(ascii: ".") || (exponent && (next == UInt8(ascii: "+") || next == UInt8(ascii: "-"))) else { break }
                end += 1
                while end < source.count, Self.isIdentifier(source[end]) { end += 1 }
            }
            return end
        }
        var quote = offset
        while quote < source.count, source[quote] == UInt8(ascii: "#") { quote += 1 }
        guard quote < source.count, source[quote] == UInt8(ascii: "\"") else { return offset + 1 }
        return stringEnd(opening: quote, hashes: quote - offset)
    }

    static func isIdentifier(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    /// The end of the string literal whose opening quote is at `opening`,
    /// after `hashes` `#`s: its closing quote (`\"\"\"` for a multi-line
    /// one) followed by as many `#`s, past any interpolation (`\(...)`,
    /// `\#(...)`) and the strings inside it. The file's end when it has none.
    private func stringEnd(opening: Int, hashes: Int) -> Int {
        let multiline = source.has(Array("\"\"\"".utf8), at: opening)
        let closing = Array((multiline ? "\"\"\"" : "\"").utf8) + Array(repeating: UInt8(ascii: "#"), count: hashes)
        let escape = [UInt8(ascii: "\\")] + Array(repeating: UInt8(ascii: "#"), count: hashes)
        var index = opening + (multiline ? 3 : 1)
        while index < source.count {
            if source.has(closing, at: index) { return index + closing.count }
            if !multiline, source[index] == UInt8(ascii: "\n") { return index }
            if source.has(escape, at: index) {
                index += escape.count
                guard index < source.count, source[index] == UInt8(ascii: "(") else {
                    index += 1
                    continue
                }
                // An interpolation: to its closing parenthesis, strings inside it skipped whole.
                var depth = 0
                while index < source.count {
                    let byte = source[index]
                    if byte == UInt8(ascii: "(") { depth += 1 }
                    if byte == UInt8(ascii: ")") { depth -= 1 }
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#") {
                        index = tokenEnd(at: index)
                        continue
                    }
                    index += 1
                    if depth == 0 { break }
                }
                continue
            }
            index += 1
        }
        return source.count
    }

    /// 1-based line and column (in bytes) of `offset`.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - lineStarts[low] + 1)
    }
}
