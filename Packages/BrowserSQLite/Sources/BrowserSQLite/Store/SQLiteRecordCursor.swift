import BrowserCore
import CSQLite
import Foundation

/// An export's records, read through a connection of its own in one read transaction, so the file is one
/// consistent snapshot of the store however long the client takes to download it, and the store's own
/// connection keeps answering the UI meanwhile.
///
/// - In a WAL store the export reads the file in place, read-only: a writing app is never blocked, and the
///   transaction only keeps SQLite from checkpointing the WAL past the export's snapshot until it ends.
/// - A rollback-journal store, or one the store itself reads from a private snapshot, is exported from a
///   private copy (`SnapshotCopies`): a read transaction on the original would hold a shared lock that stops the
///   app from saving for as long as the export runs. The copy of the store's current data version is shared by
///   every export (and pool connection) that reads that version, so concurrent exports do not copy it again each.
///
/// The connection, its transaction and any copy are released when the cursor is (the export finished, failed
/// or its client went away). Like the store, it runs SQLite only on a private serial queue.
final class SQLiteRecordCursor: RecordCursor, @unchecked Sendable {
    // @unchecked: `statement`, `finished`, `layout` and the connection are used only on `queue`; `readAhead` behind
    // `lock`.

    private let queue = DispatchQueue(label: "BrowserSQLite.SQLiteRecordCursor")
    private let connection: SQLiteConnection
    /// The private copy read (nil in place): held until the connection is closed, then let go.
    private(set) var copy: SnapshotCopies.Copy?
    private let reader: RecordReader
    private let plan: RecordReader.ExportPlan
    private let batchSize: Int
    private let path: String
    private var statement: SQLiteStatement?
    private var finished = false
    /// To-one targets met so far (on `queue` only).
    private let targets = RecordReader.TargetCache()
    /// Where each entity's values land in a batch (on `queue` only).
    private let layout: RecordReader.ExportLayout
    /// The batch being read ahead (behind `lock`: `next()` runs on whichever thread its caller is on).
    private var readAhead: Task<ExportBatch?, any Error>?
    private let lock = NSLock()

    /// - Parameter copies: where the export's copy comes from; nil to read the store in place.
    init(files: StoreFiles, copies: SnapshotCopies?, reader: RecordReader, plan: RecordReader.ExportPlan, batchSize: Int,
         prepare: @escaping (SQLiteConnection) throws(SQLiteError) -> Void) throws {
        path = files.path
        if let copies {
            let copy = try copies.current()
            connection = try SnapshotCopies.open(copy, files: files, prepare: prepare)
            self.copy = copy
        } else {
            let connection = try SQLiteConnection(path: files.path, readOnly: true)
            try prepare(connection)
            self.connection = connection
        }
        self.reader = reader
        self.plan = plan
        self.batchSize = batchSize
        layout = RecordReader.ExportLayout(reader: reader, plan: plan)
        do {
            try connection.execute("BEGIN")
            // The first read starts the transaction: the snapshot is the store as it is now, not at the first batch.
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            let statement = try connection.prepare(plan.sql)
            try statement.bind(plan.arguments)
            self.statement = statement
        } catch {
            // `deinit` runs for an initializer that fails here, and releases the connection and any copy.
            throw StoreConnection.fileError(error, path: files.path) ?? error
        }
    }

    deinit {
        readAhead?.cancel()
        statement = nil
        try? connection.execute("ROLLBACK")
        // The connection closes before its copy may go (see `SQLiteConnection.close`).
        connection.close()
        copy = nil
    }

    /// The next batch: the one read ahead while the previous batch was being written out (so reading the store
    /// and encoding the file overlap), or read now for the first call. The batch after it is queued on the
    /// reading queue before this one is awaited, so the queue goes on to it the moment this one is read rather
    /// than when the encoder comes back for it (a wake-up of two threads per batch, in which the queue stood
    /// idle). At most three batches are held: the one being encoded, the one read, the one being read.
    func next() async throws -> ExportBatch? {
        let current = takeReadAhead() ?? startBatch()
        setReadAhead(startBatch())
        return try await withTaskCancellationHandler {
            try await current.value
        } onCancel: {
            current.cancel()
        }
    }

    // Synchronous, so the lock is never held across a suspension (NSLock.withLock would need iOS 17).
    private func takeReadAhead() -> Task<ExportBatch?, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        let task = readAhead
        readAhead = nil
        return task
    }

    private func setReadAhead(_ task: Task<ExportBatch?, any Error>) {
        lock.lock()
        readAhead = task
        lock.unlock()
    }

    /// Queues the reading of one batch on the cursor's queue now (so batches are read in the order asked for),
    /// and returns a task for it; cancelling the task interrupts the read. A batch asked for after the last one
    /// is nil.
    private func startBatch() -> Task<ExportBatch?, any Error> {
        // No time budget: an export takes as long as its size asks. It stops when its client goes away.
        let interruption = QueryInterruption(deadline: nil)
        let pending = PendingBatch()
        queue.async { [self] in
            guard !finished, let statement else { return pending.fulfil(.success(nil)) }
            connection.interruption = interruption
            defer { connection.interruption = nil }
            do {
                let batch = try reader.exportBatch(statement, plan: plan, layout: layout, limit: batchSize,
                                                   targets: targets, in: connection)
                if (batch?.count ?? 0) < batchSize { finish() }
                pending.fulfil(.success(batch))
            } catch {
                finish()
                pending.fulfil(.failure(StoreConnection.requestError(error, interruption: interruption, path: path)))
            }
        }
        return Task {
            try await withTaskCancellationHandler {
                try await pending.value()
            } onCancel: {
                interruption.cancel()
            }
        }
    }

    /// A batch being read on the queue, and whoever waits for it.
    private final class PendingBatch: @unchecked Sendable {
        // @unchecked: `result` and `waiter` are used behind `lock` only.
        private let lock = NSLock()
        private var result: Result<ExportBatch?, any Error>?
        private var waiter: CheckedContinuation<ExportBatch?, any Error>?

        func fulfil(_ outcome: Result<ExportBatch?, any Error>) {
            lock.lock()
            guard let waiter else {
                result = outcome
                return lock.unlock()
            }
            self.waiter = nil
            lock.unlock()
            waiter.resume(with: outcome)
        }

        func value() async throws -> ExportBatch? {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if let result {
                    lock.unlock()
                    continuation.resume(with: result)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        }
    }

    /// Tests: returns once the batches queued so far were read (each holds the cursor until it ran), so releasing
    /// the cursor afterwards releases it at once.
    func waitUntilIdle() { queue.sync {} }

    /// Ends the read transaction as soon as the last row is read, not when the cursor is released.
    private func finish() {
        finished = true
        statement = nil
        try? connection.execute("ROLLBACK")
    }
}
