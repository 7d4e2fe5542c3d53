#if canImport(CoreData)
import BrowserCore
import CoreData

/// Translates a validated `RecordFilter` into an `NSPredicate` built from expressions, never from a format
/// string, so no search text, value or name is ever parsed as predicate syntax.
///
/// Semantics as `RecordFilter` documents them, in Core Data's own terms:
/// - `ANY` is `NSComparisonPredicate`'s `.any` modifier on the key path `relationship.keyPath`; `NONE` is
///   `NOT (ANY …)` (true when nothing is related, as the contract says; Core Data's own `NONE` keyword is the same
///   negation).
/// - `ALL` is `SUBQUERY(relationship, $x, NOT (condition on $x)).@count == 0` (as a `count:` function of the
///   subquery): no related record fails the condition, so true when none is related, as the contract says. Not the
///   `.all` modifier: Core Data's SQLite store is reputed to reject it with an Objective-C exception (which would
///   end the inspected app), Apple's documentation allows at most one of ALL/ANY/IN per predicate sent to it, and
///   Foundation's own `#Predicate` conversion writes `allSatisfy` as this subquery.
/// - `@count` is the key path `relationship.@count` (through to-ones: `series.study.albums.@count`).
/// - record membership (an empty key path in a quantified comparison) is the modifier on the relationship itself
///   (`ANY tags == <ID>`), or `$x == <ID>` inside `ALL`'s subquery; a to-one `IN` IDs compares with the
///   `NSManagedObjectID`s the coordinator knows (none known: no record).
/// - two attributes compared (`.keyPath`) is a key path expression on each side; in `ANY`/`NONE` a subquery's
///   count (a modifier would not name the same related record on both sides).
/// - a to-one compared with a record is compared with its `NSManagedObjectID` (resolved through the context's
///   coordinator); an ID the coordinator does not know matches no record (`== id` false, `!= id` true).
/// - `LIKE` keeps its meaning: Core Data's `LIKE` treats `*` and `?` as this API does (and `\` escapes them,
///   which validation never produces in a pattern the user did not write).
enum FilterPredicate {
    static func make(_ filter: RecordFilter, coordinator: NSPersistentStoreCoordinator?) throws -> NSPredicate {
        switch filter {
        case .all(let parts):
            // An empty AND holds for every record, as in BrowserCore's contract.
            return parts.isEmpty ? NSPredicate(value: true)
                : NSCompoundPredicate(andPredicateWithSubpredicates: try parts.map { try make($0, coordinator: coordinator) })
        case .any(let parts):
            // An empty OR holds for no record (a search of an entity without String attributes).
            return parts.isEmpty ? NSPredicate(value: false)
                : NSCompoundPredicate(orPredicateWithSubpredicates: try parts.map { try make($0, coordinator: coordinator) })
        case .not(let part):
            return NSCompoundPredicate(notPredicateWithSubpredicate: try make(part, coordinator: coordinator))
        case .comparison(let comparison):
            return try make(comparison, keyPath: comparison.keyPath.description, modifier: .direct, coordinator: coordinator)
        case .quantified(let quantifier, let relationship, let comparison):
            if case .keyPath = comparison.operand, quantifier != .all {
                // Two attributes of each related record: only a subquery names the same record on both sides.
                // ANY: some related record holds; NONE: none does.
                let holding = related(relationship, where: try make(comparison, keyPath: "$\(iterator).\(comparison.keyPath)",
                                                                   modifier: .direct, coordinator: coordinator,
                                                                   rightPrefix: "$\(iterator)."))
                return count(holding, quantifier == .any ? .greaterThan : .equalTo)
            }
            // An empty key path is the related record itself: `ANY tags == <ID>`.
            let keyPath = relationship + (comparison.keyPath.components.isEmpty ? "" : "." + comparison.keyPath.description)
            switch quantifier {
            case .any: return try make(comparison, keyPath: keyPath, modifier: .any, coordinator: coordinator)
            case .all: return try every(relationship, comparison, coordinator: coordinator)
            case .none:
                return NSCompoundPredicate(notPredicateWithSubpredicate:
                    try make(comparison, keyPath: keyPath, modifier: .any, coordinator: coordinator))
            }
        case .count(let relationship, let op, let number):
            return NSComparisonPredicate(
                leftExpression: NSExpression(forKeyPath: relationship + ".@count"),
                rightExpression: NSExpression(forConstantValue: NSNumber(value: number)),
                modifier: .direct, type: operatorType(op), options: [])
        }
    }

