import CSQLite
import Foundation

/// One SQLite connection of the store and how it reaches the file. Used from one serial queue at a time (its
/// `ReadPool` lane's, or the store's write queue).
///
/// **Read-only and WAL-safe.** Core Data stores are usually in WAL mode, and rows may live only in the `-wal`
/// (format doc §1), so the store is always opened through SQLite with its `-wal` (never `immutable=1`, which
/// skips the WAL). A WAL reader needs the `-shm` index, which SQLite creates or writes even for a read-only
/// connection; that never changes data. So:
/// - **In place, read-only** (`SQLITE_OPEN_READONLY`, i.e. `mode=ro`) when the folder and any existing `-wal` /
///   `-shm` are writable (by this process *and* by their permission bits, so read-only-marked files are left
///   alone even by root), and always for a rollback-journal store (a read-only reader writes nothing there).
///   SQLite never writes the database or the `-wal` on this connection, never checkpoints, and may create the
///   `-shm` (plus an empty `-wal` if none exists). A writer (the app) is never blocked in WAL mode and each new
///   read transaction sees its latest commit.
/// - **Private snapshot** otherwise (read-only folder or files, a hot rollback journal, or an in-place open that
///   SQLite refuses): the store and its `-wal` (and `-journal`) are copied into a private temporary folder and
///   opened there with `query_only`; the `-shm` is not copied, SQLite rebuilds it from the copied `-wal`. Before
///   each request the originals' sizes and modification times are compared with the copy's, and the copy is
///   refreshed when a writer changed them, so later requests see new rows in this mode too. The copies are shared
///   by every connection of the store (`SnapshotCopies`): each moves to the latest one when its next request starts.
/// - **In place, read-write** only when the host asked for writes (`SQLiteStore.open(storeAt:model:writes:)`) and
///   the store, its folder and companions are writable: the one mode in which this package writes a user's store,
///   each write in its own `BEGIN IMMEDIATE` transaction (`write(_:)`).
final class StoreConnection {
    enum Mode: String, Sendable {
        case inPlace = "in place (read-only)"
        case snapshot = "private snapshot"
        case readWrite = "in place (read-write: writes on)"
    }

    let files: StoreFiles
    private(set) var mode: Mode
    private(set) var connection: SQLiteConnection
    /// Answers reusable until the data changes; belongs to `connection` (see `ReadCache`).
    let cache = ReadCache()
    /// The running request's stop conditions, handed to whichever connection serves it (a snapshot refresh
    /// replaces the connection).
    var interruption: QueryInterruption? {
        didSet { connection.interruption = interruption }
    }
    /// Called on every new connection (registers SQL functions).
    private let prepare: (SQLiteConnection) throws(SQLiteError) -> Void
    /// Private snapshot mode: the copies every connection of the store shares, and the one this connection reads.
    let snapshots: SnapshotCopies?
    private var copy: SnapshotCopies.Copy?

    /// - Parameter writable: open the file read-write in place when its files allow it (else as without it).
    init(files: StoreFiles, header: StoreFiles.Header, writable: Bool = false,
         prepare: @escaping (SQLiteConnection) throws(SQLiteError) -> Void) throws(SQLiteStoreError) {
        self.files = files
        self.prepare = prepare
        let needsSnapshot = header.isWAL ? !files.companionsAreWritable() : files.hasHotJournalCandidate
        for (mode, wanted) in [(Mode.readWrite, writable && files.canWriteInPlace()), (.inPlace, !needsSnapshot)] where wanted {
            if let connection = try Self.openInPlace(files, readOnly: mode == .inPlace, prepare: prepare) {
                self.connection = connection
                self.mode = mode
                snapshots = nil
                return
            }
        }
        let snapshots = SnapshotCopies(files: files)
        let copy = try snapshots.current()
        self.connection = try SnapshotCopies.open(copy, files: files, prepare: prepare)
        self.copy = copy
        self.snapshots = snapshots
        self.mode = .snapshot
    }

    /// Another reader of the same store, as `primary` reads it: read-only in place (also beside a read-write
    /// connection), or from the private snapshot copies `primary` shares.
    init(readerBeside primary: StoreConnection) throws(SQLiteStoreError) {
        files = primary.files
        prepare = primary.prepare
        snapshots = primary.snapshots
        if let snapshots {
            let copy = try snapshots.current()
            connection = try SnapshotCopies.open(copy, files: files, prepare: prepare)
            self.copy = copy
            mode = .snapshot
        } else {
            guard let connection = try Self.openInPlace(files, readOnly: true, prepare: prepare) else {
                throw .unreadable(path: files.path, message: "SQLite refused another read-only connection to it")
            }
            self.connection = connection
            mode = .inPlace
        }
    }

