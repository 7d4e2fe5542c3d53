/// An entity's primary keys in the order of one attribute (`ORDER BY <column> ASC, Z_PK ASC`, SQLite's own
/// order: nulls first, BINARY strings), so that paging through a sort by an unindexed attribute stops costing a
/// full scan and sort per page.
///
/// Why: without an index, every `ORDER BY title LIMIT 100 OFFSET n` reads and sorts the whole table again
/// (about 110 ms for a million rows on a 2-core machine, and the same for every next page). The order is
/// computed once, by SQLite, and kept in `ReadCache` until the data changes (`PRAGMA data_version`); a page is
/// then a slice of keys and one `WHERE Z_PK IN (…)` lookup. The descending order (`DESC, Z_PK DESC`, nulls last)
/// is exactly the ascending one reversed, so one array serves both.
///
/// Bounds: it is built only when the same attribute is asked for a second time while the data is unchanged (a
/// sort looked at once costs no more than SQLite's top-N sort), only for entities of at most `maximumRows` rows
/// (8 bytes a row: 16 MB at most), and only one is kept (the latest sort).
struct SortedKeys {
    struct Key: Hashable {
        var entity: String
        var column: String
    }

    /// Requests for one sort (unchanged data) before its order is computed and kept.
    static let requestsBeforeBuilding = 2
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
