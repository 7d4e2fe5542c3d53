/// An entity's primary keys in the order of one unindexed attribute (`ORDER BY <column> ASC, Z_PK ASC`, SQLite's
/// own order: nulls first, BINARY strings), so that paging through such a sort stops costing a full scan and sort
/// per page.
///
/// Why: without an index, every `ORDER BY title LIMIT 100 OFFSET n` reads and sorts the whole table again
/// (about 110 ms for a million rows on a 2-core machine, and the same for every next page). The order is
/// computed once, by SQLite, on a connection of its own in the background (`KeptOrderBuilder`), and kept in
/// `ReadCache` until the data changes (`PRAGMA data_version`); a page is then a slice of keys and one
/// `WHERE Z_PK IN (…)` lookup. The descending order (`DESC, Z_PK DESC`, nulls last) is exactly the ascending one
/// reversed, so one array serves both.
///
/// Bounds: asked for by the first request of a sort (`PagePlanner`), built after that request has been answered,
/// only for entities of at most `maximumRows` rows (8 bytes a row: 16 MB at most), and only one is kept (the
/// latest sort) and one built at a time.
struct SortedKeys: Sendable {
    struct Key: Hashable, Sendable {
        var entity: String
        var column: String
    }

    /// What `KeptOrderBuilder` runs to build a kept structure of one attribute's order: the SQL selecting the
    /// entity's keys in that order (an order), or its values and keys (index checkpoints).
    struct Request: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// `SortedKeys`: every key (`SELECT Z_PK … ORDER BY column, Z_PK`).
            case order
            /// `IndexCheckpoints`: every stride-th value and key (`SELECT column, Z_PK … ORDER BY column, Z_PK`).
            case indexCheckpoints
        }
        var kind: Kind
        var key: Key
        var sql: String
        var arguments: [SQLiteValue]
        /// The entity's row count when it was asked for (the keys' array is reserved at this size).
        var expectedRows: Int
    }

    static let maximumRows = 2_000_000

    let key: Key
    /// Primary keys in ascending order of the attribute, then of the primary key.
    let keys: [Int64]

    /// The keys of the page at `offset`, in the requested order.
    func page(offset: Int, limit: Int, descending: Bool) -> [Int64] {
        guard offset < keys.count, limit > 0 else { return [] }
        let positions = offset..<min(offset + limit, keys.count)
        return descending ? positions.map { keys[keys.count - 1 - $0] } : Array(keys[positions])
    }
}
