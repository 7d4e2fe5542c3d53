#if canImport(CoreData)
import BrowserCore
import CoreData

/// The persistent-history requests the adapter runs on one store, through
/// `NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)` (iOS 13, macOS 10.15): transactions whose number lies
/// in a range, narrowed to an author and a context name (a predicate on the history's Transaction entity), fetched
/// **without their changes** (`.transactionsOnly`); and one transaction's changes, asked for as "the changes after
/// the previous transaction" (`fetchHistory(after:)`) with a Change fetch request's `fetchOffset` and `fetchLimit`
/// (`.changesOnly`), or only their number (`.count`: "The number of persistent history changes since the requested
/// date, token, or transaction", developer.apple.com/documentation/coredata/nspersistenthistoryresulttype). So a
/// transaction of 100,000 changes (a bulk import) is never built whole for a page of them. Everything runs inside
/// the reading context's `perform`.
///
/// What the requests never carry, and why:
/// - **Sort descriptors.** A history fetch is answered from Core Data's own Transaction table, and sort
///   descriptors on it are reported to raise `NSInvalidArgumentException` ("keypath transactionNumber not found
///   in entity TRANSACTION", also for `timestamp`) while the same key paths work in predicates (the GNUstep
///   Core Data port's history tests, checked against Apple's framework on macOS). An Objective-C exception
///   would end the app being inspected, so order comes from the transaction numbers, in Swift.
/// - **A `fetchLimit` that selects a page of transactions.** Without a sort, which rows a limit keeps is not
///   promised. For transactions a limit is only used where any match will do: the one-row probes of `exists`, which
///   decide whether a range holds a transaction (were Core Data to ignore it there, a probe would read its whole
///   range: slower, with the same answer); their pages are ranges of numbers, found by probes.
///
/// One transaction's changes are the exception (decision): no key of the Change entity that can be trusted in a
/// predicate orders them (`changeID` is not one of its attributes; its transaction's fields are reported
/// unpredictable there, `author != …` raising: Marzoli's PersistentHistoryTrackingKit tests, run against Apple's
/// framework), so their page is `fetchOffset`/`fetchLimit` of "the changes after the previous transaction", which
/// Core Data returns oldest first (the same tests), then ordered by `changeID` in Swift. If a store ever returned
/// them in another order, a page would hold other changes of the same transaction, never more than `limit`, and
/// `changeCount` stays exact. The macOS history-paging test holds both.
struct HistoryRequests {
    /// The store whose history is read (`affectedStores`): transaction numbers are per store.
    let store: NSPersistentStore
    /// Exact matches, in SQL (`author == …`, `contextName == …`); nil for any.
    let author: String?
    let contextName: String?

    // MARK: Transactions

    /// The transactions with `lower <= transactionNumber < upper` (nil: unbounded) that match the author and
    /// context, without their changes, in no particular order.
    func transactions(from lower: Int64?, below upper: Int64?,
                      in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
        let request = try transactionRequest(from: lower, below: upper, limit: nil, in: context)
        return try Self.execute(request, in: context) as? [NSPersistentHistoryTransaction] ?? []
    }

    /// Whether a matching transaction has a number in `lower ..< upper`: one row at most is read.
    func exists(from lower: Int64?, below upper: Int64?, in context: NSManagedObjectContext) throws -> Bool {
        let request = try transactionRequest(from: lower, below: upper, limit: 1, in: context)
        return !((try Self.execute(request, in: context) as? [NSPersistentHistoryTransaction]) ?? []).isEmpty
    }

    /// The largest matching number below `upper` (nil: the newest), by probes (`NumberProbes.largest`).
    func largest(below upper: Int64?, in context: NSManagedObjectContext) throws -> Int64? {
        try NumberProbes.largest(below: upper) { try exists(from: $0, below: $1, in: context) }
    }

    /// The smallest matching number at or above `lower`.
    func smallest(from lower: Int64, in context: NSManagedObjectContext) throws -> Int64? {
        try NumberProbes.smallest(from: lower) { try exists(from: $0, below: $1, in: context) }
    }

    // MARK: One transaction's changes

    /// The transaction just before `number` in this store, whoever wrote it (nil when `number` is the first): the
    /// point a request for `number`'s changes starts after.
    func previous(of number: Int64, in context: NSManagedObjectContext) throws -> NSPersistentHistoryTransaction? {
        let everyone = HistoryRequests(store: store, author: nil, contextName: nil)
        guard let found = try everyone.largest(below: number, in: context) else { return nil }
        return try everyone.transactions(from: found, below: found + 1, in: context).first
    }

    /// Changes of `transaction` (of `entities` only, when given), `offset` on, at most `limit`, in `changeID` order: the
    /// store is asked for the changes after `previous` with the Change fetch's `fetchOffset` and `fetchLimit`, so only
    /// a page is built; those of later transactions (the page ran past this one) are dropped.
    func changes(of transaction: NSPersistentHistoryTransaction, after previous: NSPersistentHistoryTransaction?,
                 entities: [NSEntityDescription]?, offset: Int, limit: Int,
                 in context: NSManagedObjectContext) throws -> [NSPersistentHistoryChange] {
        guard limit > 0 else { return [] }
        let request = try changeRequest(after: previous, entities: entities, counting: false, in: context)
        request.fetchRequest?.fetchOffset = offset
        request.fetchRequest?.fetchLimit = limit
        let found = try Self.execute(request, in: context) as? [NSPersistentHistoryChange] ?? []
        let number = transaction.transactionNumber
        return Array(found.filter { $0.transaction?.transactionNumber == number }.sorted { $0.changeID < $1.changeID }.prefix(limit))
    }

