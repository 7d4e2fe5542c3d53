import CSQLite

/// One SQLite database connection. It owns the `sqlite3` handle and closes it in `deinit`.
///
/// Not thread-safe by itself: `SQLiteStore` uses each connection from one serial queue only.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// The running request's stop conditions, checked by SQLite's progress handler (nil: never stop). Set and
    /// cleared by the store's queue around each request.
    var interruption: QueryInterruption?
    /// Records the statements run while set (`/api/…/explain`); nil otherwise, which costs a nil check per step.
    var trace: StatementTrace?
    /// An instant (`DispatchTime` uptime nanoseconds) before the read transaction in progress took its snapshot,
    /// set around it by `StoreConnection.read`; nil outside one. `ScanPartner` reads in this snapshot only when its
    /// own last reading of the data version came before this instant.
    var readTransactionStart: UInt64?

    /// How many SQLite virtual machine instructions run between two checks of `interruption`: a few
    /// microseconds of work, so a stop is prompt and the check's cost is lost in the noise.
    static let progressInterval: Int32 = 10_000

    /// How long a statement waits for a lock another connection holds (a reader: a writer recovering the WAL; a
    /// write: the app's write transaction) before failing with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Each connection's page cache, at most (`PRAGMA cache_size` in KiB, https://www.sqlite.org/pragma.html#pragma_cache_size):
    /// SQLite's default, named here because a store opens several connections (its read pool, their scan partners,
    /// the writer, the kept-order builder, exports), and their caches add up. Pages past it are read again from the
    /// file, which the OS caches once for all of them.
    static let pageCacheKibibytes = 2_000

    /// Opens the file at `path` (https://www.sqlite.org/c3ref/open.html).
    /// - Parameter readOnly: `SQLITE_OPEN_READONLY` (the same as the URI parameter `mode=ro`): SQLite never
    ///   writes the database file, though a WAL database still needs its `-shm` (see `StoreFiles`).
    /// - Parameter immutable: open with the URI parameter `immutable=1`: SQLite reads the main file only and
    ///   writes nothing at all (no `-shm`, no `-wal`, no locks). It ignores the `-wal`, so it is only for looking
    ///   at a file that may not be ours to touch (`StoreRecognition`), never for reading records.
    init(path: String, readOnly: Bool, immutable: Bool = false) throws(SQLiteError) {
        var handle: OpaquePointer?
        // NOMUTEX: every connection is used from one serial queue at a time (see the type's note), so SQLite's
        // per-call connection mutex would only cost time (a lock and unlock around every column read).
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            // A URI's path is percent-encoded where it would be misread, and past ASCII
            // (https://www.sqlite.org/uri.html): SQLite decodes each %XX back to its byte.
            let hex = Array("0123456789ABCDEF".utf8)
            var escaped: [UInt8] = []
            for byte in path.utf8 {
                if byte >= 0x80 || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                    escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                } else {
                    escaped.append(byte)
                }
            }
            name = "file:" + String(decoding: escaped, as: UTF8.self) + "?immutable=1"
        }
        let status = sqlite3_open_v2(name, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(code: status, message: message, sql: nil)
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        // A reader waits this long for a lock (a writer recovering the WAL, a rollback-journal commit), then
        // fails with SQLITE_BUSY: it never waits forever and never holds a writer up longer than one query.
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        sqlite3_exec(handle, "PRAGMA cache_size = -\(Self.pageCacheKibibytes)", nil, nil, nil)
        // The handler reads this connection's `interruption`; it is removed with the handle in `deinit`.
        sqlite3_progress_handler(handle, Self.progressInterval, { context in
            guard let context else { return 0 }
            let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
            return connection.interruption?.reason == nil ? 0 : 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private var isClosed = false

    deinit {
        close()
    }

    /// Closes the handle now (`deinit` does it otherwise). Call it before deleting the database's files: SQLite
    /// knows a file by its device and inode, and a file deleted while its connection is open frees an inode that
    /// a new file (another private snapshot) may get, which this process's SQLite would then take for the old,
    /// still-open one and share its locks with (https://www.sqlite.org/howtocorrupt.html §2.4 and §6).
    /// close_v2 defers the close until every statement of the connection is finalized.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        sqlite3_close_v2(handle)
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Runs statements that return no rows (`BEGIN`, `PRAGMA query_only = 1`…).
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status, sql: sql) }
    }

    /// Every row of a query, each as its column values. For small catalog queries only: record queries page.
    func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var rows: [[SQLiteValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return rows
    }

    /// The first column of the first row, or nil when there is no row.
    func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// `count` bytes from `offset` of one BLOB value, through SQLite's incremental blob I/O
    /// (https://www.sqlite.org/c3ref/blob_open.html): only the pages holding those bytes are read, so a large
    /// value is never loaded whole. `rowid` is the row's `Z_PK` (Core Data's tables declare it
    /// `INTEGER PRIMARY KEY`, the rowid's alias). Read-only; the handle is closed before returning.
    func readBlob(table: String, column: String, rowid: Int64, offset: Int, count: Int) throws(SQLiteError) -> [UInt8] {
        try BlobPrefixReader(connection: self).withBytes(table: table, column: column, rowid: rowid,
                                                         offset: offset, count: count) { bytes, _ in Array(bytes) }
    }

    func error(_ status: Int32, sql: String?) -> SQLiteError {
        let message = String(cString: sqlite3_errmsg(handle))
        let code = sqlite3_extended_errcode(handle)
        return SQLiteError(code: code == 0 ? status : code, message: message, sql: sql)
    }
}
