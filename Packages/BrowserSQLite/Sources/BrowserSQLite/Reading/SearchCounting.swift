import BrowserCore
import CSQLite
import Dispatch

/// Counts the rows whose text column contains a folded needle (`CONTAINS[cd]`, the search box's filter) in two
/// stages on two threads: the store's queue steps SQLite through the column alone and copies each text into a
/// batch; a queue of its own folds and matches the batches (`FoldedContainsFunction.contains`, the very test
/// `cdb_contains` runs in SQL, so the count is exactly `SELECT COUNT(*) … WHERE cdb_contains(column, ?)`'s).
///
/// Why: a new search's total is a scan of the whole table. In SQL, SQLite stepping the rows takes about 55% of
/// it and the fold and match (through one SQL function call per row) about 35%, one after the other on one
/// core. Here the two overlap on a 2-core machine, and no SQL function is called per row.
///
/// Bounds: at most `batchesInFlight` batches of about `batchBytes` bytes are handed over at once (memory), and a stopped
/// request (`QueryInterruption`: SQLite's step fails) waits for the batches already handed over before it
/// returns, so nothing outlives the call.
struct SearchCounting {
    let column: String
    let foldedNeedle: [UInt8]
    /// A batch is handed over once it holds this many bytes of text (tests make it small to cross many batches).
    var batchBytes = 256 * 1024

    static let batchesInFlight = 3

    private static let matching = DispatchQueue(label: "BrowserSQLite.SearchCounting")

    /// The rows of `table` matching `condition` (the entity's rows, or nil for all) whose column contains the
    /// needle, read in the caller's read transaction.
    func count(table: String, condition: String?, arguments: [SQLiteValue], in connection: SQLiteConnection) throws -> Int {
        let statement = try connection.prepare(
            "SELECT \(quoteIdentifier(column)) FROM \(table)" + (condition.map { " WHERE " + $0 } ?? ""))
        try statement.bind(arguments)

        let slots = DispatchSemaphore(value: Self.batchesInFlight)
        let group = DispatchGroup()
        let total = MatchCount()
        let needle = foldedNeedle
        func handOver(_ bytes: [UInt8], _ ends: [Int]) {
            slots.wait()
            group.enter()
            Self.matching.async {
                var matches = 0
                bytes.withUnsafeBytes { bytes in
                    needle.withUnsafeBytes { needle in
                        var start = 0
                        for end in ends {
                            if FoldedContainsFunction.contains(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), needle) {
                                matches += 1
                            }
                            start = end
                        }
                    }
                }
                total.add(matches)
                slots.signal()
                group.leave()
            }
        }

        var bytes: [UInt8] = []
        var ends: [Int] = []
        bytes.reserveCapacity(batchBytes + 1024)
        do {
            defer { group.wait() }
            while try statement.step() {
                // NULL and non-text values never match (`cdb_contains` answers 0 for them). The text as UTF-8, as
                // SQLite hands it to a function registered for UTF-8.
                guard statement.storageClass(at: 0) == SQLITE_TEXT else { continue }
                if let text = sqlite3_column_text(statement.handle, 0) {
                    bytes.append(contentsOf: UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement.handle, 0))))
                }
                ends.append(bytes.count)
                if bytes.count >= batchBytes {
                    handOver(bytes, ends)
                    bytes.removeAll(keepingCapacity: true)
                    ends.removeAll(keepingCapacity: true)
                }
            }
            if !ends.isEmpty { handOver(bytes, ends) }
        }
        return total.value
    }

    /// The running sum of the batches' matches (added on the matching queue, read after every batch ended).
    private final class MatchCount: @unchecked Sendable {
        private(set) var value = 0
        func add(_ count: Int) { value += count }
    }
}
