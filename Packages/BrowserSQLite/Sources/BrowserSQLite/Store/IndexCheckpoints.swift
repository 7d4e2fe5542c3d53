/// Every `KeyCheckpoints.stride`-th row of an entity in the order of an indexed attribute (`ORDER BY <column>
/// ASC, Z_PK ASC`, the index's own order): its value and primary key. A deep page of that sort then seeks in the
/// index to a kept row and steps over fewer than `stride` entries, instead of SQLite stepping over every entry
/// before `OFFSET` (about 900,000 for the page at offset 900,000: several milliseconds even in the index).
///
/// Built whole in the background (`KeptOrderBuilder`: one walk of the index, which covers the value and the key)
/// after the first deep request of that sort, kept in `ReadCache` until the data changes; small: one value and
/// key per `stride` rows (about 4,000 entries for a million rows).
struct IndexCheckpoints: Sendable {
    struct Entry: Sendable {
        var value: SQLiteValue
        var key: Int64
    }

    let key: SortedKeys.Key
    /// `entries[i]` is the row at ascending position `i * KeyCheckpoints.stride`.
    let entries: [Entry]
    /// The entity's rows when they were taken.
    let rowCount: Int
}
