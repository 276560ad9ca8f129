import CSQLite

/// A value bound to a statement parameter or read from a result column.
package enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var blob: [UInt8]? {
        switch self {
        case .blob(let bytes): return bytes
        case .text(let text): return Array(text.utf8)
        default: return nil
        }
    }
}

/// One connection to an SQLite database file (or `:memory:`).
///
/// Not thread-safe: its owner confines it to one queue.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// Prepared statements by SQL text, reused across calls.
    private var statements: [String: OpaquePointer] = [:]

    /// How long a statement retries against another connection's lock, unless
    /// the caller says otherwise.
    package static let defaultBusyTimeout: Duration = .seconds(2)

    /// Opens (creating if needed) the database and proves it is readable, so a
    /// corrupt file fails here rather than on the first insert. A statement
    /// that finds another connection's lock retries for up to `busyTimeout`.
    package init(path: String, busyTimeout: Duration = defaultBusyTimeout) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(connection)
            throw .open(path: path, code: code, message: message)
        }
        handle = connection
        let (seconds, attoseconds) = busyTimeout.components
        sqlite3_busy_timeout(connection, Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
        do {
            _ = try query("PRAGMA schema_version")
        } catch {
            closeConnection()
            throw .open(path: path, code: error.code, message: error.message)
        }
    }

    deinit { closeConnection() }

    /// Finalizes the prepared statements, then closes the connection (and
    /// its file): SQLite refuses to close a connection with a statement
    /// left, and keeps the file open.
    private func closeConnection() {
        statements.values.forEach { sqlite3_finalize($0) }
        statements = [:]
        sqlite3_close(handle)
        handle = nil
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(errorMessage)
            throw .step(code: code, message: message)
        }
    }

    /// Runs one statement with bound parameters and returns every row.
    @discardableResult
    package func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, parameter) in parameters.enumerated() {
            try bind(parameter, at: Int32(index + 1), to: statement)
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return rows }
            guard result == SQLITE_ROW else { throw .step(code: result, message: lastMessage) }
            let count = sqlite3_column_count(statement)
            rows.append((0..<count).map { column(at: $0, of: statement) })
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw .prepare(sql: sql, code: code, message: lastMessage)
        }
        statements[sql] = statement
        return statement
    }

    /// A file that is not a database, or a damaged one: it will never work again.
    package static func isCorruption(_ error: SQLiteError) -> Bool {
        error.code & 0xFF == SQLITE_NOTADB || error.code & 0xFF == SQLITE_CORRUPT
    }

    package func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last insert, update or delete.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func bind(_ value: SQLiteValue, at index: Int32, to statement: OpaquePointer) throws(SQLiteError) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(statement, index)
        case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
        case .real(let number): code = sqlite3_bind_double(statement, index, number)
        case .text(let text):
            // With the byte length: a NUL inside the string is kept, not a terminator.
            let bytes = Array(text.utf8)
            code = bytes.isEmpty ? sqlite3_bind_text(statement, index, "", 0, transient) : bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(statement, index, $0.baseAddress, Int32(buffer.count), transient) }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), transient)
            }
        }
        guard code == SQLITE_OK else { throw .bind(code: code, message: lastMessage) }
    }

    private func column(at index: Int32, of statement: OpaquePointer) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let pointer = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let pointer = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }
}

extension SQLiteError {
    /// The SQLite result code (`SQLITE_BUSY`, `SQLITE_FULL`, `SQLITE_NOTADB`, ...).
    package var code: Int32 {
        switch self {
        case .open(_, let code, _), .prepare(_, let code, _), .step(let code, _), .bind(let code, _): return code
        }
    }

    package var message: String {
        switch self {
        case .open(_, _, let message), .prepare(_, _, let message), .step(_, let message), .bind(_, let message): return message
        }
    }
}
