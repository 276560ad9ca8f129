import Foundation

/// One generated mutant as `mutate explore --list --json` prints it: one
/// JSON object per line, its keys sorted, so a script can rebuild the
/// mutated file (`original` is the text at bytes `start..<end` of `file`,
/// `replacement` what the mutant puts there, and the bytes of `group`,
/// when given, go inside parentheses).
struct ListedMutant: Codable, Equatable {
    var id: String
    var file: String
    var start: Int
    var end: Int
    var line: Int
    var column: Int
    var `operator`: String
    var original: String
    var replacement: String
    /// The reason `mutants/explore-ignore` gives, when it ignores the mutant.
    var ignored: String?
    /// When set, the bytes of the mutated expression, which the mutant puts
    /// in parentheses around the replacement (`(a || b) && c`), so its
    /// operands keep their grouping.
    var group: MutationPoint.ByteRange?

    init(_ point: MutationPoint, ignored: String?) {
        id = point.id
        file = point.file
        start = point.start
        end = point.end
        line = point.line
        column = point.column
        self.operator = point.mutationOperator.rawValue
        original = point.original
        replacement = point.replacement
        self.ignored = ignored
        group = point.group
    }

    /// The object on one line.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
