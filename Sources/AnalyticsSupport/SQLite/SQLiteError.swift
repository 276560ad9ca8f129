/// A failure reported by SQLite, with its result code and message.
package enum SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    case open(path: String, code: Int32, message: String)
    case prepare(sql: String, code: Int32, message: String)
    case step(code: Int32, message: String)
    case bind(code: Int32, message: String)

    package var description: String {
        switch self {
        case let .open(path, code, message): return "cannot open SQLite database at \(path) (code \(code)): \(message)"
        case let .prepare(sql, code, message): return "cannot prepare '\(sql)' (code \(code)): \(message)"
        case let .step(code, message): return "SQLite statement failed (code \(code)): \(message)"
        case let .bind(code, message): return "cannot bind a parameter (code \(code)): \(message)"
        }
    }
}
