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

    /// One `Key: value` line of the header, continuation lines joined.
    public struct Header: Equatable, Sendable {
        public var key: String
        public var value: String
    }
}
