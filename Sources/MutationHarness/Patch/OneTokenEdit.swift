/// The generated-mutant anchor of `mutate rebase`: a patch line that
/// changes one operator or one literal (the edit `mutate explore` makes:
/// `<=` for `<`, `400` for `500`, `false` for `true`), carried to a line
/// that was rewritten around it, when exactly one place of today's file
/// holds the same token among the same neighbours on a line still much
/// like the old one.
///
/// A token is a Swift word, number, string literal, run of operator
/// characters or punctuation mark; a line comment ends the line's tokens.
struct OneTokenEdit: Equatable {
    /// The removed line's tokens.
    var tokens: [String]
    /// Which of them changes.
    var index: Int
    /// What it becomes.
    var replacement: String

    /// How many of the tokens on either side of the changed one are
    /// compared (three before, three after).
    static let reach = 3
    /// How many of those must be the same at the new place, counting only
    /// names and literals (a `.` or a bracket tells no place apart).
    static let neighboursNeeded = 2
    /// How alike (1 - edit distance / length, indentation aside) the new
    /// place's line must be to the old one.
    static let likenessNeeded = 0.75

    /// The edit `removed` -> `added` makes, when it is one operator or
    /// literal replaced by another; nil for anything else.
    init?(removed: String, added: String) {
        let old = Self.tokens(of: removed).map(\.text)
        let new = Self.tokens(of: added).map(\.text)
        guard old.count == new.count else { return nil }
        let differing = old.indices.filter { old[$0] != new[$0] }
        guard differing.count == 1, let index = differing.first,
              Self.isMutable(old[index]), Self.isMutable(new[index])
        else { return nil }
        tokens = old
        self.index = index
        replacement = new[index]
    }

    var original: String { tokens[index] }

    /// One place the edit could go: a line of today's file and the token in it.
    struct Place: Equatable {
        var line: Int
        var token: Int
        /// How alike that line is to the old one (0...1).
        var likeness: Double
    }

    /// The places in `lines` that hold the original token with at least
    /// `neighboursNeeded` of its neighbours the same, on a line at least
    /// `likenessNeeded` alike; best first.
    func places(in lines: [String]) -> [Place] {
        let oldLine = tokens.joined(separator: " ")
        var found: [Place] = []
        for (number, line) in lines.enumerated() {
            let here = Self.tokens(of: line).map(\.text)
            let positions = here.indices.filter { here[$0] == original && neighbours(matching: here, at: $0) >= Self.neighboursNeeded }
            guard !positions.isEmpty else { continue }
            // How alike is a property of the line, the same for each place on it.
            let likeness = Suggestion.likeness(oldLine, here.joined(separator: " "))
            if likeness >= Self.likenessNeeded { found += positions.map { Place(line: number, token: $0, likeness: likeness) } }
        }
        return found.sorted { ($0.likeness, $1.line) > ($1.likeness, $0.line) }
    }

    /// `line` with its `token`-th token replaced, spacing kept.
    func applied(to line: String, at token: Int) -> String {
        let range = Self.tokens(of: line)[token].range
        return line.replacingCharacters(in: range, with: replacement)
    }

    private func neighbours(matching here: [String], at position: Int) -> Int {
        func same(_ old: Int, _ new: Int) -> Bool {
            tokens.indices.contains(old) && here.indices.contains(new) && tokens[old] == here[new]
                && tokens[old].tellsAPlace
        }
        return (1...Self.reach).filter { same(index - $0, position - $0) }.count
            + (1...Self.reach).filter { same(index + $0, position + $0) }.count
    }

    /// An operator, a number, or `true`/`false`/`nil`: what explore's operators change.
    private static func isMutable(_ token: String) -> Bool {
        ["true", "false", "nil"].contains(token) || token.first?.isNumber == true
            || token.allSatisfy { operatorCharacters.contains($0) } && !["", ".", "?", "!"].contains(token)
    }

    private static let operatorCharacters = Set("+-*/%<>=!&|^~?.")
    private static let punctuation = Set("(){}[],:;@#\\`")

    /// The tokens of one line, each with where it is.
    static func tokens(of line: String) -> [(text: String, range: Range<String.Index>)] {
        var found: [(String, Range<String.Index>)] = []
        var cursor = line.startIndex
        func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" || character == "$" }
        while cursor < line.endIndex {
            let character = line[cursor]
            var end = line.index(after: cursor)
            if character == " " || character == "\t" {
                cursor = end
                continue
            }
            if character == "/", end < line.endIndex, line[end] == "/" { break }
            if character == "\"" {
                // A string literal, escapes and interpolations kept inside it.
                var escaped = false
                while end < line.endIndex, escaped || line[end] != "\"" {
                    escaped = !escaped && line[end] == "\\"
                    end = line.index(after: end)
                }
                if end < line.endIndex { end = line.index(after: end) }
            } else if isWord(character) {
                while end < line.endIndex, isWord(line[end]) || (character.isNumber && line[end] == "." && line.index(after: end) < line.endIndex
                    && line[line.index(after: end)].isNumber)
                {
                    end = line.index(after: end)
                }
            } else if operatorCharacters.contains(character), character != "." || (end < line.endIndex && "<.".contains(line[end])) {
                // A run of operator characters; a lone `.` is member access, `...` and `..<` are operators.
                while end < line.endIndex, operatorCharacters.contains(line[end]), line[end] != "." || character == "." {
                    end = line.index(after: end)
                }
            } else if !punctuation.contains(character), !operatorCharacters.contains(character) {
                while end < line.endIndex, !isWord(line[end]), line[end] != " " { end = line.index(after: end) }
            }
            found.append((String(line[cursor..<end]), cursor..<end))
            cursor = end
        }
        return found
    }
}
