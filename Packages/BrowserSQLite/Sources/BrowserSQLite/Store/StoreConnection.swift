import CSQLite
import Foundation

/// The store's SQLite connection and how it reaches the file. Used only from the store's serial queue.
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
///   refreshed when a writer changed them, so later requests see new rows in this mode too.
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
    private var snapshotDirectory: String?
    private var snapshotSignature: String?
    private var snapshotGeneration = 0
    /// Commits made on this connection: they do not move `PRAGMA data_version`, so the change token counts them.
    private var writeGeneration = 0

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
                return
            }
        }
        let snapshot = try Self.makeSnapshot(of: files, prepare: prepare)
        self.connection = snapshot.connection
        self.snapshotDirectory = snapshot.directory
        self.snapshotSignature = snapshot.signature
        self.mode = .snapshot
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
        // The connection closes before its files go (see `SQLiteConnection.close`).
        connection.close()
        if let snapshotDirectory { try? FileManager.default.removeItem(atPath: snapshotDirectory) }
    }

    /// Runs `body` in one read transaction, so every query of a request sees the same snapshot of the data. The
    /// cache handed to `body` holds only answers computed under that snapshot's `PRAGMA data_version`.
    func read<T>(_ body: (SQLiteConnection, ReadCache) throws -> T) throws -> T {
        if mode == .snapshot { refreshSnapshotIfChanged() }
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
    /// (https://www.sqlite.org/pragma.html#pragma_data_version), so the read cache is emptied after each one.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        precondition(mode == .readWrite, "a write on a connection that was not opened for writes")
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            writeGeneration += 1
            cache.reset()
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            cache.reset()
            throw error
        }
    }

    /// Changes whenever the data may have changed: SQLite's `PRAGMA data_version` (which moves when another
    /// connection commits: https://www.sqlite.org/pragma.html#pragma_data_version) and the size and modification
    /// time of the store and its `-wal` (which also tell a restarted server's tokens apart).
    func changeToken() throws -> String {
        if mode == .snapshot {
            refreshSnapshotIfChanged()
            return "s\(snapshotGeneration)-\(snapshotSignature ?? "")"
        }
        let version = try connection.scalar("PRAGMA data_version")?.int64 ?? 0
        return "v\(version)-\(files.signature())" + (writeGeneration > 0 ? "-w\(writeGeneration)" : "")
    }

    private func refreshSnapshotIfChanged() {
        let signature = files.signature()
        guard signature != snapshotSignature else { return }
        // If the copy fails (a writer is mid-checkpoint, the disk is full) the previous copy keeps serving and the
        // next request tries again.
        guard let snapshot = try? Self.makeSnapshot(of: files, prepare: prepare) else { return }
        let old = snapshotDirectory
        connection.close() // before its files go (see `SQLiteConnection.close`)
        connection = snapshot.connection
        connection.interruption = interruption
        if let old { try? FileManager.default.removeItem(atPath: old) }
        cache.reset()
        snapshotDirectory = snapshot.directory
        snapshotSignature = snapshot.signature
        snapshotGeneration += 1
    }

    /// How many times a snapshot copy is taken while the store keeps changing under it.
    static let snapshotAttempts = 5

    static func makeSnapshot(
        of files: StoreFiles, prepare: (SQLiteConnection) throws(SQLiteError) -> Void
    ) throws(SQLiteStoreError) -> (directory: String, connection: SQLiteConnection, signature: String) {
        let manager = FileManager.default
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("BrowserSQLite-\(UUID().uuidString)")
        let copy = (directory as NSString).appendingPathComponent((files.path as NSString).lastPathComponent)
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                        attributes: [.posixPermissions: 0o700])
            // The store and its -wal are copied one after the other, with no lock held: a writer that commits
            // or checkpoints in between would leave an old database beside a new WAL (a torn copy). The copy
            // counts only if the files' signature is the same after it as before; else it is taken again.
            var signature = ""
            for attempt in 1...Self.snapshotAttempts {
                signature = files.signature()
                for companion in ["", "-wal", "-journal"] where manager.fileExists(atPath: copy + companion) {
                    try manager.removeItem(atPath: copy + companion)
                }
                try manager.copyItem(atPath: files.path, toPath: copy)
                for (source, suffix) in [(files.walPath, "-wal"), (files.journalPath, "-journal")]
                where manager.fileExists(atPath: source) {
                    try manager.copyItem(atPath: source, toPath: copy + suffix)
                }
                if files.signature() == signature { break }
                guard attempt < Self.snapshotAttempts else {
                    throw SQLiteStoreError.unreadable(path: files.path, message: "it kept changing while it was being copied")
                }
            }
            // Read-write on the private copy so SQLite can recover the WAL or roll back a journal there;
            // query_only keeps this code from ever writing.
            let connection = try SQLiteConnection(path: copy, readOnly: false)
            try connection.execute("PRAGMA query_only = 1")
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            try prepare(connection)
            return (directory, connection, signature)
        } catch let failure as SQLiteStoreError {
            try? manager.removeItem(atPath: directory)
            throw failure
        } catch {
            try? manager.removeItem(atPath: directory)
            throw fileError(error, path: files.path)
                ?? .unreadable(path: files.path, message: "could not copy it to a private snapshot: \(error)")
        }
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
