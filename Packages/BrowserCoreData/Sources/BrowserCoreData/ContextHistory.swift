#if canImport(CoreData)
import BrowserCore
import CoreData

/// Reads the live store's persistent history for a `HistoryQuery`, inside the reading context's `perform`, with
/// the semantics the store-file reader defines (BrowserSQLite's `HistoryReader`): transactions newest first
/// before a number, oldest first after one, or one by number; filtered by author and context name (exact) and by
/// entity (only transactions that changed one of the query's entities, and only those changes listed); each
/// transaction's changes paged by `changeOffset`/`changeLimit`, `changeCount` counting them all.
///
/// Core Data's history fetch cannot be sorted (see `HistoryRequests`), so a page is gathered in windows of
/// transaction numbers, walking away from the cursor: each window starts at the nearest matching transaction
/// (found by one-row probes, so purged or sparse stretches cost a few probes, not a read) and spans at most
/// `maximumWindow` numbers of transactions fetched **without their changes**. A transaction's changes are read
/// apart, only the page's (`HistoryRequests.changes(of:after:…)`: the changes after the previous transaction, with
/// the page's offset and limit), and `changeCount` is counted by the store, so however large a transaction (a bulk
/// import of 100,000 changes) only `changeLimit` of its changes are built. The author and context filters are
/// predicates on transactions, the entity filter a predicate on changes (`changedEntity == …` for each of the
/// query's entities, which BrowserCore lists with their sub-entities; the comparison is exact): whether a transaction changed one of the entities is a count, so a filter on a
/// rarely changed entity costs a few requests per transaction of each window, and no memory.
enum ContextHistory {
    /// At most this many transaction numbers in one window (and so transactions, without their changes, in memory).
    static let maximumWindow: Int64 = 1_024
    /// The author and context menus list the names of this many newest transactions (Core Data's history fetch
    /// has no DISTINCT), plus those of the page, at most `maximumNames` of each.
    static let namesScanned = 1_000
    static let maximumNames = 200

    static let trackingOff = "History tracking is off for this store, so Core Data keeps no history of its changes. "
        + "Turn it on in the app before the store is loaded: "
        + "storeDescription.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey). "
        + "Transactions are recorded from then on."
    static let noStore = "The context is not connected to a persistent store yet, so there is no history to read."

    static func read(_ query: HistoryQuery, in context: NSManagedObjectContext) throws -> StoreHistory {
        let stores = context.persistentStoreCoordinator?.persistentStores ?? []
        guard !stores.isEmpty else { return .unavailable(noStore) }
        guard let store = stores.first(where: isTracked) else { return .unavailable(trackingOff) }
        var notes: [String] = []
        if stores.count > 1 {
            notes.append("The coordinator has \(stores.count) stores; this is the history of \(store.url?.lastPathComponent ?? store.identifier ?? "the first one that tracks it").")
        }

        let requests = HistoryRequests(store: store, author: query.author, contextName: query.contextName)
        // The model's descriptions of the entities filtered on (a name the model lacks matches nothing).
        let model = context.persistentStoreCoordinator?.managedObjectModel
        let entities = query.entities.map { names in Set(names).sorted().compactMap { model?.entitiesByName[$0] } }
        let touchesEntity: (NSPersistentHistoryTransaction) throws -> Bool = { transaction in
            guard entities != nil else { return true }
            let previous = try requests.previous(of: transaction.transactionNumber, in: context)
            return try requests.changeCount(of: transaction, after: previous, entities: entities, in: context) > 0
        }
        let wanted = query.limit + 1   // one more than the page says whether there are more
        let found: [NSPersistentHistoryTransaction]
        switch query.window {
        case .newestFirst(let before):
            found = try newest(below: before, count: wanted, requests: requests, keep: touchesEntity, in: context)
        case .oldestFirst(let after):
            found = try oldest(above: after, count: wanted, requests: requests, keep: touchesEntity, in: context)
        case .transaction(let number):
            let upper = number == Int64.max ? nil : number + 1
            found = try requests.transactions(from: number, below: upper, in: context).filter(touchesEntity)
        }
        let page = Array(found.prefix(query.limit))
        let transactions = try page.map { try transaction($0, query: query, entities: entities, requests: requests, in: context) }

        // Menus: the names of the newest transactions of every author and context, and those of this page (so
        // the name filtered on is listed even when it is older than the scan).
        let unfiltered = HistoryRequests(store: store, author: nil, contextName: nil)
        let scanned = try newest(below: nil, count: namesScanned + 1, requests: unfiltered, keep: { _ in true }, in: context)
        if scanned.count > namesScanned {
            notes.append("The author and context menus list the names found in the newest \(namesScanned) transactions.")
        }
        let named = scanned.prefix(namesScanned) + page
        return .page(HistoryPage(
            transactions: transactions, hasMore: found.count > query.limit,
            authors: names(named.compactMap(\.author)), contextNames: names(named.compactMap(\.contextName)), notes: notes))
    }

