/// What a read may reuse from earlier reads while the store's data has not changed: entity counts and the
/// primary-key checkpoints of deep pages. Confined to the store's queue, like its connection.
///
/// **Invalidation.** `StoreConnection.read` calls `validate(dataVersion:)` at the start of every read transaction
/// with SQLite's `PRAGMA data_version`, which changes whenever another connection (the app, in another process or
/// not) has committed since this connection last looked (https://www.sqlite.org/pragma.html#pragma_data_version).
/// The pragma runs inside the read transaction, so the version and the rows read belong to the same snapshot. A
/// snapshot refresh replaces the connection, and with it the cache. Nothing cached outlives a change of the data.
///
/// Only answers that do not depend on the request's text are cached (no filtered counts, no rows), so the cache
/// stays small: one integer per entity, and one key per `KeyCheckpoints.stride` rows of an entity paged deeply.
final class ReadCache {
    private var dataVersion: Int64?
    private var counts: [String: Int] = [:]
    private var checkpoints: [String: KeyCheckpoints] = [:]

    /// Forgets everything when `dataVersion` differs from the one the cache was filled under.
    func validate(dataVersion: Int64) {
        guard dataVersion != self.dataVersion else { return }
        self.dataVersion = dataVersion
        reset()
    }

    func reset() {
        counts.removeAll()
        checkpoints.removeAll()
    }

    /// The cached count for `key`, or `compute`'s answer, remembered.
    func count(_ key: String, compute: () throws -> Int) rethrows -> Int {
        if let known = counts[key] { return known }
        let value = try compute()
        counts[key] = value
        return value
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
