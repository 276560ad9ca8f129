/// Line-by-line diffs by longest common subsequence: a unified diff of two
/// short texts (a patch and its rebased form), and which lines of one file
/// are still there, unchanged, in another (a mutant's preimage and today's
/// file).
enum LineDiff {
    /// `-`, `+` and ` ` lines with up to `context` unchanged lines around
    /// each change, `@@` between distant changes; empty when equal.
    static func unified(_ old: [String], _ new: [String], context: Int = 3) -> [String] {
        let script = script(old, new)
        let changed = script.indices.filter { script[$0].kind != " " }
        guard !changed.isEmpty else { return [] }
        var shown = Set<Int>()
        for index in changed { shown.formUnion(max(0, index - context)...min(script.count - 1, index + context)) }
        var lines: [String] = []
        var previous: Int?
        for index in shown.sorted() {
            if let previous, index != previous + 1 { lines.append("@@") }
            lines.append(String(script[index].kind) + script[index].text)
            previous = index
        }
        return lines
    }

    /// For each line of `old`, its index in `new` when it is kept there
    /// unchanged (one of the longest common subsequence), nil when it was
    /// removed or changed.
    static func matches(_ old: [String], _ new: [String]) -> [Int?] {
        var result: [Int?] = Array(repeating: nil, count: old.count)
        var i = 0, j = 0
        for step in script(old, new) {
            switch step.kind {
            case " ": result[i] = j; i += 1; j += 1
            case "-": i += 1
            default: j += 1
            }
        }
        return result
    }

    /// The edit script from `old` to `new`: ` ` kept, `-` removed, `+`
    /// added, in order. The common first and last lines are matched
    /// directly, so the table is only as large as the changed middle.
    private static func script(_ old: [String], _ new: [String]) -> [(kind: Character, text: String)] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)]), newMiddle = Array(new[prefix..<(new.count - suffix)])
        // lengths[i][j]: the longest common subsequence of oldMiddle[i...] and newMiddle[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: newMiddle.count + 1), count: oldMiddle.count + 1)
        for i in stride(from: oldMiddle.count - 1, through: 0, by: -1) {
            for j in stride(from: newMiddle.count - 1, through: 0, by: -1) {
                lengths[i][j] = oldMiddle[i] == newMiddle[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var script: [(kind: Character, text: String)] = old[..<prefix].map { (" ", $0) }
        var i = 0, j = 0
        while i < oldMiddle.count || j < newMiddle.count {
            if i < oldMiddle.count, j < newMiddle.count, oldMiddle[i] == newMiddle[j] {
                script.append((" ", oldMiddle[i])); i += 1; j += 1
            } else if i < oldMiddle.count, j == newMiddle.count || lengths[i + 1][j] >= lengths[i][j + 1] {
                script.append(("-", oldMiddle[i])); i += 1
            } else {
                script.append(("+", newMiddle[j])); j += 1
            }
        }
        return script + old[(old.count - suffix)...].map { (" ", $0) }
    }
}
