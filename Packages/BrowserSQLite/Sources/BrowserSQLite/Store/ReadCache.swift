import BrowserCore

/// What a read may reuse from earlier reads while the store's data has not changed: entity counts, the counts
/// of recent searches, the primary-key checkpoints of deep pages and the order of the latest repeated sort.
/// Confined to the store's queue, like its connection.
///
/// **Invalidation.** `StoreConnection.read` calls `validate(dataVersion:)` at the start of every read transaction
/// with SQLite's `PRAGMA data_version`, which changes whenever another connection (the app, in another process or
/// not) has committed since this connection last looked (https://www.sqlite.org/pragma.html#pragma_data_version).
/// The pragma runs inside the read transaction, so the version and the rows read belong to the same snapshot. A
/// snapshot refresh replaces the connection, and with it the cache. Nothing cached outlives a change of the data.
///
/// No rows are cached, and the cache stays small: one integer per entity, one per recent search (at most
/// `filteredCountLimit`; paging through a search's results then does not count them again), one key per
/// `KeyCheckpoints.stride` rows of an entity paged deeply, and one `SortedKeys` (8 bytes a row, bounded there).
final class ReadCache {
    private var dataVersion: Int64?
    private var counts: [String: Int] = [:]
    private var checkpoints: [String: KeyCheckpoints] = [:]
    private var filteredCounts: [FilteredCountKey: Int] = [:]
    private var sortRequests: [SortedKeys.Key: Int] = [:]
    private var sorted: SortedKeys?

    /// How many search counts are kept; past it they are all forgotten (searches are typed, then paged).
    static let filteredCountLimit = 64

    /// A filtered list by its SQL: its WHERE clause and the bytes it binds. Not by its `RecordFilter`, whose
    /// strings compare by canonical equivalence ("é" == "e\u{301}" in Swift) where the SQL compares code points:
    /// two such filters match different rows.
    private struct FilteredCountKey: Hashable {
        var entity: String
        var condition: String
        var arguments: [SQLiteValue]
    }

    /// Forgets everything when `dataVersion` differs from the one the cache was filled under.
    func validate(dataVersion: Int64) {
        guard dataVersion != self.dataVersion else { return }
        self.dataVersion = dataVersion
        reset()
    }

    func reset() {
        counts.removeAll()
        checkpoints.removeAll()
        filteredCounts.removeAll()
        sortRequests.removeAll()
        sorted = nil
    }

    /// The cached count for `key`, or `compute`'s answer, remembered.
    func count(_ key: String, compute: () throws -> Int) rethrows -> Int {
        if let known = counts[key] { return known }
        let value = try compute()
        counts[key] = value
        return value
    }

    /// The cached number of records of `entity` matching `condition` (a filter's and scope's WHERE clause) with
    /// `arguments` bound, or `compute`'s answer, remembered.
    func filteredCount(_ entity: String, condition: String, arguments: [SQLiteValue],
                       compute: () throws -> Int) rethrows -> Int {
        let key = FilteredCountKey(entity: entity, condition: condition, arguments: arguments)
        if let known = filteredCounts[key] { return known }
        let value = try compute()
        if filteredCounts.count >= Self.filteredCountLimit { filteredCounts.removeAll() }
        filteredCounts[key] = value
        return value
    }

    /// The kept order for `key`, else `build`'s once the sort has been asked for
    /// `SortedKeys.requestsBeforeBuilding` times (nil before, or when `build` declines).
    func sortedKeys(_ key: SortedKeys.Key, build: () throws -> [Int64]?) rethrows -> SortedKeys? {
        if let sorted, sorted.key == key { return sorted }
        let requests = sortRequests[key, default: 0] + 1
        sortRequests[key] = requests
        guard requests >= SortedKeys.requestsBeforeBuilding, let keys = try build() else { return nil }
        // One order is kept: the one it replaces must be asked for twice again before it is rebuilt, so a client
        // switching between two sorts pays SQLite's top-N sort, not a full sort and build, on each switch.
        if let replaced = sorted?.key { sortRequests[replaced] = nil }
        sortRequests[key] = nil
        sorted = SortedKeys(key: key, keys: keys)
        return sorted
    }

    func checkpoints(_ key: String) -> KeyCheckpoints {
        checkpoints[key] ?? KeyCheckpoints()
    }

    func store(_ value: KeyCheckpoints, for key: String) {
        checkpoints[key] = value
    }
}

/// Every `stride`-th primary key of an entity's rows in primary-key order: `keys[i]` is the key of the row at
/// position `i * stride`. A deep page then seeks to a known key and skips fewer than `stride` rows, instead of
/// making SQLite step over every row before `OFFSET` (https://www.sqlite.org/lang_select.html#limitoffset): the
/// keyset idea, kept inside the reader so the API's `offset` keeps its meaning. Filled on demand, as far as the
/// deepest position asked for, by one scan of primary keys.
struct KeyCheckpoints {
    static let stride = 256

    var keys: [Int64] = []
    /// The scan reached the last row: positions past `keys.last` + its remainder have no row.
    var isComplete = false
}
