import CSQLite

/// Reads the first bytes of values through SQLite's incremental BLOB I/O (https://sqlite.org/c3ref/blob_open.html):
/// the value's size comes from the record header and only the pages holding the bytes asked for are read, so a
/// long value's other pages never reach memory. Works on TEXT as on BLOB values (the raw bytes: UTF-8 in Core
/// Data's stores); `rowid` is the row's `Z_PK`, the rowid's alias in Core Data's tables.
///
/// One handle per table and column, moved from row to row with `sqlite3_blob_reopen` (a seek, not a new
/// statement). An open handle keeps the connection's read transaction open, so a reader belongs to one
/// `SQLiteStatement` (`SQLiteStatement.prefixReader`) and its handles close with it, or to one call
/// (`SQLiteConnection.readBlob`).
final class BlobPrefixReader {
    private let connection: SQLiteConnection
    private var handles: [String: OpaquePointer] = [:]
    /// Reused for every value.
    private var buffer: [UInt8] = []

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    deinit {
        for handle in handles.values { sqlite3_blob_close(handle) }
    }

    /// `body` with at most `count` first bytes of the value and the value's whole size in bytes. The row must hold
    /// TEXT or a BLOB there (SQLite refuses to open NULL and numbers).
    func withPrefix<Result>(table: String, column: String, rowid: Int64, count: Int,
                            _ body: (UnsafeRawBufferPointer, Int) -> Result) throws(SQLiteError) -> Result {
        try withBytes(table: table, column: column, rowid: rowid, offset: 0, count: count, body)
    }

    /// `body` with at most `count` bytes of the value from `offset` (none past its end) and the value's whole size.
    func withBytes<Result>(table: String, column: String, rowid: Int64, offset: Int, count: Int,
                           _ body: (UnsafeRawBufferPointer, Int) -> Result) throws(SQLiteError) -> Result {
        let key = table + "\u{0}" + column
        let place = "bytes of \(table).\(column) rowid \(rowid)"
        let handle = try handle(key, table: table, column: column, rowid: rowid, place: place)
        let size = Int(sqlite3_blob_bytes(handle))
        let wanted = max(0, min(count, size - offset))
        if buffer.count < wanted { buffer = [UInt8](repeating: 0, count: wanted) }
        guard wanted > 0 else { return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<0]), size) } }
        let status = buffer.withUnsafeMutableBytes { sqlite3_blob_read(handle, $0.baseAddress, Int32(wanted), Int32(offset)) }
        guard status == SQLITE_OK else {
            discard(key)
            throw connection.error(status, sql: place)
        }
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<wanted]), size) }
    }

    /// The handle of `key` on row `rowid`: the open one moved there, or a new one.
    private func handle(_ key: String, table: String, column: String, rowid: Int64,
                        place: String) throws(SQLiteError) -> OpaquePointer {
        if let open = handles[key] {
            let moved = sqlite3_blob_reopen(open, rowid)
            if moved == SQLITE_OK { return open }
            // A failed move leaves the handle aborted: closed, and the failure reported as a new handle's would be.
            discard(key)
            throw connection.error(moved, sql: place)
        }
        var opened: OpaquePointer?
        let status = sqlite3_blob_open(connection.handle, "main", table, column, rowid, 0, &opened)
        guard status == SQLITE_OK, let opened else {
            if let opened { sqlite3_blob_close(opened) }
            throw connection.error(status, sql: place)
        }
        handles[key] = opened
        return opened
    }

    private func discard(_ key: String) {
        if let handle = handles.removeValue(forKey: key) { sqlite3_blob_close(handle) }
    }
}
