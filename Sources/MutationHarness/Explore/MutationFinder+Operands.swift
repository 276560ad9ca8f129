/// The operators that leave an operand out: `a ?? b` -> `b`, `a && b` ->
/// `a` or `b`, `a * b` and `a / b` -> `a`.
extension MutationFinder {
    /// The operand expressions of a binary expression, left then right.
    static func operands(_ node: [String: Any]) -> [[String: Any]] {
        ((node["args"] as? [String: Any])?["args"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? [String: Any] }
    }

    /// `a ?? b` -> `b`; the schema makes `a` nil.
    func nilFallback(_ node: [String: Any], context: Context, into found: inout [MutationPoint]) {
        guard let (whole, left, right) = operandRanges(node), !leavesAnArgumentUnused(removing: node, keeping: Self.operands(node).last, context: context)
        else { return }
        add(.nilFallback, whole.start, whole.end, text(right.start, right.end - right.start), switchSite: left, into: &found)
    }

    /// `a && b` -> `a` and -> `b`; `a * b`, `a / b` -> `a`, without the
    /// parentheses around it when `a` is a name (`(seconds * 1000)` ->
    /// `seconds`). The schema's switch is a case of the operator's function.
    func droppedOperands(_ node: [String: Any], operator name: String, token: MutationPoint.ByteRange, context: Context,
                         into found: inout [MutationPoint])
    {
        guard ["&&", "*", "/"].contains(name), let (whole, left, right) = operandRanges(node) else { return }
        let leftText = text(left.start, left.end - left.start)
        let operands = Self.operands(node)
        let keepsLeft = !leavesAnArgumentUnused(removing: node, keeping: operands.first, context: context)
        var replacements: [(MutationPoint.ByteRange, String)] = keepsLeft ? [(whole, leftText)] : []
        if name == "&&" {
            if !leavesAnArgumentUnused(removing: node, keeping: operands.last, context: context) {
                replacements.append((whole, text(right.start, right.end - right.start)))
            }
        } else if keepsLeft, let parentheses = context.parenthesized, parentheses.inner.start == whole.start, tokenEnd(at: parentheses.inner.end) == whole.end,
                  leftText.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }), leftText.first?.isNumber == false
        {
            replacements = [(MutationPoint.ByteRange(start: parentheses.outer.start, end: tokenEnd(at: parentheses.outer.end)), leftText)]
        }
        for (range, replacement) in replacements {
            add(.droppedOperand, range.start, range.end, replacement, switchSite: token, into: &found)
        }
    }

    /// The byte ranges (ends exclusive) of a binary expression and of its
    /// two operands, when they are explicit in the source.
    private func operandRanges(_ node: [String: Any]) -> (MutationPoint.ByteRange, MutationPoint.ByteRange, MutationPoint.ByteRange)? {
        let operands = Self.operands(node)
        guard operands.count == 2, let whole = Self.range(node), let left = Self.range(operands[0]), let right = Self.range(operands[1]) else {
            return nil
        }
        let end = tokenEnd(at: whole.end)
        guard left.start == whole.start, tokenEnd(at: right.end) == end, left.end < right.start else { return nil }
        return (MutationPoint.ByteRange(start: whole.start, end: end), MutationPoint.ByteRange(start: left.start, end: tokenEnd(at: left.end)),
                MutationPoint.ByteRange(start: right.start, end: end))
    }
}
