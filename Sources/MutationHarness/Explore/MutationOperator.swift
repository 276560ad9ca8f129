/// The operators `mutate explore` applies, after Muter and cargo-mutants.
enum MutationOperator: String, Codable, Sendable, CaseIterable {
    /// `<` `<=` `>` `>=`: the boundary moves (`<` -> `<=`).
    case relationalBoundary = "relational-boundary"
    /// `==` <-> `!=`, `<` <-> `>=`, `>` <-> `<=`.
    case relationalNegation = "relational-negation"
    /// `&&` <-> `||`.
    case logical
    /// `true` <-> `false`.
    case booleanLiteral = "boolean-literal"
    /// `+` <-> `-`, `*` <-> `/`.
    case arithmetic
    /// An integer literal changes (0 -> 1, n -> n + 1).
    case integerLiteral = "integer-literal"
    /// A statement that calls a function and uses no result (it returns
    /// nothing, or its result is discardable) is removed, with its `try` or
    /// `await`.
    case removeVoidCall = "remove-void-call"
    /// A Bool-returning function returns a constant at once.
    case returnConstant = "return-constant"
    /// A guard or if condition becomes `true`.
    case removeCondition = "remove-condition"
    /// An assignment or compound assignment to a property, a global or an
    /// element of a collection is removed (`count = 0`, `total += n`,
    /// `cache[key] = nil`): a state update left out. Not of a local
    /// variable itself, and not in initializers, where every property must
    /// be set.
    case droppedUpdate = "dropped-update"
    /// An `if` without `else` is removed, or one `else if` branch of a chain:
    /// a case left unhandled.
    case removeBranch = "remove-branch"
    /// `a ?? b` becomes `b`: the value found is ignored and the fallback taken.
    case nilFallback = "nil-fallback"
    /// One operand of `&&` is left out (`a && b` -> `a`, -> `b`: a check
    /// forgotten), and `a * b`, `a / b` become `a` (a scale or a unit
    /// conversion forgotten).
    case droppedOperand = "dropped-operand"
    /// `c ? a : b` becomes `c ? b : b` or `c ? a : a`: the condition is
    /// evaluated and its answer ignored.
    case ternarySide = "ternary-side"
    /// `receiver.method(...)` becomes `receiver` when the call returns a
    /// value of the receiver's type (`names.sorted()` -> `names`): a
    /// transformation forgotten.
    case identity
}

/// One place in a file and what the mutation puts there.
struct MutationPoint: Equatable, Sendable, Codable {
    /// Path relative to the package root.
    var file: String
    /// Byte range replaced in the file.
    var start: Int
    var end: Int
    var line: Int
    var column: Int
    var mutationOperator: MutationOperator
    var original: String
    var replacement: String
    /// For `return-constant` on a body that is one expression (an implicit
    /// return): where that expression starts. The schema's switch makes it a
    /// statement, so the schema spells its `return` out there.
    var implicitReturn: Int? = nil
    /// For `ternary-side`: the answer the schema's switch forces on the
    /// condition (true when the then side was copied over the else side).
    var forcedAnswer: Bool? = nil
    /// Where the mutation sits in words that edits elsewhere in the file
    /// leave alone: the text of its lines, its offset in that text and its
    /// rank among identical places (set by `MutationFinder`). Without it the
    /// id falls back to the byte range.
    var anchor: String? = nil
    /// For `logical`, where the new operator would take its operands
    /// differently than the old one did (`a && b && c`: the first `&&` made
    /// `||` reads `a || (b && c)`; `a || b || c`: the second `||` made `&&`
    /// reads `a || (b && c)`): the bytes the mutant puts in parentheses, the
    /// mutated expression (`(a || b) && c`) or its left operand
    /// (`(a || b) && c`), so it keeps the tree's grouping as the schema's
    /// switch does.
    var group: ByteRange? = nil
    /// Where the schema's switch goes when it is not at the replaced bytes:
    /// for `dropped-operand`, the operator token (its function gets the
    /// case); for `nil-fallback`, the left operand (made `nil`); for the
    /// `remove-branch` of an `else if`, where its first condition starts
    /// (an empty range: the branch gets a condition that fails); for
    /// `ternary-side`, the ternary's condition.
    var switchSite: ByteRange? = nil

    /// A range of bytes of a file.
    struct ByteRange: Hashable, Sendable, Codable {
        var start: Int
        var end: Int
    }

    /// A short id that stays the same while the mutated lines and the
    /// mutation do, however the rest of the file changes (an ignore line or
    /// an `--id` keeps naming the same mutant); a line the file holds more
    /// than once is also told by its neighbours (`MutationFinder.anchored`).
    var id: String {
        let place = anchor ?? "\(start)|\(end)"
        let text = "\(file)|\(place)|\(mutationOperator.rawValue)|\(replacement)"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(String(hash, radix: 16).suffix(8)).leftPadded(to: 8)
    }

    /// `Sources/A.swift:12 relational-boundary`: how an ignore line names
    /// every mutant of one operator on one line.
    var place: String { "\(file):\(line) \(mutationOperator.rawValue)" }

    /// `Sources/A.swift:12:9 relational-boundary  a < b -> a <= b`
    var summary: String {
        "\(file):\(line):\(column) \(mutationOperator.rawValue)  \(original.oneLine) -> \(replacement.oneLine)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }

    var oneLine: String {
        let flat = split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return flat.count > 60 ? String(flat.prefix(57)) + "..." : flat
    }
}
