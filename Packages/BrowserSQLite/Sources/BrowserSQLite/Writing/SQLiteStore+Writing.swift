public import BrowserCore
import CSQLite

/// Writes to the store file, offered when the host asked for them and `writeRefusal` is nil. Each
/// request is one `BEGIN IMMEDIATE` transaction on the store's write queue (`StoreConnection.write`), preceded, the first
/// time in a run, by a backup of the store (`StoreBackup`).
extension SQLiteStore {
    public func insert(into entity: String, _ changes: RecordChanges) async throws -> ObjectID {
        try await write { writer, connection in try writer.insert(into: entity, changes, in: connection) }
    }

    public func update(_ id: ObjectID, expecting version: Int64, _ changes: RecordChanges) async throws {
        try await write { writer, connection in try writer.update(id, expecting: version, changes, in: connection) }
    }

    /// Computed in a read transaction: nothing is written, no backup is made.
    public func deletionEffects(of id: ObjectID) async throws -> DeletionEffects {
        let writer = try requireWriter()
        return try await perform { connection, _ in
            try connection.read { sqlite, _ in try writer.deletionEffects(of: id, in: sqlite) }
        }
    }

    public func delete(_ id: ObjectID, expecting version: Int64) async throws -> DeletionEffects {
        try await write { writer, connection in try writer.delete(id, expecting: version, in: connection) }
    }

    /// The path of the backup made before this run's first write, nil before it.
    public func backupPath() async throws -> String? {
        guard writeConnection != nil else { return nil }
        return try await performWrite { [self] _ in madeBackup }
    }

    // MARK: Plumbing

    private func requireWriter() throws(BrowserError) -> StoreWriter {
        guard let writer else {
            throw BrowserError.forbidden("This store is not written" + (writeRefusal.map { ": \($0)" } ?? ": it was opened read-only"))
        }
        return writer
    }

    private func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter, SQLiteConnection) throws -> T) async throws -> T {
        let writer = try requireWriter()
        let options = writeOptions
        return try await performWrite { [self] connection in
            do {
                if madeBackup == nil {
                    // The copy of a large store may take longer than a request's budget: it is never cut short.
                    let interruption = connection.interruption
                    connection.interruption = nil
                    defer { connection.interruption = interruption }
                    let path = try StoreBackup.make(of: connection.files, into: options?.backupFolder, on: connection.connection)
                    madeBackup = path
                    options?.backupMade?(path)
                }
                return try connection.write { sqlite in try body(writer, sqlite) }
            } catch let failure as SQLiteError {
                throw Self.writeError(failure, path: connection.files.path, backupDone: madeBackup != nil)
            } catch let failure as StoreBackup.BackupFailure {
                throw BrowserError.storeFailure("Could not back up \(connection.files.path) before the first write (\(failure)); nothing was written")
            }
        }
    }

    /// What an SQLite failure of a write means for the client. The transaction was rolled back: nothing was written.
    static func writeError(_ failure: SQLiteError, path: String, backupDone: Bool) -> any Error {
        switch failure.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return BrowserError.unavailable("Another process (the app?) holds the store's write lock and did not release it within "
                + "\(SQLiteConnection.busyTimeoutMilliseconds / 1000) seconds; nothing was written. Try again when it is idle.")
        case SQLITE_CONSTRAINT:
            return BrowserError.conflict("The store refused the change (\(failure.message)): another record already has these values "
                + "where the model asks them to be unique; nothing was written")
        default:
            if !backupDone {
                return BrowserError.storeFailure("Could not back up \(path) before the first write (\(failure.message)); nothing was written")
            }
            return failure
        }
    }
}
