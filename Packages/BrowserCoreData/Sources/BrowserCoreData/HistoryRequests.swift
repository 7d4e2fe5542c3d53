#if canImport(CoreData)
import BrowserCore
import CoreData

/// The persistent-history requests the adapter runs on one store: transactions whose number lies in a range,
/// narrowed to an author and a context name, through `NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)`
/// (iOS 13, macOS 10.15) and a predicate on the history's Transaction entity. Everything runs inside the reading
/// context's `perform`.
///
/// What the requests never carry, and why:
/// - **Sort descriptors.** A history fetch is answered from Core Data's own Transaction table, and sort
///   descriptors on it are reported to raise `NSInvalidArgumentException` ("keypath transactionNumber not found
///   in entity TRANSACTION", also for `timestamp`) while the same key paths work in predicates (the GNUstep
///   Core Data port's history tests, checked against Apple's framework on macOS). An Objective-C exception
///   would end the app being inspected, so order comes from the transaction numbers, in Swift.
/// - **A `fetchLimit` that selects a page.** Without a sort, which transactions a limit keeps is not promised.
///   A limit is only used where any match will do: the one-row probes of `exists`, which decide whether a range
///   holds a transaction. Were Core Data to ignore it there, a probe would read its whole range: slower, with
///   the same answer.
struct HistoryRequests {
    /// The store whose history is read (`affectedStores`): transaction numbers are per store.
    let store: NSPersistentStore
    /// Exact matches, in SQL (`author == …`, `contextName == …`); nil for any.
    let author: String?
    let contextName: String?

    /// The transactions with `lower <= transactionNumber < upper` (nil: unbounded) that match the author and
    /// context, with their changes when `changes` is true, in no particular order.
    func transactions(from lower: Int64?, below upper: Int64?, changes: Bool,
                      in context: NSManagedObjectContext) throws -> [NSPersistentHistoryTransaction] {
        let request = try self.request(from: lower, below: upper, limit: nil, changes: changes, in: context)
        guard let result = try context.execute(request) as? NSPersistentHistoryResult else {
            throw BrowserError.storeFailure("Core Data answered the history request with something other than an NSPersistentHistoryResult")
        }
        return result.result as? [NSPersistentHistoryTransaction] ?? []
    }

    /// Whether a matching transaction has a number in `lower ..< upper`: one row at most is read.
    func exists(from lower: Int64?, below upper: Int64?, in context: NSManagedObjectContext) throws -> Bool {
        let request = try self.request(from: lower, below: upper, limit: 1, changes: false, in: context)
        let result = try context.execute(request) as? NSPersistentHistoryResult
        return !((result?.result as? [NSPersistentHistoryTransaction]) ?? []).isEmpty
    }

    /// The largest matching number below `upper` (nil: the newest), found by probes: galloping away from
    /// `upper` (or up from 1 for the newest), then halving the range that holds it, so a neighbour `n` numbers
    /// away costs about 2·log2(n) one-row probes however long the history is.
    func largest(below upper: Int64?, in context: NSManagedObjectContext) throws -> Int64? {
        guard try exists(from: nil, below: upper, in: context) else { return nil }
        var low: Int64 = 0
        var high: Int64
        if let upper {
            // Gallop down: [upper-1, upper), [upper-3, upper-1), … until a range holds one.
            high = upper
            var step: Int64 = 1
            while true {
                low = high > step ? high - step : 0
                if try exists(from: low, below: high, in: context) { break }
                // Only reached when the app purged its history between two probes.
                if low == 0 { return nil }
                high = low
                step = step > Int64.max / 2 ? Int64.max : step * 2
            }
        } else {
            // Gallop up: the newest is at or above `low` and below the first power of two with none above it.
            high = 1
            while try exists(from: high, below: nil, in: context) {
                low = high
                if high > Int64.max / 2 { high = Int64.max; break }
                high *= 2
            }
        }
        // A match lies in [low, high): halve towards the top.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if try exists(from: middle, below: high, in: context) { low = middle } else { high = middle }
        }
        return low
    }

    /// The smallest matching number at or above `lower`, by the same galloping and halving upwards.
    func smallest(from lower: Int64, in context: NSManagedObjectContext) throws -> Int64? {
        guard try exists(from: lower, below: nil, in: context) else { return nil }
        var low = lower
        var step: Int64 = 1
        var high: Int64
        while true {
            high = low > Int64.max - step ? Int64.max : low + step
            if try exists(from: low, below: high, in: context) { break }
            // Only reached when the app purged its history between two probes.
            if high == Int64.max { return nil }
            low = high
            step = step > Int64.max / 2 ? Int64.max : step * 2
        }
        // A match lies in [low, high): halve towards the bottom.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if try exists(from: low, below: middle, in: context) { high = middle } else { low = middle }
        }
        return low
    }

    private func request(from lower: Int64?, below upper: Int64?, limit: Int?, changes: Bool,
                         in context: NSManagedObjectContext) throws -> NSPersistentHistoryChangeRequest {
        let fetch = try Self.transactionFetch(in: context)
        var conditions: [NSPredicate] = []
        if let lower { conditions.append(Self.compare("transactionNumber", .greaterThanOrEqualTo, NSNumber(value: lower))) }
        if let upper { conditions.append(Self.compare("transactionNumber", .lessThan, NSNumber(value: upper))) }
        if let author { conditions.append(Self.compare("author", .equalTo, author)) }
        if let contextName { conditions.append(Self.compare("contextName", .equalTo, contextName)) }
        fetch.predicate = conditions.isEmpty ? nil : NSCompoundPredicate(andPredicateWithSubpredicates: conditions)
        if let limit { fetch.fetchLimit = limit }
        let request = NSPersistentHistoryChangeRequest.fetchHistory(withFetch: fetch)
        request.resultType = changes ? .transactionsAndChanges : .transactionsOnly
        request.affectedStores = [store]
        return request
    }

    /// A fresh fetch request on the history's Transaction entity. `NSPersistentHistoryTransaction.fetchRequest`
    /// is reported to be nil when Core Data cannot tell which model is meant (a coordinator not loaded by a
    /// persistent container); the entity asked for through the context is the documented way round it.
    private static func transactionFetch(in context: NSManagedObjectContext) throws -> NSFetchRequest<any NSFetchRequestResult> {
        if let fetch = NSPersistentHistoryTransaction.fetchRequest { return fetch }
        guard let entity = NSPersistentHistoryTransaction.entityDescription(with: context) else {
            throw BrowserError.storeFailure("Core Data gave no entity for persistent-history transactions "
                + "(NSPersistentHistoryTransaction.fetchRequest and entityDescription(with:) are both nil)")
        }
        let fetch = NSFetchRequest<any NSFetchRequestResult>()
        fetch.entity = entity
        return fetch
    }

    /// `keyPath <operator> constant`, built from expressions (never a format string, as `FilterPredicate`).
    private static func compare(_ keyPath: String, _ type: NSComparisonPredicate.Operator, _ constant: Any) -> NSPredicate {
        NSComparisonPredicate(leftExpression: NSExpression(forKeyPath: keyPath), rightExpression: NSExpression(forConstantValue: constant),
                              modifier: .direct, type: type, options: [])
    }
}

#endif
