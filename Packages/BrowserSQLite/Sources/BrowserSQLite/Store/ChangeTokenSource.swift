import Dispatch

/// The store's change token, read on a connection and a serial queue of its own: `PRAGMA data_version` counts
/// commits as one connection sees them, so it must always be read on the same one (a token read on whichever pool
/// lane is free would change with the lane), and a token asked for while every lane is busy must not wait for them.
///
/// - In place: `PRAGMA data_version` (which moves when another connection commits, including this store's own
///   writer: https://www.sqlite.org/pragma.html#pragma_data_version) with the size and modification time of the
///   store and its `-wal` (which also tell a restarted server's tokens apart).
/// - Private snapshot: the generation and signature of the latest copy (`SnapshotCopies`), taken now if the
///   originals changed.
final class ChangeTokenSource: @unchecked Sendable {
    // @unchecked: `connection` is confined to `queue`.

    let queue = DispatchQueue(label: "BrowserSQLite.ChangeTokenSource")
    private let files: StoreFiles
    private let snapshots: SnapshotCopies?
    /// Opened on the first token, read-only in place.
    private var connection: SQLiteConnection?
    /// The copy the last token names (snapshot mode), held so that it is the one the next request reads rather
    /// than a copy taken again (`SnapshotCopies` remembers the latest one only while someone holds it).
    private var namedCopy: SnapshotCopies.Copy?

    init(files: StoreFiles, snapshots: SnapshotCopies?) {
        self.files = files
        self.snapshots = snapshots
    }

    /// On `queue`: the token now.
    func token() throws -> String {
        if let snapshots {
            let copy = try snapshots.current()
            namedCopy = copy
            return "s\(copy.generation)-\(copy.signature)"
        }
        let connection = try self.connection ?? SQLiteConnection(path: files.path, readOnly: true)
        self.connection = connection
        let version = try connection.scalar("PRAGMA data_version")?.int64 ?? 0
        return "v\(version)-\(files.signature())"
    }
}
