/// A line-by-line unified diff of two short texts (a patch and its rebased
/// form), by longest common subsequence.
enum LineDiff {
    /// `-`, `+` and ` ` lines with up to `context` unchanged lines around
    /// each change, `@@` between distant changes; empty when equal.
    static func unified(_ old: [String], _ new: [String], context: Int = 3) -> [String] {
        // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var script: [(kind: Character, text: String)] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                script.append((" ", old[i])); i += 1; j += 1
            } else if i < old.count, j == new.count || lengths[i + 1][j] >= lengths[i][j + 1] {
                script.append(("-", old[i])); i += 1
            } else {
                script.append(("+", new[j])); j += 1
            }
        }
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
}
