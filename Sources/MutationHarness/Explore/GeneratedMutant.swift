/// A generated mutation as a named mutant: the same patch format as a file
/// in `mutants/`, so the lab, `check` and the gate treat it like any other.
enum GeneratedMutant {
    /// The mutant for `point` in a file whose text is `source`.
    static func mutant(for point: MutationPoint, source: [UInt8]) -> Mutant? {
        let diffText = diff(for: point, source: source)
        let description = "\(point.mutationOperator.rawValue) at \(point.file):\(point.line):\(point.column): "
            + "`\(point.original.oneLine)` -> `\(point.replacement.oneLine)`"
        let text = "Mutant: \(point.id)\nDescription: \(description)\nGenerated-By: mutate explore\n\n" + diffText
        return try? MutantFileParser.parse(text, file: "explore:\(point.id)")
    }

    /// A unified diff (three lines of context) that makes the mutation.
    static func diff(for point: MutationPoint, source: [UInt8]) -> String {
        let mutated = mutatedSource(for: point, source: source)
        let old = lines(source)
        let new = lines(mutated)
        // The changed lines: first and last that differ.
        var first = 0
        while first < min(old.count, new.count), old[first] == new[first] { first += 1 }
        var oldLast = old.count - 1
        var newLast = new.count - 1
        while oldLast >= first, newLast >= first, old[oldLast] == new[newLast] {
            oldLast -= 1
            newLast -= 1
        }
        let start = max(0, first - 3)
        let oldEnd = min(old.count - 1, oldLast + 3)
        let newEnd = newLast + (oldEnd - oldLast)
        var hunk: [String] = []
        for index in start..<first { hunk.append(" " + old[index]) }
        if first <= oldLast { for index in first...oldLast { hunk.append("-" + old[index]) } }
        if first <= newLast { for index in first...newLast { hunk.append("+" + new[index]) } }
        if oldLast + 1 <= oldEnd { for index in (oldLast + 1)...oldEnd { hunk.append(" " + old[index]) } }
        let oldCount = oldEnd - start + 1
        let newCount = newEnd - start + 1
        return """
            diff --git a/\(point.file) b/\(point.file)
            --- a/\(point.file)
            +++ b/\(point.file)
            @@ -\(start + 1),\(oldCount) +\(start + 1),\(newCount) @@

            """ + hunk.joined(separator: "\n") + "\n"
    }

    /// The file's bytes with the mutation made: the replacement in place
    /// of the original and, when the point has a `group`, those bytes in
    /// parentheses (the mutated expression, or its left operand).
    static func mutatedSource(for point: MutationPoint, source: [UInt8]) -> [UInt8] {
        let token = (start: point.start, end: point.end, text: point.replacement)
        // From the end, so each edit's offsets still hold; at one offset the replacement goes first, so a
        // parenthesis inserted there afterwards lands before its text (a group that ends, or starts, where the token starts).
        var edits = [token]
        if let group = point.group, group.start <= point.start, group.end <= source.count {
            let open = (start: group.start, end: group.start, text: "("), close = (start: group.end, end: group.end, text: ")")
            if group.end <= point.start {
                edits = [token, close, open] // the group before the token (its left operand)
            } else if point.end <= group.end {
                edits = [close, token, open] // the group around the token
            }
        }
        var mutated = source
        for edit in edits { mutated.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.utf8)) }
        return mutated
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
