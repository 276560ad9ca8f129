/// `// mutate: skip` in a source file: at the end of a line it skips that
/// line; alone on a line it skips the declaration that starts on the next
/// line; `// mutate: skip-file` anywhere skips the whole file.
final class SkipMarkers {
    static let marker = "// mutate: skip"

    private(set) var skipsFile = false
    /// Byte ranges of skipped lines.
    private var lines: [(start: Int, end: Int)] = []
    /// Offsets where a skipped declaration may start (the next line after a lone marker).
    private var declarationLines: [(start: Int, end: Int)] = []
    /// Declarations found starting on such a line.
    private var declarations: [(start: Int, end: Int)] = []

    init(source: [UInt8]) {
        let text = String(decoding: source, as: UTF8.self)
        var offset = 0
        var skipNextLine = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let length = line.utf8.count
            let range = (start: offset, end: offset + length)
            if skipNextLine, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                declarationLines.append(range)
                skipNextLine = false
            }
            if let marker = line.range(of: Self.marker) {
                let rest = line[marker.upperBound...]
                if rest.hasPrefix("-file") {
                    skipsFile = true
                } else if line[..<marker.lowerBound].trimmingCharacters(in: .whitespaces).isEmpty {
                    skipNextLine = true
                } else {
                    lines.append(range)
                }
            }
            offset += length + 1
        }
    }

    /// Called for every declaration in the tree: one starting on a line
    /// after a lone marker is skipped whole.
    func noteDeclaration(start: Int, end: Int) {
        if declarationLines.contains(where: { $0.start <= start && start <= $0.end }) { declarations.append((start, end)) }
    }

    func skips(start: Int, end: Int) -> Bool {
        lines.contains { $0.start <= start && start <= $0.end } || declarations.contains { $0.start <= start && start <= $0.end + 1 }
    }
}
