/// One hand-written mutant: a named patch that brings a real bug back.
public struct Mutant: Equatable, Sendable {
    /// `Mutant:` header; unique within the folder.
    public var name: String
    /// `Description:` header: what a user would have seen.
    public var description: String
    /// `Bug:` header, optional: the incident it comes from.
    public var bug: String?
    /// Every header, including ones the harness does not interpret.
    public var headers: [(key: String, value: String)]
    /// The diff itself.
    public var diff: UnifiedDiff
    /// The diff's text as written in the file.
    public var diffText: String
    /// The `.patch` file it was read from.
    public var filePath: String

    public static func == (lhs: Mutant, rhs: Mutant) -> Bool {
        lhs.name == rhs.name && lhs.description == rhs.description && lhs.bug == rhs.bug
            && lhs.headers.elementsEqual(rhs.headers, by: { $0.key == $1.key && $0.value == $1.value })
            && lhs.diff == rhs.diff && lhs.filePath == rhs.filePath
    }
}
