/// "Did you mean" for a mistyped word: options, sub-commands, mutant names,
/// and the similarity `mutate rebase` reports for its nearest candidates.
enum Suggestion {
    /// ", did you mean 'X'?" when a known word is close enough, else "".
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= max(2, word.count / 3) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return "" }
        return "; did you mean '\(best.0)'?"
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i]
            for j in 1...b.count {
                current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// How alike two texts are: 1 - edit distance / the longer length (1
    /// for two empty texts), on characters.
    static func likeness(_ a: String, _ b: String) -> Double {
        let longer = max(a.count, b.count)
        guard longer > 0 else { return 1 }
        return 1 - Double(editDistance(a, b)) / Double(longer)
    }
}
