import BrowserCore

/// How one page of records is read, and why: decided here, in one place, from the query, the table's indexes
/// (`EntityMapping.orderedColumns`, read into the catalog when the store opens) and what `ReadCache` holds.
/// `RecordReader.page` carries the plan out; the caches only store.
///
/// The routes, cheapest first:
/// - **Key checkpoints** — primary-key order with no filter or scope, at least two strides from the start: seek to
///   the nearest kept key (`KeyCheckpoints`, every 256th key) and skip fewer than 256 rows, instead of stepping
///   over every row before `OFFSET`.
/// - **Index checkpoints** — one indexed attribute, no filter or scope, at least two strides from the start,
///   once its checkpoints are kept (`IndexCheckpoints`, every 256th value and key in the index's order): seek in
///   the index to the nearest one and step over fewer than 256 entries. The first deep request of that sort is
///   plain SQL through the index (SQLite steps over the entries before `OFFSET`) and asks for the checkpoints,
///   built in the background.
/// - **Kept order** — one unindexed attribute, no filter or scope, whose order is kept (`SortedKeys`): a slice of
///   keys and one `Z_PK IN (…)` lookup.
/// - **SQL** — everything else: one query with `LIMIT` and `OFFSET`. A sort by a to-many relationship's count
///   (`books.@count`, any key) always comes here: SQLite counts each matching row's related rows and sorts the keys. With one attribute that an index orders (a
///   Core Data fetch index), SQLite walks the index: no sort, no kept order (it would cost a full read of the
///   table to save nothing). When SQLite has to sort, it sorts the keys alone (`SELECT Z_PK … ORDER BY … LIMIT`)
///   and the page's records are read by key after: its top-N sorter builds a record of every selected column for
///   every row it looks at (the books' covers and summaries too), about a tenth of the sort's time on the
///   benchmark's store. A sort of the whole entity by an unindexed attribute with no kept order yet also asks for
///   that order: `KeptOrderBuilder` builds it in the background once this read has ended, so no request pays for
///   it; the pages after it read by key.
/// - **Sorted in halves** — SQLite must sort a whole entity of at least `ScanPartner.minimumRows` rows (no kept
///   order yet: the first requests of a sort), the page lies within its first `halvesMaximumRows` rows and the store
///   has a `ScanPartner`: each half of the table's primary keys is sorted at the same time, on its own core and
///   connection in the request's snapshot, for its first `offset + limit` keys; the page is the same slice of
///   those keys sorted once more (`Z_PK IN (…)`, SQLite's order), then read by key. The full scan is the floor of
///   a first sort; split in two it takes about half.
///
/// - **Search scan** — a new search of one text attribute (`CONTAINS[cd]`, the search box; its total not kept yet)
///   in primary-key order, the page within the first `halvesMaximumRows` matches: one read of the column
///   (`SearchCounting`, in two halves at once with a `ScanPartner`) gives the total and the page's keys together.
///   Instead of reading the page in SQL and then counting, which scanned the table twice for a common word and,
///   for a rare one, once through one SQL function call per row on one core.
///
/// The total (`PagePlan.Total`): an unfiltered list's is the entity's count (kept until the data changes). A
/// filtered or scoped list's is kept by its SQL until the data changes; else a short, non-empty page (or an empty
/// first page) is the total, read in the same transaction (a search with fewer matches than a page scans the table
/// once, not twice); else it is counted: a search of one text attribute (the search box) by `SearchCounting` (the
/// column alone, folded and matched as it is read, in two halves at once with a `ScanPartner`), any other filter
/// by `SELECT COUNT(*)`.
struct PagePlan {
    enum Route {
        case checkpoints
        case indexCheckpoints(IndexCheckpoints)
        case keptOrder(SortedKeys)
        /// One SQL query with LIMIT and OFFSET. `keysFirst`: SQLite sorts (no index orders the first key), so it
        /// sorts the keys alone and the page's records are then read by key.
        case sql(keysFirst: Bool)
        /// SQLite sorts each half of the table's keys for the first `offset + limit`, at once on two connections.
        case sortedInHalves
        /// One read of the searched column gives the total and the page's keys.
        case searchScan(SearchCounting)
    }

    /// How a filtered or scoped list's total is counted when it has to be.
    enum Counting {
        /// One read of the searched column (`SearchCounting`).
        case searchScan(SearchCounting)
        /// `SELECT COUNT(*)` with the list's conditions.
        case countQuery
    }

