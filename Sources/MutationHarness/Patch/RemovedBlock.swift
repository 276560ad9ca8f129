/// The block anchor of `mutate rebase`: a patch that removes a whole block
/// (`if ... {` to its `}`) or a branch (`} else if ... {` and its body, the
/// closing brace kept), carried when the block has since gained or
/// reworded lines inside: the block that opens with the same line, found
/// once in the file, is removed whole, as long as every line the patch
/// removed still has a counterpart in it, in order and much alike.
struct RemovedBlock: Equatable {
    /// The removed lines, as the patch has them.
    var lines: [String]
    /// Whether the patch removed the closing brace too (a whole block) or
    /// kept it (a branch, whose `}` closes the branch before it).
    var includesCloser: Bool

    /// How alike (indentation aside) a removed line and its counterpart
    /// in today's block must be: a statement given an argument more
    /// (`screens[id]!.visits += 1` -> `screens[id, default: blank()].visits += 1`)
    /// is still the same statement; one rewritten (`continue` -> `return []`) is not.
    static let likenessNeeded = 0.6

    /// The block `removed` is, when it is one; nil for anything else.
    init?(removed: [String]) {
        guard let opener = removed.first, removed.count >= 2, opener.trimmed.hasSuffix("{") else { return nil }
        let branch = opener.trimmed.hasPrefix("}")
        var depth = 0
        for (index, line) in removed.enumerated() {
            depth += Self.braces(in: line) + (branch && index == 0 ? 1 : 0)
            // Inside the block until its last line: a whole block ends at 0 there, a branch stays at 1.
            if index < removed.count - 1, depth < 1 { return nil }
        }
        switch depth {
        case 0 where !branch: includesCloser = true
        case 1 where branch: includesCloser = false
        default: return nil
        }
        lines = removed
    }

    /// 0-based ranges of today's lines the same block covers: one per line
    /// that reads as the opener (indentation aside) and whose block holds
    /// a counterpart of every removed line.
    func places(in today: [String]) -> [ClosedRange<Int>] {
        let opener = lines[0].trimmed
        return today.indices.filter { today[$0].trimmed == opener }.compactMap { start in
            guard let range = extent(from: start, in: today), holdsCounterparts(Array(today[range])) else { return nil }
            return range
        }
    }

    /// The lines from `start` to the block's `}` (or, for a branch, to the
    /// line before the `}` that closes it).
    private func extent(from start: Int, in today: [String]) -> ClosedRange<Int>? {
        // A branch's opener closes the branch before it first: its leading `}` is not its own.
        var depth = includesCloser ? 0 : 1
        for index in start..<today.count {
            let line = today[index]
            if !includesCloser, depth == 1, index > start, line.trimmed.hasPrefix("}") { return start...(index - 1) }
            depth += Self.braces(in: line)
            if depth == 0 { return includesCloser ? start...index : nil }
        }
        return nil
    }

    /// Whether each removed line after the opener has a line at least
    /// `likenessNeeded` alike in `block`, in the same order.
    private func holdsCounterparts(_ block: [String]) -> Bool {
        var cursor = 1
        for line in lines.dropFirst() {
            guard let found = block[cursor...].firstIndex(where: { Suggestion.likeness(line.trimmed, $0.trimmed) >= Self.likenessNeeded }) else {
                return false
            }
            cursor = found + 1
        }
        return true
    }

    /// `{` minus `}` on a line, strings and comments aside.
    private static func braces(in line: String) -> Int {
        let tokens = OneTokenEdit.tokens(of: line).map(\.text)
        return tokens.filter { $0 == "{" }.count - tokens.filter { $0 == "}" }.count
    }
}
