import CSQLite
import Dispatch
import Foundation

/// A second read-only connection to a store read in place, which reads one half of a scan of a whole table on
/// the other core while the request's own connection reads the other half (`halves`), in the very snapshot of
/// that request. A scan of a million rows (a new search's total, the first sort of an unindexed attribute) is
/// bound by SQLite stepping through the table's pages on one core; split by primary key it takes about half.
///
/// **The same snapshot, proven.** SQLite has no public way to open a transaction on another connection's snapshot
/// (`sqlite3_snapshot_open` needs a compile option the system SQLite of Debian lacks). Instead the partner reads
/// `PRAGMA data_version` outside any transaction when it opens and after each of its parts, and notes the instant
/// after each reading; when its next part begins its transaction, it reads the version again. Two readings on one
/// connection differ when another connection committed in between
/// (https://www.sqlite.org/pragma.html#pragma_data_version). So when the earlier reading came before the request's
/// transaction began (`SQLiteConnection.readTransactionStart`) and the two are equal, nothing was committed from
/// before the request's snapshot to after the partner's: the two are the same snapshot. Otherwise (the app wrote
/// meanwhile, a second scan in one request) the partner reads nothing and the request's connection reads that half
/// itself, after its own: the answer is always the request's snapshot's, only slower. The same holds when the
/// partner cannot read at all (its busy timeout is 0: in a rollback-journal store an app waiting to commit holds
/// SQLite's PENDING lock, which refuses new readers, and the request must not hold the app up for longer).
///
/// - Only for stores read in place (a private snapshot's files are replaced as the original changes, and a
///   second connection could outlive them); a store opened for writes too, whose own commits the partner sees as
///   another connection's (so the first scan after a write reads on one connection).
/// - An explained request (`StatementTrace`) reads both halves on its own connection, one after the other, so
///   `/explain` shows every statement.
/// - The partner's statements stop with the request's (`QueryInterruption`), and a request always waits for its
///   partner's part before it returns, failed or not: nothing outlives the call.
final class ScanPartner: @unchecked Sendable {
    // @unchecked: `connection`, `versionBefore`, `versionReadAt`, `parts` and `beforeEachPart` are confined to `queue`;
    // `minimumRowsValue` is behind `lock`.

    /// The halves' share of a table: `table."Z_PK" <= ?` (the request's connection) or `> ?` (the partner's).
    struct KeyRange: Sendable {
        let condition: String
        let arguments: [SQLiteValue]

        /// A WHERE clause (" WHERE …", or "" for none) with this range added.
        func adding(to whereClause: String) -> String {
            whereClause.isEmpty ? " WHERE " + condition : whereClause + " AND " + condition
        }
    }

    /// Below this many rows a table is read on one connection: the hand-over costs more than half its scan.
    static let defaultMinimumRows = 50_000

    private let queue = DispatchQueue(label: "BrowserSQLite.ScanPartner")
    private let connection: SQLiteConnection
    /// `PRAGMA data_version` read outside a transaction, when the partner opened or after its last part ended;
    /// `Int64.min` when that reading failed (the next part then reads nothing).
    private var versionBefore: Int64
    /// An instant (`DispatchTime` uptime nanoseconds) just after `versionBefore` was read.
    private var versionReadAt: UInt64
    /// How many parts were read, and how many found another snapshot and read nothing (tests).
    private var parts = (read: 0, refused: 0)
    /// Tests: runs on the partner's queue before each part begins its transaction (a commit placed there lands
    /// between the request's snapshot and the partner's).
    private var beforeEachPart: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var minimumRowsValue = ScanPartner.defaultMinimumRows

