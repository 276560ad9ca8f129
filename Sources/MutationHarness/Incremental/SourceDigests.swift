/// What one file of the coverage map gives the `--incremental` keys: each
/// of its functions by its own text, and the rest of the file (what no
/// function's body holds: declarations, signatures, stored properties,
/// the lines a body opens and closes on) as one piece. Comments and blank
/// lines are in neither (`SwiftSourceLines`), and a piece is its text, not
/// its place: lines added above a function leave its digest alone.
///
/// So an edit inside one function changes the keys of the mutants whose
/// tests run that function, and no other; an edit anywhere else in the
/// file (a signature, a type, a constant) changes the keys of every mutant
/// whose tests run any of the file.
struct SourceDigests {
    /// Digest of the lines outside every function's body.
    let outside: String
    /// Digest of each function's lines, first to last, by index into the map's functions.
    let functions: [Int: String]
    /// Each function's lines, by index into the map's functions.
    private let spans: [Int: ClosedRange<Int>]

    /// `functions`: the map's functions of this file, by index. Without the
    /// file's text (or when it cannot be lexed) every piece is the whole
    /// file's digest `fallback`: any edit to it changes them all.
    init(source: [UInt8]?, fallback: String, functions: [Int: CoverageMap.Function]) {
        self.init(lines: source.flatMap(SwiftSourceLines.lines), fallback: fallback, functions: functions)
    }

    /// The same from the file's lines already read (nil: it could not be).
    init(lines: [SwiftSourceLines.Line]?, fallback: String, functions: [Int: CoverageMap.Function]) {
        spans = functions.mapValues { $0.firstLine...max($0.firstLine, $0.lastLine) }
        guard let lines else {
            outside = fallback
            self.functions = functions.mapValues { _ in fallback }
            return
        }
        func digest(_ numbers: some Sequence<Int>) -> String {
            SwiftSourceLines.textDigest(numbers.filter { $0 >= 1 && $0 <= lines.count }.map { lines[$0 - 1] })
        }
        var inBody = Set<Int>()
        for span in spans.values where span.count > 2 {
            inBody.formUnion((span.lowerBound + 1)...(span.upperBound - 1))
        }
        outside = digest((1...max(1, lines.count)).filter { !inBody.contains($0) })
        self.functions = spans.mapValues { digest($0) }
    }

    /// The innermost function whose body (the lines strictly between its
    /// first and last) holds every one of `lines`, if any.
    func function(holding lines: [Int]) -> (index: Int, firstLine: Int)? {
        guard let low = lines.min(), let high = lines.max() else { return nil }
        let holding = spans.filter { $0.value.lowerBound < low && high < $0.value.upperBound }
        guard let inner = holding.min(by: { ($0.value.count, $0.key) < ($1.value.count, $1.key) }) else { return nil }
        return (inner.key, inner.value.lowerBound)
    }
}
