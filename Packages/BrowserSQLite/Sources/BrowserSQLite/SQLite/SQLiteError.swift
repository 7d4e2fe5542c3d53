/// A failure reported by SQLite, with its result code, its message and the statement it came from.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (https://www.sqlite.org/rescode.html).
    var code: Int32
    var message: String
    var sql: String?

    /// The primary result code: the low byte of the extended code.
    var primaryCode: Int32 { code & 0xFF }

    var description: String {
        if let sql { return "SQLite error \(code): \(message) (in \(sql))" }
        return "SQLite error \(code): \(message)"
    }
}
