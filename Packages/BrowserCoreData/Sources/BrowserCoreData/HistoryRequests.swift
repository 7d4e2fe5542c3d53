#if canImport(CoreData)
import BrowserCore
import CoreData

/// The persistent-history requests the adapter runs on one store, through
/// `NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)` (iOS 13, macOS 10.15): transactions whose number lies
/// in a range, narrowed to an author and a context name (a predicate on the history's Transaction entity), fetched
/// **without their changes** (`.transactionsOnly`); and one transaction's changes whose `changeID` lies in a range (a
/// predicate on the Change entity, `.changesOnly`), or only their number (`.count`: "The number of persistent
/// history changes", developer.apple.com/documentation/coredata/nspersistenthistoryresulttype). So a transaction
/// of 100,000 changes (a bulk import) is never built whole: a page of its changes is found by counts and fetched
/// by `changeID` range. Everything runs inside the reading context's `perform`.
///
/// What the requests never carry, and why:
/// - **Sort descriptors.** A history fetch is answered from Core Data's own Transaction table, and sort
///   descriptors on it are reported to raise `NSInvalidArgumentException` ("keypath transactionNumber not found
///   in entity TRANSACTION", also for `timestamp`) while the same key paths work in predicates (the GNUstep
///   Core Data port's history tests, checked against Apple's framework on macOS). An Objective-C exception
///   would end the app being inspected, so order comes from the transaction numbers, in Swift.
/// - **A `fetchLimit` that selects a page.** Without a sort, which rows a limit keeps is not promised. A limit is
///   only used where any match will do: the one-row probes of `exists`, which decide whether a range holds a
///   transaction. Were Core Data to ignore it there, a probe would read its whole range: slower, with the same
///   answer. Pages are ranges of numbers instead, found by probes and counts.
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

    /// The changes of transaction `number` with `lower <= changeID < upper` (nil: unbounded), in no particular order.
    func changes(of number: Int64, from lower: Int64?, below upper: Int64?,
                 in context: NSManagedObjectContext) throws -> [NSPersistentHistoryChange] {
        let request = try changeRequest(of: number, from: lower, below: upper, counting: false, in: context)
        return try Self.execute(request, in: context) as? [NSPersistentHistoryChange] ?? []
    }

    /// How many changes of transaction `number` have `lower <= changeID < upper`, counted by the store.
    func changeCount(of number: Int64, from lower: Int64?, below upper: Int64?,
                     in context: NSManagedObjectContext) throws -> Int {
        let request = try changeRequest(of: number, from: lower, below: upper, counting: true, in: context)
        let result = try Self.execute(request, in: context)
        if let count = result as? Int { return count }
        if let count = result as? NSNumber { return count.intValue }
        throw BrowserError.storeFailure("Core Data answered a history count with something other than a number")
    }

    /// The smallest `changeID` of transaction `number` at or above `lower`.
    func smallestChange(of number: Int64, from lower: Int64, in context: NSManagedObjectContext) throws -> Int64? {
        try NumberProbes.smallest(from: lower) { try changeCount(of: number, from: $0, below: $1, in: context) > 0 }
    }

    /// The `changeID` of the change at `position` (0 is the first) of transaction `number` in `changeID` order, found
    /// by counting the changes below candidate IDs (galloping, then halving: about 2·log2(position) counts); nil when
    /// the transaction has no more changes.
    func changeID(at position: Int, of number: Int64, in context: NSManagedObjectContext) throws -> Int64? {
        guard let first = try smallestChange(of: number, from: 0, in: context) else { return nil }
        guard position > 0 else { return first }
        // The answer is the smallest `x` with more than `position` changes in [first, x], so at least `first + position`.
        let more: (Int64) throws -> Bool = { try changeCount(of: number, from: first, below: $0, in: context) > position }
        var low = first + Int64(position)   // `more(low)` is false: [first, low) holds at most `position` changes
        var step: Int64 = 1
        var high = low
        while true {
            high = low > Int64.max - step ? Int64.max : low + step
            if try more(high) { break }
            if high == Int64.max { return nil }
            low = high
            step = step > Int64.max / 2 ? Int64.max : step * 2
        }
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if try more(middle) { high = middle } else { low = middle }
        }
        // [first, high) holds more than `position` changes and [first, low) does not, with high = low + 1.
        return low
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

    private func changeRequest(of number: Int64, from lower: Int64?, below upper: Int64?, counting: Bool,
                               in context: NSManagedObjectContext) throws -> NSPersistentHistoryChangeRequest {
        let fetch = try Self.fetch(NSPersistentHistoryChange.fetchRequest, "change",
                                   entity: { NSPersistentHistoryChange.entityDescription(with: context) })
        let conditions = [Self.compare("transaction.transactionNumber", .equalTo, NSNumber(value: number))]
            + Self.range("changeID", from: lower, below: upper)
        fetch.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: conditions)
        return request(fetch, resultType: counting ? .count : .changesOnly)
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