    /// How the page's total is obtained.
    enum Total {
        /// The entity's count, kept until the data changes: the list is neither filtered nor scoped. (A kept
        /// order's key count on that route: the same rows.)
        case entityCount
        /// The route's own read counts it (`Route.searchScan`), and it is kept for the list's later pages.
        case sameRead
        /// Kept by the list's SQL from an earlier page (`kept`, until the data changes); else a short, non-empty
        /// page (or an empty first page) is the total; else counted.
        case filtered(kept: Bool, counting: Counting)
    }

    var route: Route
    var total: Total
    /// What to build in the background once this read ends (`KeptOrderBuilder`), if anything.
    var toBuild: (kind: SortedKeys.Request.Kind, key: SortedKeys.Key)?
    /// Why the page is read this way, in words (`/api/…/explain` shows it).
    var reason: String
}

enum PagePlanner {
    /// The deepest page (`offset + limit`) sorted in halves: each half hands over that many keys, sorted once more
    /// in one `IN (…)` (Apple's SQLite binds at most 32,766 values).
    static let halvesMaximumRows = 2_000

    /// The plan for `query`'s page. `rowCount` is the entity's count when the list is unfiltered and unscoped (it
    /// is the page's total then), nil otherwise. `partnerMinimumRows`: the store's `ScanPartner.minimumRows`, nil
    /// when it has no partner. `totalKept`: a filtered list's total is kept from an earlier page.
    static func plan(_ query: RecordQuery, of entity: EntityMapping, rowCount: Int?, cache: ReadCache,
                     partnerMinimumRows: Int? = nil, totalKept: Bool = false) -> PagePlan {
        let searchCounting = searchCounting(query, of: entity)
        let total: PagePlan.Total = query.isWholeEntity
            ? .entityCount : .filtered(kept: totalKept, counting: searchCounting.map(PagePlan.Counting.searchScan) ?? .countQuery)
        return route(query, of: entity, rowCount: rowCount, cache: cache, partnerMinimumRows: partnerMinimumRows,
                     newSearch: totalKept ? nil : searchCounting, total: total)
    }