    /// Whether the store was added with `NSPersistentHistoryTrackingKey` set to true. Apple's sample sets it as
    /// `true as NSNumber`; a Swift `Bool` works as well, and both read back as an NSNumber.
    private static func isTracked(_ store: NSPersistentStore) -> Bool {
        (store.options?[NSPersistentHistoryTrackingKey] as? NSNumber)?.boolValue ?? false
    }

    /// Up to `count` kept transactions below `upper` (all, when nil), newest first: windows walking down from the
    /// nearest match, each at most `maximumWindow` numbers wide, doubling from `count`.
    private static func newest(below upper: Int64?, count: Int, requests: HistoryRequests,
                               keep: (NSPersistentHistoryTransaction) throws -> Bool,
                               in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
        var kept: [NSPersistentHistoryTransaction] = []
        var below = upper
        var span = min(Int64(count), maximumWindow)
        while kept.count < count, let top = try requests.largest(below: below, in: context) {
            let lower = top >= span ? top - span + 1 : 0
            let window = try requests.transactions(from: lower, below: top == Int64.max ? nil : top + 1, in: context)
            kept += try window.filter(keep).sorted { $0.transactionNumber > $1.transactionNumber }
            guard lower > 0 else { break }
            below = lower
            span = min(span * 2, maximumWindow)
        }
        return kept
    }

    /// Up to `count` kept transactions above `after`, oldest first: windows walking up.
    private static func oldest(above after: Int64, count: Int, requests: HistoryRequests,
                               keep: (NSPersistentHistoryTransaction) throws -> Bool,
                               in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
        guard after < Int64.max else { return [] }
        var kept: [NSPersistentHistoryTransaction] = []
        var from = after + 1
        var span = min(Int64(count), maximumWindow)
        while kept.count < count, let first = try requests.smallest(from: from, in: context) {
            let upper = first > Int64.max - span ? nil : first + span
            let window = try requests.transactions(from: first, below: upper, in: context)
            kept += try window.filter(keep).sorted { $0.transactionNumber < $1.transactionNumber }
            guard let upper else { break }
            from = upper
            span = min(span * 2, maximumWindow)
        }
        return kept
    }

    /// One transaction in BrowserCore's terms: its changes (of the query's entities) in the order Core Data
    /// numbered them, `changeOffset` on, at most `changeLimit`, and how many there are; only the page's are built.
    private static func transaction(_ transaction: NSPersistentHistoryTransaction, query: HistoryQuery,
                                    entities: [NSEntityDescription]?, requests: HistoryRequests,
                                    in context: NSManagedObjectContext) throws -> HistoryTransaction {
        let previous = try requests.previous(of: transaction.transactionNumber, in: context)
        let count = try requests.changeCount(of: transaction, after: previous, entities: entities, in: context)
        let shown = query.changeOffset < count
            ? try requests.changes(of: transaction, after: previous, entities: entities, offset: query.changeOffset,
                                   limit: query.changeLimit, in: context)
            : []
        return HistoryTransaction(
            number: transaction.transactionNumber, timestamp: transaction.timestamp, author: transaction.author,
            bundleID: nonEmpty(transaction.bundleID), processID: nonEmpty(transaction.processID),
            contextName: transaction.contextName, changes: try shown.compactMap(change), changeCount: count)
    }

    private static func change(_ change: NSPersistentHistoryChange) throws -> HistoryChange? {
        guard let kind = HistoryChange.Kind(rawValue: change.changeType.rawValue) else { return nil }
        var result = HistoryChange(kind: kind, id: try ManagedRecords.objectID(change.changedObjectID))
        if kind == .update, let properties = change.updatedProperties {
            result.changedProperties = properties.map(\.name).sorted()
        }
        if kind == .delete, let tombstone = change.tombstone, !tombstone.isEmpty {
            result.tombstone = values(of: tombstone, entity: change.changedObjectID.entity)
        }
        return result
    }

    /// The values Core Data kept of a deleted object (attributes marked "preserve after deletion"), converted by
    /// the attribute's type as a record's values are; null ones are left out, as the store-file reader does.
    private static func values(of tombstone: [AnyHashable: Any], entity: NSEntityDescription) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for (key, value) in tombstone {
            guard let name = key.base as? String, !(value is NSNull) else { continue }
            if let attribute = entity.attributesByName[name] {
                values[name] = ManagedRecords.value(value, of: attribute)
            } else {
                values[name] = .undecodable("\(name) is not an attribute of \(entity.name ?? "the entity") in the model")
            }
        }
        return values
    }

    private static func names(_ all: some Sequence<String>) -> [String] {
        Array(Set(all.filter { !$0.isEmpty }).sorted().prefix(maximumNames))
    }

    private static func nonEmpty(_ text: String) -> String? {
        text.isEmpty ? nil : text
    }
}

#endif