    /// `ALL relationship.keyPath op value` as `SUBQUERY(relationship, $x, NOT ($x.keyPath op value)).@count == 0`.
    /// The key path is the validated model's names (`$x.` + names), never text to parse.
    private static func every(_ relationship: String, _ comparison: FilterComparison,
                              coordinator: NSPersistentStoreCoordinator?) throws -> NSPredicate {
        let path = comparison.keyPath.components.isEmpty ? "$\(iterator)" : "$\(iterator).\(comparison.keyPath.description)"
        let condition = try make(comparison, keyPath: path, modifier: .direct, coordinator: coordinator, rightPrefix: "$\(iterator).")
        return count(related(relationship, where: NSCompoundPredicate(notPredicateWithSubpredicate: condition)), .equalTo)
    }

    /// `SUBQUERY(relationship, $x, condition)`: the related records for which `condition` (on `$x`) holds.
    private static func related(_ relationship: String, where condition: NSPredicate) -> NSExpression {
        NSExpression(forSubquery: NSExpression(forKeyPath: relationship), usingIteratorVariable: iterator, predicate: condition)
    }

    /// `count:(records) op 0`.
    private static func count(_ records: NSExpression, _ type: NSComparisonPredicate.Operator) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: NSExpression(forFunction: "count:", arguments: [records]),
            rightExpression: NSExpression(forConstantValue: NSNumber(value: 0)),
            modifier: .direct, type: type, options: [])
    }

    /// A key path, or the subquery's variable itself (`$x`: the related record).
    private static func expression(_ keyPath: String) -> NSExpression {
        keyPath == "$\(iterator)" ? NSExpression(forVariable: iterator) : NSExpression(forKeyPath: keyPath)
    }

    /// The subquery's variable for one related record (variables have their own namespace: no attribute clashes).
    private static let iterator = "x"

    /// - Parameter rightPrefix: what a `.keyPath` operand's names follow (`$x.` inside a subquery).
    private static func make(_ comparison: FilterComparison, keyPath: String, modifier: NSComparisonPredicate.Modifier,
                             coordinator: NSPersistentStoreCoordinator?, rightPrefix: String = "") throws -> NSPredicate {
        let constant: Any?
        switch comparison.operand {
        case .keyPath(let other):
            return NSComparisonPredicate(
                leftExpression: expression(keyPath), rightExpression: NSExpression(forKeyPath: rightPrefix + other.description),
                modifier: modifier, type: operatorType(comparison.op), options: [])
        case .objects(let uris):
            // IDs the coordinator does not know name no record here.
            let ids = uris.compactMap { URL(string: $0).flatMap { coordinator?.managedObjectID(forURIRepresentation: $0) } }
            guard !ids.isEmpty else { return NSPredicate(value: false) }
            constant = ids
        case .value(let value): constant = value.foundationValue
        case .list(let values): constant = values.map { $0.foundationValue as Any }
        case .range(let low, let high): constant = [low.foundationValue as Any, high.foundationValue as Any]
        case .object(let uri):
            guard let url = URL(string: uri), let id = coordinator?.managedObjectID(forURIRepresentation: url) else {
                // No such object here: nothing equals it, everything differs from it.
                return NSPredicate(value: comparison.op == .notEquals)
            }
            constant = id
        }
        var options: NSComparisonPredicate.Options = []
        if comparison.options.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if comparison.options.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        return NSComparisonPredicate(
            leftExpression: expression(keyPath),
            rightExpression: NSExpression(forConstantValue: constant),
            modifier: modifier, type: operatorType(comparison.op), options: options)
    }

    private static func operatorType(_ op: FilterOperator) -> NSComparisonPredicate.Operator {
        switch op {
        case .equals: .equalTo
        case .notEquals: .notEqualTo
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqualTo
        case .contains: .contains
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .like: .like
        case .in: .in
        case .between: .between
        }
    }

    /// `SELF IN ids`: the records with these object IDs.
    static func objects(in ids: [NSManagedObjectID]) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: NSExpression.expressionForEvaluatedObject(),
            rightExpression: NSExpression(forConstantValue: ids),
            modifier: .direct,
            type: .in,
            options: []
        )
    }
}

#endif