    /// The route of `query`'s page (`newSearch`: the search's `SearchCounting` when its total is not kept yet),
    /// with `total` unless the route's read gives it.
    private static func route(_ query: RecordQuery, of entity: EntityMapping, rowCount: Int?, cache: ReadCache,
                              partnerMinimumRows: Int?, newSearch: SearchCounting?, total: PagePlan.Total) -> PagePlan {
        let stride = KeyCheckpoints.stride
        let wholeEntity = query.isWholeEntity
        if query.sortKeys.isEmpty, query.offset + query.limit <= Self.halvesMaximumRows, let counting = newSearch {
            let halves = partnerMinimumRows.map { " (in two halves of the primary key at once, on two connections in the "
                + "same snapshot, when the table has at least \($0) keys)" } ?? ""
            return PagePlan(route: .searchScan(counting), total: .sameRead, reason: "Page: a new search in primary-key order: one read of "
                + "\(counting.column)\(halves), folded and matched as it is read, gives the total and the page's keys together; "
                + "the page's records are then read by key.")
        }
        let sortsKeys = "Page: one SQL query with LIMIT and OFFSET; SQLite sorts "
        guard let sort = query.sortKeys.first else {
            if wholeEntity, query.offset >= 2 * stride {
                return PagePlan(route: .checkpoints, total: total, reason: "Page: primary-key order far from the start, so it starts from a "
                    + "kept key (every \(stride)th key of \(entity.name) is kept) instead of stepping over the \(query.offset) rows before it.")
            }
            let order = query.scope?.isOrdered == true ? "in the relationship's order" : "in primary-key order"
            return PagePlan(route: .sql(keysFirst: false), total: total, reason: "Page: one SQL query with LIMIT and OFFSET, \(order).")
        }
        if query.sortKeys.contains(where: \.countsRelationship) {
            // A count is no column: no index orders by it and no kept order holds it (it changes with the related
            // rows, not the entity's), so SQLite computes it per matching row and sorts the keys.
            return PagePlan(route: .sql(keysFirst: true), total: total, reason: sortsKeys + "the matching rows' keys by "
                + query.sortKeys.map(\.keyPath).joined(separator: ", ") + " (each relationship's count is one COUNT(*) "
                + "of its related rows per row: no index or kept order holds a count), then reads the page's records by key.")
        }
        guard let column = entity.attribute(named: sort.attribute)?.column else {
            return PagePlan(route: .sql(keysFirst: false), total: total, reason: "Page: one SQL query with LIMIT and OFFSET (\(sort.attribute) has no column, so it does not order the rows).")
        }
        let indexed = entity.isIndexed(column)
        let throughIndex = "Page: one SQL query with LIMIT and OFFSET; an index orders \(entity.name) by \(sort.attribute), "
            + "so SQLite reads the page in that order without sorting"
        // Kept structures are of one attribute, its keys tied by the primary key in the same direction
        // (`query.tieBreak` is the tie-breaker's direction, the first key's unless a client set it apart).
        guard wholeEntity, query.sortKeys.count == 1, sort.order == query.tieBreak, let rowCount else {
            return indexed ? PagePlan(route: .sql(keysFirst: false), total: total, reason: throughIndex + ".")
                : PagePlan(route: .sql(keysFirst: true), total: total, reason: sortsKeys + "the matching rows' keys, then reads the page's records by key.")
        }
        let key = SortedKeys.Key(entity: entity.name, column: column)
        // SQLite sorts: in two halves at once when the entity is large and the page near enough to the start.
        let sortedInHalves = partnerMinimumRows.map { rowCount >= $0 && query.offset + query.limit <= Self.halvesMaximumRows } ?? false
        func sorting(_ reason: String, toBuild: (kind: SortedKeys.Request.Kind, key: SortedKeys.Key)? = nil) -> PagePlan {
            guard sortedInHalves else { return PagePlan(route: .sql(keysFirst: true), total: total, toBuild: toBuild, reason: sortsKeys + reason) }
            return PagePlan(route: .sortedInHalves, total: total, toBuild: toBuild, reason: "Page: SQLite sorts each half of \(entity.name)'s "
                + "primary keys at the same time, on two connections in the same snapshot (one core each), for the first "
                + "\(query.offset + query.limit) keys; the page's keys are taken from those, and its records read by key."
                + (toBuild == nil ? "" : " The order of \(entity.name) by \(sort.attribute) is now built in the background, "
                    + "and later pages of this sort read by key."))
        }
        if indexed {
            guard query.offset >= 2 * stride else { return PagePlan(route: .sql(keysFirst: false), total: total, reason: throughIndex + ".") }
            if let checkpoints = cache.indexCheckpoints(key) {
                return PagePlan(route: .indexCheckpoints(checkpoints), total: total, reason: "Page: far from the start of \(entity.name) in "
                    + "\(sort.attribute) order, so it starts from a kept row of the index (every \(stride)th value and key is kept) "
                    + "instead of stepping over the \(query.offset) entries before it.")
            }
            return PagePlan(route: .sql(keysFirst: false), total: total, toBuild: (.indexCheckpoints, key), reason: throughIndex + ", stepping over the "
                + "\(query.offset) entries before the page; every \(stride)th row of that order is now kept in the background, "
                + "so later deep pages of this sort start near theirs.")
        }
        if let kept = cache.keptOrder(key) {
            return PagePlan(route: .keptOrder(kept), total: total, reason: "Page: the keys of \(entity.name) in \(sort.attribute) order are kept in "
                + "memory (\(kept.keys.count) keys, built in the background after the first request of this sort); the page is read by key.")
        }
        guard rowCount <= SortedKeys.maximumRows else {
            return sorting("every row's key, then reads the page's records by key (\(entity.name) has more than "
                + "\(SortedKeys.maximumRows) rows, too many to keep their order in memory).")
        }
        return sorting("every row's key, then reads the page's records by key. The order of \(entity.name) by "
            + "\(sort.attribute) is now built in the background, and later pages of this sort read by key.", toBuild: (.order, key))
    }

    /// How a searched list's count is read when it is counted (see the total above): `SearchCounting` for a
    /// search alone (no predicate, no scope) of one stored text attribute of the entity, nil for `SELECT COUNT(*)`.
    static func searchCounting(_ query: RecordQuery, of entity: EntityMapping) -> SearchCounting? {
        guard query.scope == nil, query.filter == nil, let search = query.search, let name = search.singleAttribute,
              let attribute = entity.attribute(named: name), attribute.kind.attributeType == .string,
              let column = attribute.column
        else { return nil }
        return SearchCounting(column: column, foldedNeedle: Array(TextFolding.fold(search.text, options: .caseAndDiacriticInsensitive).utf8))
    }
}
