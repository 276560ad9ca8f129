/// A Swift file's lines with the comments taken out, for digests that a
/// comment does not change: `--incremental` keys must not re-run mutants
/// because someone reworded a doc comment.
///
/// The lexer follows string literals (single- and multi-line, raw with any
/// number of `#`, interpolations holding further strings and comments) and
/// `#/.../#` regex literals, so a `//` inside a literal stays. A line that
/// starts inside a multi-line literal is marked: its blank lines are
/// content. A file the lexer cannot follow to its end (a literal or block
/// comment left open) gives nil, and the caller digests its bytes instead.
enum SwiftSourceLines {
    struct Line: Equatable {
        /// The line without its comments (and the blanks before a comment).
        var text: [UInt8]
        /// Whether the line starts inside a multi-line string or regex literal.
        var insideLiteral: Bool

        /// Whether the line says nothing: blank, and not part of a literal.
        var isBlank: Bool { !insideLiteral && text.allSatisfy { $0 == space || $0 == tab || $0 == carriageReturn } }
    }

    /// A digest of `source`'s code: its lines without comments, blank ones
    /// kept, so two files with the same digest compile to the same code at
    /// the same line numbers. Nil when the lexer cannot follow the file.
    static func codeDigest(_ source: [UInt8]) -> String? {
        lines(source).map(codeDigest)
    }

    /// `codeDigest` of lines already read.
    static func codeDigest(_ lines: [Line]) -> String {
        SHA256.hex(lines.flatMap { $0.text + [newline] })
    }

    /// A digest of the text of `lines`, blank ones left out: what neither a
    /// comment nor a blank line changes, wherever the lines are.
    static func textDigest(_ lines: some Sequence<Line>) -> String {
        var text: [UInt8] = []
        for line in lines where !line.isBlank {
            text += line.text
            text.append(newline)
        }
        return SHA256.hex(text)
    }

    /// The lines of `source`, numbered from 1 as `lines[number - 1]`, or nil.
    static func lines(_ source: [UInt8]) -> [Line]? {
        var lexer = Lexer(source)
        return lexer.run()
    }

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r")
    private static let newline = UInt8(ascii: "\n"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
    private static let hash = UInt8(ascii: "#"), quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    private static let open = UInt8(ascii: "("), close = UInt8(ascii: ")")

    private struct Lexer {
        enum Frame {
            /// Code; inside an interpolation when `interpolation`, with `depth` unclosed parentheses.
            case code(interpolation: Bool, depth: Int)
            case string(hashes: Int, multiline: Bool)
        }

        let source: [UInt8]
        var index = 0
        var stack: [Frame] = [.code(interpolation: false, depth: 0)]
        var lines: [Line] = []
        var current: [UInt8] = []
        var currentInsideLiteral = false

        init(_ source: [UInt8]) { self.source = source }

        func at(_ offset: Int) -> UInt8? { index + offset < source.count ? source[index + offset] : nil }

        /// How many `#` start at `index + offset`.
        func hashes(from offset: Int) -> Int {
            var count = 0
            while at(offset + count) == hash { count += 1 }
            return count
        }

        mutating func endLine(insideLiteral next: Bool) {
            lines.append(Line(text: current, insideLiteral: currentInsideLiteral))
            current = []
            currentInsideLiteral = next
        }

        mutating func emit(_ count: Int) {
            for _ in 0..<count {
                guard let byte = at(0) else { return }
                current.append(byte)
                index += 1
            }
        }

        mutating func dropTrailingBlanks() {
            while let last = current.last, last == space || last == tab { current.removeLast() }
        }

        mutating func run() -> [Line]? {
            while index < source.count {
                guard let frame = stack.last else { return nil }
                switch frame {
                case .code(let interpolation, let depth):
                    guard code(interpolation: interpolation, depth: depth) else { return nil }
                case .string(let hashes, let multiline):
                    guard string(hashes: hashes, multiline: multiline) else { return nil }
                }
            }
            guard stack.count == 1 else { return nil }
            lines.append(Line(text: current, insideLiteral: currentInsideLiteral))
            return lines
        }

        /// One step in code. False when the file cannot be followed.
        mutating func code(interpolation: Bool, depth: Int) -> Bool {
            let byte = source[index]
            switch byte {
            case slash where at(1) == slash:
                dropTrailingBlanks()
                while let next = at(0), next != newline { index += 1 }
            case slash where at(1) == star:
                dropTrailingBlanks()
                index += 2
                var nesting = 1
                while nesting > 0 {
                    guard let next = at(0) else { return false }
                    if next == slash, at(1) == star {
                        nesting += 1
                        index += 2
                    } else if next == star, at(1) == slash {
                        nesting -= 1
                        index += 2
                    } else if next == newline {
                        endLine(insideLiteral: false)
                        index += 1
                    } else {
                        index += 1
                    }
                }
            case hash:
                let count = hashes(from: 0)
                if at(count) == quote {
                    let multiline = at(count + 1) == quote && at(count + 2) == quote
                    emit(count + (multiline ? 3 : 1))
                    stack.append(.string(hashes: count, multiline: multiline))
                } else if at(count) == slash {
                    return regex(hashes: count)
                } else {
                    emit(count)
                }
            case quote:
                let multiline = at(1) == quote && at(2) == quote
                emit(multiline ? 3 : 1)
                stack.append(.string(hashes: 0, multiline: multiline))
            case open where interpolation:
                stack[stack.count - 1] = .code(interpolation: true, depth: depth + 1)
                emit(1)
            case close where interpolation:
                if depth == 0 { stack.removeLast() } else { stack[stack.count - 1] = .code(interpolation: true, depth: depth - 1) }
                emit(1)
            case newline:
                // A line break inside an interpolation is inside its literal.
                endLine(insideLiteral: interpolation)
                index += 1
            default:
                emit(1)
            }
            return true
        }

        /// One step in a string literal. False when the file cannot be followed.
        mutating func string(hashes count: Int, multiline: Bool) -> Bool {
            let byte = source[index]
            if byte == backslash, hashes(from: 1) >= count {
                if at(1 + count) == open {
                    emit(2 + count)
                    stack.append(.code(interpolation: true, depth: 0))
                } else {
                    // A backslash ending a line of a multi-line literal joins the lines: the break is the next step's.
                    emit(at(1 + count) == newline ? 1 + count : 2 + count)
                }
                return true
            }
            if byte == quote {
                // The closing quotes, then at least as many hashes as opened it.
                let quotes = multiline ? 3 : 1
                if (0..<quotes).allSatisfy({ at($0) == quote }), hashes(from: quotes) >= count {
                    emit(quotes + count)
                    stack.removeLast()
                } else {
                    emit(1)
                }
                return true
            }
            if byte == newline {
                guard multiline else { return false }
                endLine(insideLiteral: true)
                index += 1
                return true
            }
            emit(1)
            return true
        }

        /// A `#/.../#` literal, kept as written up to its closing `/` and `#`s.
        mutating func regex(hashes count: Int) -> Bool {
            emit(count + 1)
            while let byte = at(0) {
                if byte == slash, hashes(from: 1) >= count {
                    emit(1 + count)
                    return true
                }
                if byte == backslash {
                    emit(at(1) == newline ? 1 : 2)
                    continue
                }
                if byte == newline {
                    endLine(insideLiteral: true)
                    index += 1
                    continue
                }
                emit(1)
            }
            return false
        }
    }
}
