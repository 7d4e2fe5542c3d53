/// Every `stride`-th primary key of an entity's rows in primary-key order: `keys[i]` is the key of the row at
/// position `i * stride`. A deep page then seeks to a known key and skips fewer than `stride` rows, instead of
/// making SQLite step over every row before `OFFSET` (https://www.sqlite.org/lang_select.html#limitoffset): the
/// keyset idea, kept inside the reader so the API's `offset` keeps its meaning. Filled on demand, as far as the
/// deepest position asked for, by one scan of primary keys (`PagePlanner` says when they serve a page).
struct KeyCheckpoints {
    static let stride = 256

    var keys: [Int64] = []
    /// The scan reached the last row: positions past `keys.last` + its remainder have no row.
    var isComplete = false
}
