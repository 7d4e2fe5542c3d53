import CSQLite
import Dispatch

/// A prepared statement. It owns the `sqlite3_stmt` handle and finalizes it in `deinit`; it keeps its
/// connection alive until then.
final class SQLiteStatement {
    let handle: OpaquePointer
    let connection: SQLiteConnection
    let sql: String
    /// This statement's entry in the connection's trace, when one was recording at `bind`.
    private var traceIndex: Int?
    /// Reads the first bytes of long values of this statement's rows (a list's text previews); its handles close
    /// with the statement, so they never hold a read transaction past the query.
    private(set) lazy var prefixReader = BlobPrefixReader(connection: connection)

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let status = sqlite3_prepare_v2(connection.handle, sql, -1, &handle, nil)
        guard status == SQLITE_OK, let handle else {
            if let handle { sqlite3_finalize(handle) }
            throw connection.error(status, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Binds values to `?` parameters 1…n. Integers bind as 64-bit (`sqlite3_bind_int64`, never `bind_int`,
    /// which would cut them to 32 bits); text and blobs with their explicit byte count, copied by SQLite.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        if let trace = connection.trace { traceIndex = trace.began(sql, arguments: values) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null:
                status = sqlite3_bind_null(handle, index)
            case .integer(let number):
                status = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                status = sqlite3_bind_double(handle, index, number)
            case .text(let bytes) where bytes.isEmpty:
                status = sqlite3_bind_text(handle, index, "", 0, cdb_sqlite_transient())
            case .text(let bytes):
                status = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_text(handle, index, buffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                                      Int32(buffer.count), cdb_sqlite_transient())
                }
            case .blob(let bytes) where bytes.isEmpty:
                // A NULL pointer would bind NULL, not an empty blob.
                status = sqlite3_bind_zeroblob(handle, index, 0)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), cdb_sqlite_transient())
                }
            }
            guard status == SQLITE_OK else { throw connection.error(status, sql: sql) }
        }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        guard let traceIndex, let trace = connection.trace else { return try advance() }
        let start = DispatchTime.now().uptimeNanoseconds
        let row = try advance()
        trace.stepped(traceIndex, row: row, since: start)
        return row
    }

    private func advance() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw connection.error(status, sql: sql)
        }
    }

    /// The value of a column of the current row, in the storage class SQLite holds it in.
    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // column_blob on TEXT hands back the stored bytes unconverted; the length comes from column_bytes,
            // called after it, as SQLite's documentation asks.
            return .text(bytes(at: column))
        case SQLITE_BLOB:
            return .blob(bytes(at: column))
        default:
            return .null
        }
    }

    /// SQLite's storage class of a column of the current row (`SQLITE_INTEGER`, `SQLITE_TEXT`…).
    func storageClass(at column: Int32) -> Int32 {
        sqlite3_column_type(handle, column)
    }

    /// The stored bytes of a TEXT or BLOB column of the current row, lent to `body` without a copy (SQLite's
    /// buffer, valid until the next step): a value's size, its first bytes or its text need no array of their own.
    func withBytes<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        guard let pointer = sqlite3_column_blob(handle, column) else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
    }

    private func bytes(at column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
