import Foundation

/// "Copy as Swift" for Core Data: an `NSFetchRequest` whose predicate is `NSPredicate(format:argumentArray:)` with
/// every key path a `%K` argument and every value a `%@` argument.
struct CoreDataFetchRequestWriter {
    let query: RecordQuery
    var format = ""
    var arguments: [String] = []

    init(query: RecordQuery) { self.query = query }

    mutating func code() -> String {
        var lines = ["let request = NSFetchRequest<NSManagedObject>(entityName: \(SwiftLiteral.string(query.entity)))"]
        if let filter = query.matchFilter {
            append(filter, nested: false)
            if filter.namesRecords {
                lines.insert("// Record IDs are resolved through your context's coordinator (`context`: your NSManagedObjectContext).", at: 0)
            }
            let list = arguments.isEmpty ? "[]" : "[\n    " + arguments.joined(separator: ",\n    ") + ",\n]"
            lines.append("request.predicate = NSPredicate(format: \(SwiftLiteral.string(format)), argumentArray: \(list))")
        }
        let sortKeys = query.sortKeys.filter { !$0.countsRelationship }
        for key in query.sortKeys where key.countsRelationship {
            lines.insert("// " + SortKey.countSortNote(key), at: 0)
        }
        if !sortKeys.isEmpty {
            let descriptors = sortKeys.map {
                "NSSortDescriptor(key: \(SwiftLiteral.string($0.attribute)), ascending: \($0.order == .ascending))"
            }
            lines.append("request.sortDescriptors = [" + descriptors.joined(separator: ", ") + "]")
        }
        lines.append("request.fetchLimit = \(query.limit)")
        if query.offset > 0 { lines.append("request.fetchOffset = \(query.offset)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private mutating func append(_ filter: RecordFilter, nested: Bool) {
        switch filter {
        case .all(let parts) where parts.isEmpty: format += "TRUEPREDICATE"
        case .any(let parts) where parts.isEmpty: format += "FALSEPREDICATE"
        case .all(let parts), .any(let parts):
            let separator: String
            if case .all = filter { separator = " AND " } else { separator = " OR " }
            if nested { format += "(" }
            for (index, part) in parts.enumerated() {
                if index > 0 { format += separator }
                append(part, nested: true)
            }
            if nested { format += ")" }
        case .not(let part):
            format += "NOT "
            append(part, nested: true)
        case .comparison(let comparison):
            append(comparison, prefix: "", keyPath: comparison.keyPath.description)
        case .quantified(.all, let relationship, let comparison):
            // Not `ALL`: Core Data's SQLite store is reputed to raise on the ALL modifier (an Objective-C exception
            // the app cannot catch), so the code says what the live adapter builds and what Apple's own `#Predicate`
            // writes for `allSatisfy`: no related object fails the condition.
            format += "SUBQUERY(%K, $x, NOT ("
            arguments.append(SwiftLiteral.string(relationship))
            append(comparison, prefix: "", keyPath: nil)
            format += ")).@count == 0"
        case .quantified(let quantifier, let relationship, let comparison):
            append(comparison, prefix: quantifier.rawValue + " ",
                   keyPath: relationship + (comparison.keyPath.components.isEmpty ? "" : "." + comparison.keyPath.description))
        case .count(let relationship, let op, let number):
            format += "%K \(op.rawValue) %@"
            arguments += [SwiftLiteral.string(relationship + ".@count"), String(number)]
        }
    }

    /// - Parameter keyPath: the `%K` argument; nil inside a SUBQUERY, where the path starts at its variable and is
    ///   written into the format (`$x.name`, reserved words escaped with `#` as in `PredicateText`).
    private static func objectID(_ uri: String) -> String {
        "context.persistentStoreCoordinator!.managedObjectID(forURIRepresentation: URL(string: \(SwiftLiteral.string(uri)))!)!"
    }

    private mutating func append(_ comparison: FilterComparison, prefix: String, keyPath: String?) {
        if let keyPath {
            format += prefix + "%K "
            arguments.append(SwiftLiteral.string(keyPath))
        } else {
            // An empty key path is the related record itself: `$x == %@`.
            format += prefix + "$x" + (comparison.keyPath.components.isEmpty ? "" : "." + PredicateText.keyPath(comparison.keyPath)) + " "
        }
        format += comparison.op.rawValue + PredicateText.options(comparison.options) + " "
        switch comparison.operand {
        case .value(.null):
            format += "nil"
            return
        case .value(let value): arguments.append(SwiftLiteral.value(value))
        case .list(let values):
            // An empty literal needs its type spelt out.
            arguments.append(values.isEmpty ? "[] as [Any]" : "[" + values.map(SwiftLiteral.value).joined(separator: ", ") + "]")
        case .range(let low, let high): arguments.append("[\(SwiftLiteral.value(low)), \(SwiftLiteral.value(high))]")
        case .object(let uri):
            arguments.append(Self.objectID(uri))
        case .objects(let uris):
            arguments.append(uris.isEmpty ? "[] as [NSManagedObjectID]" : "[" + uris.map(Self.objectID).joined(separator: ", ") + "]")
        case .keyPath(let other):
            format += "%K"
            arguments.append(SwiftLiteral.string(other.description))
            return
        }
        format += "%@"
    }
}