    /// Opens the partner's connection and takes its first reading of the data version: this must happen before
    /// any request it helps begins its transaction, so it is done when its lane of the read pool opens.
    init(path: String, prepare: (SQLiteConnection) throws(SQLiteError) -> Void) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path, readOnly: true)
        // Never wait for a lock: a part that cannot read at once is read by the request's connection instead.
        sqlite3_busy_timeout(connection.handle, 0)
        try prepare(connection)
        versionBefore = try connection.scalar("PRAGMA data_version")?.int64 ?? .min
        versionReadAt = DispatchTime.now().uptimeNanoseconds
    }

    /// The fewest rows (a key span, or an entity's count) worth splitting; tests lower it.
    var minimumRows: Int {
        get { lock.withLock { minimumRowsValue } }
        set { lock.withLock { minimumRowsValue = newValue } }
    }

    /// Reads `part` over the lower half of `table`'s primary keys on `connection` (the request's, inside its read
    /// transaction) and over the upper half on the partner's connection, at the same time and in the same
    /// snapshot. Nil when the table's keys span fewer than `minimumSpan` values: the caller reads it whole.
    func halves<T: Sendable>(of table: String, in connection: SQLiteConnection, minimumSpan: Int,
                             _ part: @escaping @Sendable (SQLiteConnection, KeyRange) throws -> T) throws -> (lower: T, upper: T)? {
        let bounds = try connection.rows("SELECT (SELECT min(\"Z_PK\") FROM \(table)), (SELECT max(\"Z_PK\") FROM \(table))")
        guard let low = bounds.first?[0].int64, let high = bounds.first?[1].int64, high - low >= max(Int64(minimumSpan), 1) else {
            return nil
        }
        let middle = low + (high - low) / 2
        let lower = KeyRange(condition: "\(table).\"Z_PK\" <= ?", arguments: [.integer(middle)])
        let upper = KeyRange(condition: "\(table).\"Z_PK\" > ?", arguments: [.integer(middle)])
        if connection.trace != nil {
            connection.trace?.note("Read in two halves of the primary key (up to \(middle), then after it), which a request "
                + "that is not explained reads at the same time on two connections in the same snapshot.")
            return (try part(connection, lower), try part(connection, upper))
        }
        let outcome = PartOutcome<T>()
        let interruption = connection.interruption
        let transactionStart = connection.readTransactionStart
        queue.async {
            outcome.finish(Result {
                try self.readInSameSnapshot(upper, transactionStart: transactionStart, interruption: interruption, part)
            })
        }
        let lowerResult = Result { try part(connection, lower) }
        let upperResult = outcome.wait()
        let lowerValue = try lowerResult.get()
        // Another snapshot: this connection reads the upper half itself, in its own.
        guard let upperValue = try upperResult.get() else { return (lowerValue, try part(connection, upper)) }
        return (lowerValue, upperValue)
    }

    /// On the partner's queue: `part` in a read transaction whose snapshot is the request's, or nil when that is not
    /// proven (see the type's note) or the partner could not read. Throws only when the request was stopped.
    private func readInSameSnapshot<T>(_ range: KeyRange, transactionStart: UInt64?, interruption: QueryInterruption?,
                                       _ part: (SQLiteConnection, KeyRange) throws -> T) throws -> T? {
        beforeEachPart?()
        connection.interruption = interruption
        defer {
            connection.interruption = nil
            // Outside a transaction again: the reading the next part compares with (taken before the next request
            // begins, since the request waits for this part).
            versionBefore = (try? connection.scalar("PRAGMA data_version")?.int64) ?? .min
            versionReadAt = DispatchTime.now().uptimeNanoseconds
        }
        guard let transactionStart, versionReadAt < transactionStart else {
            parts.refused += 1
            return nil
        }
        do {
            try connection.execute("BEGIN")
            guard try connection.scalar("PRAGMA data_version")?.int64 == versionBefore else {
                parts.refused += 1
                try? connection.execute("ROLLBACK")
                return nil
            }
            let value = try part(connection, range)
            try connection.execute("COMMIT")
            parts.read += 1
            return value
        } catch {
            try? connection.execute("ROLLBACK")
            // A stopped request ends here too; any other failure (a lock it may not wait for, a file error) leaves
            // the half to the request's connection, whose own error, if any, is the one to report.
            if interruption?.reason != nil { throw error }
            parts.refused += 1
            return nil
        }
    }

    /// Tests: how many parts were read, and how many found another snapshot, so far.
    func partCounts() -> (read: Int, refused: Int) { queue.sync { parts } }

    /// Tests: see `beforeEachPart`.
    func setBeforeEachPart(_ hook: (@Sendable () -> Void)?) { queue.sync { beforeEachPart = hook } }

    /// The partner's answer, handed from its queue to the waiting request.
    private final class PartOutcome<T: Sendable>: @unchecked Sendable {
        // @unchecked: `result` is written once before `done` is signalled and read only after waiting on it.
        private var result: Result<T?, any Error>?
        private let done = DispatchSemaphore(value: 0)

        func finish(_ result: Result<T?, any Error>) {
            self.result = result
            done.signal()
        }

        func wait() -> Result<T?, any Error> {
            done.wait()
            return result!
        }
    }
}
