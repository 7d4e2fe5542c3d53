import BrowserCore

/// What a read may reuse from earlier reads while the store's data has not changed: entity counts, the counts
/// of recent searches, the primary-key checkpoints of deep pages and the kept order of the latest unindexed sort.
/// It only stores: `PagePlanner` decides what is used and what is asked for. One per read connection
/// (`ReadPool`), confined to its lane's queue, like its connection.
///
/// **Invalidation.** `StoreConnection.read` calls `validate(dataVersion:)` at the start of every read transaction
/// with SQLite's `PRAGMA data_version`, which changes whenever another connection (the app, in another process or
/// not) has committed since this connection last looked (https://www.sqlite.org/pragma.html#pragma_data_version).
/// The pragma runs inside the read transaction, so the version and the rows read belong to the same snapshot. A
/// snapshot refresh resets the cache too. Nothing cached outlives a change of the data.
///
/// **Orders built in the background.** A kept order or index checkpoints are built on another connection
/// (`KeptOrderBuilder`) after the request that asked for them, whose `PRAGMA data_version` cannot be compared with
/// this connection's; they are kept only if the cache's `generation` (which moves with every reset) is still the
/// one they were asked under. Then no commit was seen between the request and the delivery, and any
/// commit after the request that the build may or may not have seen is seen by the next request's
/// `validate`, which drops the order before it serves: an order is never served for data it was not built from.
///
/// No rows are cached, and the cache stays small: one integer per entity, one per recent search (at most
/// `filteredCountLimit`; paging through a search's results then does not count them again), one per recently
/// shown record's relationship (at most `relatedCountLimit`), one key per `KeyCheckpoints.stride` rows of an
/// entity paged deeply (and of an indexed attribute's order, `IndexCheckpoints`), and one `SortedKeys` (8 bytes a
/// row, bounded there).
final class ReadCache {
    private var dataVersion: Int64?
    private var counts: [String: Int] = [:]
    private var checkpoints: [String: KeyCheckpoints] = [:]
    private var filteredCounts: [FilteredCountKey: Int] = [:]
    private var relatedCounts: [RelatedCountKey: Int] = [:]
    private var sorted: SortedKeys?
    private var indexCheckpoints: [SortedKeys.Key: IndexCheckpoints] = [:]
    /// What a request asked to be built, taken by the store once the request's read ends (`takeRequestedBuild`).
    private var requestedBuild: SortedKeys.Request?
    /// Moves whenever what is cached is forgotten: an order built for an older generation is not kept.
    private(set) var generation = 0

    /// How many search counts are kept; past it they are all forgotten (searches are typed, then paged).
    static let filteredCountLimit = 64
    /// How many relationship counts of records (a detail's) are kept; past it they are all forgotten.
    static let relatedCountLimit = 256

    /// One record's relationship.
    struct RelatedCountKey: Hashable {
        var entity: String
        var key: Int64
        var relationship: String
    }

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
        relatedCounts.removeAll()
        sorted = nil
        indexCheckpoints.removeAll()
        requestedBuild = nil
        generation += 1
    }

    /// The cached count for `key`, or `compute`'s answer, remembered.
    func count(_ key: String, compute: () throws -> Int) rethrows -> Int {
        if let known = counts[key] { return known }
        let value = try compute()
        counts[key] = value
        return value
    }

    /// The kept count of a filtered list, if it is kept.
    func keptFilteredCount(_ entity: String, condition: String, arguments: [SQLiteValue]) -> Int? {
        filteredCounts[FilteredCountKey(entity: entity, condition: condition, arguments: arguments)]
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

    /// The cached number of records a record reaches through a relationship, or `compute`'s answer, remembered.
    func relatedCount(_ key: RelatedCountKey, compute: () throws -> Int) rethrows -> Int {
        if let known = relatedCounts[key] { return known }
        let value = try compute()
        if relatedCounts.count >= Self.relatedCountLimit { relatedCounts.removeAll() }
        relatedCounts[key] = value
        return value
    }

    /// The kept order for `key`, if it is the one kept.
    func keptOrder(_ key: SortedKeys.Key) -> SortedKeys? {
        sorted?.key == key ? sorted : nil
    }

    /// The kept checkpoints of an indexed attribute's order, if any.
    func indexCheckpoints(_ key: SortedKeys.Key) -> IndexCheckpoints? {
        indexCheckpoints[key]
    }

    /// Keeps `order` (replacing the one kept) when it was asked for under the current `generation`; returns
    /// whether it was kept.
    @discardableResult
    func keep(_ order: SortedKeys, askedUnder generation: Int) -> Bool {
        guard generation == self.generation else { return false }
        sorted = order
        return true
    }

    /// Keeps `checkpoints` when they were asked for under the current `generation` (one set per indexed
    /// attribute: a few thousand entries each).
    @discardableResult
    func keep(_ checkpoints: IndexCheckpoints, askedUnder generation: Int) -> Bool {
        guard generation == self.generation else { return false }
        indexCheckpoints[checkpoints.key] = checkpoints
        return true
    }

    /// Records that `request`'s structure should be built once the current read ends.
    func requestBuild(_ request: SortedKeys.Request) {
        requestedBuild = request
    }

    /// What was asked to be built since the last call, if anything.
    func takeRequestedBuild() -> SortedKeys.Request? {
        defer { requestedBuild = nil }
        return requestedBuild
    }

    func checkpoints(_ key: String) -> KeyCheckpoints {
        checkpoints[key] ?? KeyCheckpoints()
    }

    func store(_ value: KeyCheckpoints, for key: String) {
        checkpoints[key] = value
    }
}
