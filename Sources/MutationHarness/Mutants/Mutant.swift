/// One hand-written mutant: a named patch that brings a real bug back.
public struct Mutant: Equatable, Sendable {
    /// `Mutant:` header; unique within the folder.
    public var name: String
    /// `Description:` header: what a user would have seen.
    public var description: String
    /// `Bug:` header, optional: the incident it comes from.
    public var bug: String?
    /// Every header, including ones the harness does not interpret.
    public var headers: [Header]
    /// The diff itself.
    var diff: UnifiedDiff
    /// The diff's text as written in the file.
    public var diffText: String
    /// The `.patch` file it was read from.
    public var filePath: String

    /// `Killed-By:` headers, optional: the tests that kill this mutant, by
    /// the ids the report gives them (`Target.Suite/test()`), separated by
    /// white space (a continuation line adds one). The gate runs them first,
    /// on their own; when they kill every named mutant it needs no coverage
    /// pass. A mutant they do not kill gets the tests the pass chooses.
    public var killers: [String] {
        headers.filter { $0.key.lowercased() == "killed-by" }.flatMap { $0.value.split(whereSeparator: \.isWhitespace).map(String.init) }
    }

    /// One `Key: value` line of the header, continuation lines joined.
    public struct Header: Equatable, Sendable {
        public var key: String
        public var value: String
    }
}