    /// How many changes `transaction` has (of `entities` only, when given): those after `previous` less those after
    /// `transaction`, both counted by the store (`.count`). A transaction saved between the two counts would be
    /// counted by one and not the other; the counts are taken newest first, so such a save can only make this one
    /// larger, and the next request is exact again.
    func changeCount(of transaction: NSPersistentHistoryTransaction, after previous: NSPersistentHistoryTransaction?,
                     entities: [NSEntityDescription]?, in context: NSManagedObjectContext) throws -> Int {
        let later = try count(try changeRequest(after: transaction, entities: entities, counting: true, in: context), in: context)
        let fromHere = try count(try changeRequest(after: previous, entities: entities, counting: true, in: context), in: context)
        return max(fromHere - later, 0)
    }

    private func count(_ request: NSPersistentHistoryChangeRequest, in context: NSManagedObjectContext) throws -> Int {
        let result = try Self.execute(request, in: context)
        if let count = result as? Int { return count }
        if let count = result as? NSNumber { return count.intValue }
        throw BrowserError.storeFailure("Core Data answered a history count with something other than a number")
    }

    // MARK: Requests

    private func transactionRequest(from lower: Int64?, below upper: Int64?, limit: Int?,
                                    in context: NSManagedObjectContext) throws -> NSPersistentHistoryChangeRequest {
        let fetch = try Self.fetch(NSPersistentHistoryTransaction.fetchRequest, "transaction",
                                   entity: { NSPersistentHistoryTransaction.entityDescription(with: context) })
        var conditions = Self.range("transactionNumber", from: lower, below: upper)
        if let author { conditions.append(Self.compare("author", .equalTo, author)) }
        if let contextName { conditions.append(Self.compare("contextName", .equalTo, contextName)) }
        fetch.predicate = conditions.isEmpty ? nil : NSCompoundPredicate(andPredicateWithSubpredicates: conditions)
        if let limit { fetch.fetchLimit = limit }
        return request(fetch, resultType: .transactionsOnly)
    }

    /// The changes after `previous` (all, when nil), through `fetchHistory(after:)` tailored by a fetch request on the Change entity
    /// (the API's documented way to narrow a history request, `NSPersistentHistoryChangeRequest.fetchRequest`). Its
    /// only predicate is `changedEntity == …` (OR-ed), a key shown to work against Apple's framework; a Change
    /// fetch's predicates on transaction fields are reported unpredictable or raising (`author != …`), and `changeID`
    /// is not among the Change entity's attributes, so a page is never selected by them.
    private func changeRequest(after previous: NSPersistentHistoryTransaction?, entities: [NSEntityDescription]?, counting: Bool,
                               in context: NSManagedObjectContext) throws -> NSPersistentHistoryChangeRequest {
        let fetch = try Self.fetch(NSPersistentHistoryChange.fetchRequest, "change",
                                   entity: { NSPersistentHistoryChange.entityDescription(with: context) })
        if let entities {
            let each = entities.map { Self.compare("changedEntity", .equalTo, $0) }
            fetch.predicate = each.isEmpty ? NSPredicate(value: false) : NSCompoundPredicate(orPredicateWithSubpredicates: each)
        }
        // Without a previous transaction, the whole history: "since" the earliest date there is.
        let request = previous.map { NSPersistentHistoryChangeRequest.fetchHistory(after: $0) }
            ?? NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast)
        request.fetchRequest = fetch
        request.resultType = counting ? .count : .changesOnly
        request.affectedStores = [store]
        return request
    }

    private func request(_ fetch: NSFetchRequest<any NSFetchRequestResult>,
                         resultType: NSPersistentHistoryResultType) -> NSPersistentHistoryChangeRequest {
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
        request.resultType = resultType
        request.affectedStores = [store]
        return request
    }

    private static func execute(_ request: NSPersistentHistoryChangeRequest, in context: NSManagedObjectContext) throws -> Any? {
        guard let result = try context.execute(request) as? NSPersistentHistoryResult else {
            throw BrowserError.storeFailure("Core Data answered the history request with something other than an NSPersistentHistoryResult")
        }
        return result.result
    }

    /// A fresh fetch request on one of the history's entities. `fetchRequest` is reported to be nil when Core Data
    /// cannot tell which model is meant (a coordinator not loaded by a persistent container); the entity asked for
    /// through the context is the documented way round it.
    private static func fetch(_ made: NSFetchRequest<any NSFetchRequestResult>?, _ what: String,
                              entity: () -> NSEntityDescription?) throws -> NSFetchRequest<any NSFetchRequestResult> {
        if let made { return made }
        guard let entity = entity() else {
            throw BrowserError.storeFailure("Core Data gave no entity for persistent-history \(what)s "
                + "(its fetchRequest and entityDescription(with:) are both nil)")
        }
        let fetch = NSFetchRequest<any NSFetchRequestResult>()
        fetch.entity = entity
        return fetch
    }

    /// `lower <= keyPath < upper`, each bound only when given.
    private static func range(_ keyPath: String, from lower: Int64?, below upper: Int64?) -> [NSPredicate] {
        var conditions: [NSPredicate] = []
        if let lower { conditions.append(compare(keyPath, .greaterThanOrEqualTo, NSNumber(value: lower))) }
        if let upper { conditions.append(compare(keyPath, .lessThan, NSNumber(value: upper))) }
        return conditions
    }

    /// `keyPath <operator> constant`, built from expressions (never a format string, as `FilterPredicate`).
    private static func compare(_ keyPath: String, _ type: NSComparisonPredicate.Operator, _ constant: Any) -> NSPredicate {
        NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: keyPath), rightExpression: NSExpression(forConstantValue: constant),
                              modifier: .direct, type: type, options: [])
    }
}

#endif
