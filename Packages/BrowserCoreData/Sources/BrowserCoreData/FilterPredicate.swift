#if canImport(CoreData)
import BrowserCore
import CoreData

/// Translates a `RecordFilter` into an `NSPredicate` built from expressions, never from a format string, so
/// no search text or attribute name is ever parsed as predicate syntax.
enum FilterPredicate {
    static func make(_ filter: RecordFilter) throws -> NSPredicate {
        switch filter {
        case .all(let parts):
            // An empty AND holds for every record, as in BrowserCore's contract.
            return parts.isEmpty ? NSPredicate(value: true)
                : NSCompoundPredicate(andPredicateWithSubpredicates: try parts.map(make))
        case .any(let parts):
            // An empty OR holds for no record (a search of an entity without String attributes).
            return parts.isEmpty ? NSPredicate(value: false)
                : NSCompoundPredicate(orPredicateWithSubpredicates: try parts.map(make))
        case .not(let part):
            return NSCompoundPredicate(notPredicateWithSubpredicate: try make(part))
        case .comparison(let comparison) where comparison.op == .contains
                && comparison.options == .caseAndDiacriticInsensitive && comparison.keyPath.components.count == 1:
            let attribute = comparison.keyPath.last
            guard case .value(let value) = comparison.operand, let needle = value.searchableText else {
                throw BrowserError.badRequest("contains needs a text value for \(attribute)")
            }
            // `attribute CONTAINS[cd] needle`: Core Data evaluates it in SQL for all of Unicode.
            return NSComparisonPredicate(
                leftExpression: NSExpression(forKeyPath: attribute),
                rightExpression: NSExpression(forConstantValue: needle),
                modifier: .direct,
                type: .contains,
                options: [.caseInsensitive, .diacriticInsensitive]
            )
        case .comparison(let comparison) where comparison.op == .equals && comparison.options.isEmpty
                && comparison.keyPath.components.count == 1:
            guard case .value(let value) = comparison.operand else {
                throw BrowserError.badRequest("Cannot compare \(comparison.keyPath) with that operand yet")
            }
            // `attribute == constant` (a pasted UUID): the constant is the object Core Data stores for the value.
            return NSComparisonPredicate(
                leftExpression: NSExpression(forKeyPath: comparison.keyPath.last),
                rightExpression: NSExpression(forConstantValue: value.foundationValue),
                modifier: .direct,
                type: .equalTo,
                options: []
            )
        case .comparison, .quantified, .count:
            throw BrowserError.badRequest("The live store cannot evaluate this condition yet")
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
