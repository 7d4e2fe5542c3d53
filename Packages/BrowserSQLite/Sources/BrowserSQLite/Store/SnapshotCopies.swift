import Foundation

/// Private copies of a store file, one per version of its files, shared by every connection that reads from a copy:
/// the read pool's connections of a store read from a private snapshot, and the exports of a store that is not
/// read in place (a rollback-journal store, whose original an export's long read transaction would lock against
/// the app's saves).
///
/// **One copy per data version.** `current()` compares the originals' sizes and modification times
/// (`StoreFiles.signature`) with the latest copy's and copies again only when a writer changed them; everyone
/// asking meanwhile shares the latest copy (twelve concurrent exports read one copy, not twelve). A copy is
/// deleted when its last holder lets it go: each holder closes its connections to it first (`SQLiteConnection.close`
/// says why that order matters), then drops its reference. So every pool connection reads the copy generation of
/// its request's start, and a long export keeps its own copy while later requests move on to a newer one. The
/// latest copy is only remembered weakly here: the copy of an export of a rollback-journal store goes with its
/// last export, not with the store.
///
/// If a refresh fails (a writer is mid-checkpoint, the disk is full), the previous copy keeps serving and the next
/// call tries again. Thread-safe: `current()` copies under a lock, so concurrent callers wait for one copy.
final class SnapshotCopies: @unchecked Sendable {
    // @unchecked: `latest` and `copiesTaken` are behind `lock`; `files` is immutable.

    /// One copy on disk: deleted with its folder when the last reference goes.
    final class Copy: @unchecked Sendable {
        // @unchecked: immutable after init.
        let directory: String
        /// The copied store file.
        let path: String
        /// The originals' signature the copy was taken at.
        let signature: String
        /// Counts the copies taken of this store (1 for the first): the change token of a store read from copies.
        let generation: Int

        init(directory: String, path: String, signature: String, generation: Int) {
            self.directory = directory
            self.path = path
            self.signature = signature
            self.generation = generation
        }

        deinit {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    let files: StoreFiles
    private let lock = NSLock()
    private weak var latest: Copy?
    private var copiesTaken = 0

    init(files: StoreFiles) {
        self.files = files
    }

    /// The copy of the files as they are now: the latest one when they have not changed since, else a new one (or,
    /// when a new one cannot be taken, the latest one). Throws only when there is no copy at all.
    func current() throws(SQLiteStoreError) -> Copy {
        lock.lock()
        defer { lock.unlock() }
        let latest = self.latest
        if let latest, latest.signature == files.signature() { return latest }
        do {
            let copy = try Self.copy(files, generation: copiesTaken + 1)
            copiesTaken += 1
            self.latest = copy
            return copy
        } catch {
            if let latest { return latest }
            throw error
        }
    }

    /// How many times a snapshot copy is taken while the store keeps changing under it.
    static let attempts = 5

    /// Copies the store and its `-wal` (and `-journal`) into a new private temporary folder.
    private static func copy(_ files: StoreFiles, generation: Int) throws(SQLiteStoreError) -> Copy {
        let manager = FileManager.default
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("BrowserSQLite-\(UUID().uuidString)")
        let copy = (directory as NSString).appendingPathComponent((files.path as NSString).lastPathComponent)
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                        attributes: [.posixPermissions: 0o700])
            // The store and its -wal are copied one after the other, with no lock held: a writer that commits
            // or checkpoints in between would leave an old database beside a new WAL (a torn copy). The copy
            // counts only if the files' signature is the same after it as before; else it is taken again.
            for attempt in 1...Self.attempts {
                let signature = files.signature()
                for companion in ["", "-wal", "-journal"] where manager.fileExists(atPath: copy + companion) {
                    try manager.removeItem(atPath: copy + companion)
                }
                try manager.copyItem(atPath: files.path, toPath: copy)
                for (source, suffix) in [(files.walPath, "-wal"), (files.journalPath, "-journal")]
                where manager.fileExists(atPath: source) {
                    try manager.copyItem(atPath: source, toPath: copy + suffix)
                }
                if files.signature() == signature {
                    return Copy(directory: directory, path: copy, signature: signature, generation: generation)
                }
                guard attempt < Self.attempts else { break }
            }
            try? manager.removeItem(atPath: directory)
            throw SQLiteStoreError.unreadable(path: files.path, message: "it kept changing while it was being copied")
        } catch let failure as SQLiteStoreError {
            throw failure
        } catch {
            try? manager.removeItem(atPath: directory)
            throw StoreConnection.fileError(error, path: files.path)
                ?? .unreadable(path: files.path, message: "could not copy it to a private snapshot: \(error)")
        }
    }

    /// A connection to `copy`: read-write on the private copy so SQLite can recover the WAL or roll back a journal
    /// there; `query_only` keeps this code from ever writing. The caller closes it before dropping `copy`.
    static func open(_ copy: Copy, files: StoreFiles,
                     prepare: (SQLiteConnection) throws(SQLiteError) -> Void) throws(SQLiteStoreError) -> SQLiteConnection {
        do {
            let connection = try SQLiteConnection(path: copy.path, readOnly: false)
            try connection.execute("PRAGMA query_only = 1")
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            try prepare(connection)
            return connection
        } catch {
            throw StoreConnection.fileError(error, path: files.path)
                ?? .unreadable(path: files.path, message: "could not open its private snapshot: \(error.message)")
        }
    }
}