    /// The store itself, opened read-only or (writes on) read-write, with its schema touched: opening is lazy, and
    /// this is where a WAL reader builds its `-shm` and a read-write one recovers what a crashed writer left, as the
    /// app would. Nil when SQLite refuses in a way a private snapshot may cure (a `-shm` it may not create, a hot
    /// journal); a damaged file is reported as such.
    private static func openInPlace(_ files: StoreFiles, readOnly: Bool,
                                    prepare: (SQLiteConnection) throws(SQLiteError) -> Void) throws(SQLiteStoreError) -> SQLiteConnection? {
        do {
            let connection = try SQLiteConnection(path: files.path, readOnly: readOnly)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            try prepare(connection)
            return connection
        } catch {
            if let failure = fileError(error, path: files.path) { throw failure }
            return nil
        }
    }

    deinit {
        // The connection closes before its copy may go (see `SQLiteConnection.close`); `copy` is released after.
        connection.close()
    }

    /// Runs `body` in one read transaction, so every query of a request sees the same snapshot of the data. The
    /// cache handed to `body` holds only answers computed under that snapshot's `PRAGMA data_version`.
    func read<T>(_ body: (SQLiteConnection, ReadCache) throws -> T) throws -> T {
        if mode == .snapshot { moveToLatestCopy() }
        connection.readTransactionStart = DispatchTime.now().uptimeNanoseconds
        defer { connection.readTransactionStart = nil }
        try connection.execute("BEGIN")
        do {
            // Reading the pragma starts the read transaction, so the version is the snapshot's own.
            cache.validate(dataVersion: try connection.scalar("PRAGMA data_version")?.int64 ?? 0)
            let result = try body(connection, cache)
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in one write transaction: `BEGIN IMMEDIATE` takes the write lock first (waiting at most the
    /// connection's busy timeout while another process, the app, holds it), so a write never starts on data it
    /// cannot commit; any error rolls everything back. Own commits do not move `PRAGMA data_version`
    /// (https://www.sqlite.org/pragma.html#pragma_data_version), so this connection's read cache is emptied after
    /// each one (the read pool's other connections see the commit as another connection's).
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        precondition(mode == .readWrite, "a write on a connection that was not opened for writes")
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            cache.reset()
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            cache.reset()
            throw error
        }
    }

    /// Moves this connection to the latest copy of the store (taken now if the originals changed), so every
    /// connection of the pool reads the same copy generation from its next request on.
    private func moveToLatestCopy() {
        guard let snapshots, let latest = try? snapshots.current(), latest !== copy,
              let moved = try? SnapshotCopies.open(latest, files: files, prepare: prepare)
        else { return }
        connection.close() // before its copy may go (see `SQLiteConnection.close`)
        connection = moved
        connection.interruption = interruption
        copy = latest
        cache.reset()
    }

    /// What a failure of a request's SQL becomes for its caller: the interruption's reason when it stopped the
    /// statement (cancelled, over budget), the file's own error (not a database, corrupt, truncated), or a failed
    /// query with its SQL. Errors that are not SQLite's pass through.
    static func requestError(_ error: any Error, interruption: QueryInterruption, path: String) -> any Error {
        guard let failure = error as? SQLiteError else { return error }
        if failure.primaryCode == SQLITE_INTERRUPT, let reason = interruption.reason {
            return QueryInterruption.error(for: reason)
        }
        return fileError(failure, path: path) ?? SQLiteStoreError.queryFailed(message: failure.message, sql: failure.sql)
    }

    /// The public error for a failure that says something about the file itself, nil for other failures.
    static func fileError(_ error: any Error, path: String) -> SQLiteStoreError? {
        guard let error = error as? SQLiteError else { return nil }
        switch error.primaryCode {
        case SQLITE_NOTADB: return .notSQLite(path: path, reason: error.message)
        case SQLITE_CORRUPT: return .corrupt(path: path, message: error.message)
        // A read past the end of the file: a truncated store.
        case SQLITE_IOERR where error.code == cdb_sqlite_ioerr_short_read(): return .corrupt(path: path, message: error.message)
        default: return nil
        }
    }
}
