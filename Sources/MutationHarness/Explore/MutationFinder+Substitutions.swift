/// The operators that put one value of the right type where another was:
/// a ternary that takes one side whatever its condition (`c ? a : b` ->
/// `c ? b : b`), and a call replaced by its receiver when the result has the
/// receiver's type (`names.filter { ... }` -> `names`).
extension MutationFinder {
    /// `c ? a : b` -> `c ? a : a` and `c ? b : b`: the condition is still
    /// evaluated, its answer ignored. A side is copied only when its own
    /// type is the ternary's (not converted to it) and it does not take its
    /// type from the context (`nil`, `.member`, a closure, an array or
    /// dictionary literal, a literal of another type than its default): the
    /// copy then means what it meant. No closure argument loses its last
    /// use. The schema's switch sits on the condition.
    func ternarySides(_ node: [String: Any], context: Context, into found: inout [MutationPoint]) {
        guard let type = node["type"] as? String, let condition = node["cond_expr"] as? [String: Any], let conditionRange = Self.range(condition),
              let then = node["then_expr"] as? [String: Any], let otherwise = node["else_expr"] as? [String: Any],
              let thenRange = Self.range(then), let elseRange = Self.range(otherwise)
        else { return }
        let site = MutationPoint.ByteRange(start: conditionRange.start, end: tokenEnd(at: conditionRange.end))
        let thenBytes = MutationPoint.ByteRange(start: thenRange.start, end: tokenEnd(at: thenRange.end))
        let elseBytes = MutationPoint.ByteRange(start: elseRange.start, end: tokenEnd(at: elseRange.end))
        guard site.end <= thenBytes.start, thenBytes.end <= elseBytes.start else { return }
        let thenText = text(thenBytes.start, thenBytes.end - thenBytes.start)
        let elseText = text(elseBytes.start, elseBytes.end - elseBytes.start)
        // A choice between two texts is wording (a message), which no operator touches.
        guard thenText != elseText, !(Self.isText(then) && Self.isText(otherwise)) else { return }
        if copiesAsItIs(otherwise, as: type), !leavesAnArgumentUnused(removing: then, keeping: otherwise, context: context) {
            add(.ternarySide, thenBytes.start, thenBytes.end, elseText, switchSite: site, forcedAnswer: false, into: &found)
        }
        if copiesAsItIs(then, as: type), !leavesAnArgumentUnused(removing: otherwise, keeping: then, context: context) {
            add(.ternarySide, elseBytes.start, elseBytes.end, thenText, switchSite: site, forcedAnswer: true, into: &found)
        }
    }

    /// `node` through the loads and conversions the compiler wraps around
    /// an expression (implicit nodes with a `sub_expr`): what the source
    /// wrote.
    static func asWritten(_ node: [String: Any]) -> [String: Any] {
        var inner = node
        while inner["implicit"] as? Bool == true, let sub = inner["sub_expr"] as? [String: Any] { inner = sub }
        return inner
    }

    /// A string literal, or parentheses or a tuple of them.
    static func isText(_ node: [String: Any]) -> Bool {
        switch node["_kind"] as? String {
        case "string_literal_expr", "interpolated_string_literal_expr":
            return true
        case "paren_expr":
            return (node["sub_expr"] as? [String: Any]).map(isText) ?? false
        case "tuple_expr":
            let elements = node["elements"] as? [[String: Any]] ?? []
            return !elements.isEmpty && elements.allSatisfy(isText)
        default:
            return false
        }
    }

    /// Whether `node`'s text, put in the other side's place, is a value of
    /// `type` by itself: its own type is `type` (not converted to it), it is
    /// no closure, and nothing in it outside a closure takes its type from
    /// the context (`1 / 4` is a `Double` beside one and an `Int` alone).
    private func copiesAsItIs(_ node: [String: Any], as type: String) -> Bool {
        let inner = Self.asWritten(node)
        return inner["type"] as? String == type && inner["_kind"] as? String != "closure_expr" && !holdsAContextTypedValue(inner)
    }

    /// A literal whose type the context decides in `value`, closures' bodies
    /// aside: `nil`, an array or dictionary, `.member`, and a number or
    /// string of another type than its default (`1 / 4` made a `Double` by
    /// the other side would be an `Int` alone).
    func holdsAContextTypedValue(_ value: Any) -> Bool {
        if let array = value as? [Any] { return array.contains(where: holdsAContextTypedValue) }
        guard let node = value as? [String: Any] else { return false }
        switch node["_kind"] as? String ?? "" {
        case "closure_expr":
            return false
        case "nil_literal_expr", "array_expr", "dictionary_expr":
            return true
        case let kind where Self.defaultLiteralTypes[kind] != nil:
            // Of its default type, a literal stays of it wherever it is copied; of another, the other side made it so.
            return node["type"] as? String != Self.defaultLiteralTypes[kind]
        default:
            // `.member`: a member of a type the source does not name (it starts with the dot).
            if let range = Self.range(node), source.indices.contains(range.start), source[range.start] == UInt8(ascii: ".") { return true }
        }
        return node.values.contains(where: holdsAContextTypedValue)
    }

    /// What a literal is when nothing says otherwise: `Int`, `Double`, `String`.
    static let defaultLiteralTypes: [String: String] = [
        "integer_literal_expr": "$sSiD", "float_literal_expr": "$sSdD", "string_literal_expr": "$sSSD", "interpolated_string_literal_expr": "$sSSD",
    ]

    /// `receiver.method(...)` -> `receiver` when the call returns a value of
    /// the receiver's own type and uses it (not a statement of its own): a
    /// transformation forgotten (`sorted()`, `filter`, `map`, `lowercased()`,
    /// `appendingPathComponent`); not `self.init(...)`, not on `super`. Only a receiver
    /// that is a plain path of names and calls without arguments (`names`,
    /// `self.items`, `tests.sorted()`, `$0`): the schema evaluates its text
    /// as it stands, so it must hold no other mutation and nothing that may
    /// not be evaluated twice.
    func identityCall(_ node: [String: Any], context: Context, into found: inout [MutationPoint]) {
        guard let type = node["type"] as? String, let range = Self.range(node), let function = node["fn"] as? [String: Any],
              function["_kind"] as? String == "dot_syntax_call_expr",
              let argument = ((function["args"] as? [String: Any])?["args"] as? [[String: Any]])?.first?["expr"] as? [String: Any],
              Self.declName(in: function) != "init"
        else { return }
        let receiver = Self.asWritten(argument)
        let end = tokenEnd(at: range.end)
        guard receiver["implicit"] as? Bool != true, receiver["type"] as? String == type, let receiverRange = Self.range(receiver),
              !context.statementCalls.contains(MutationPoint.ByteRange(start: range.start, end: end)),
              !leavesAnArgumentUnused(removing: node, keeping: receiver, context: context)
        else { return }
        let receiverText = text(receiverRange.start, tokenEnd(at: receiverRange.end) - receiverRange.start)
        guard Self.isPlainPath(receiverText), receiverText.split(separator: ".").first != "super" else { return }
        add(.identity, range.start, end, receiverText, into: &found)
    }

    /// Names joined by `.`, each maybe called without arguments: `a`,
    /// `self.a.b`, `Self.shared`, `a.sorted()`, `$0`.
    static func isPlainPath(_ text: String) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            let name = part.hasSuffix("()") ? part.dropLast(2) : part[...]
            guard let first = name.first, first.isLetter || first == "_" || first == "$" else { return false }
            return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
        }
    }
}
