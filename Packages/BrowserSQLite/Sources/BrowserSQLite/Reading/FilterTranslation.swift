import BrowserCore

/// Translates a `RecordFilter` into an SQL condition with bound arguments.
///
/// Attribute names reach SQL only through the mapping's column names (quoted); needles are bound, folded once
/// per query, and matched by `cdb_contains` (`FoldedContainsFunction`), never by `LIKE`.
enum FilterTranslation {
    static func condition(for filter: RecordFilter, entity: EntityMapping,
                          arguments: inout [SQLiteValue]) throws(BrowserError) -> String {
        switch filter {
        case .all(let filters):
            guard !filters.isEmpty else { return "1" }
            var parts: [String] = []
            for part in filters { parts.append(try condition(for: part, entity: entity, arguments: &arguments)) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .any(let filters):
            guard !filters.isEmpty else { return "0" }
            var parts: [String] = []
            for part in filters { parts.append(try condition(for: part, entity: entity, arguments: &arguments)) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .not(let inner):
            return "(NOT " + (try condition(for: inner, entity: entity, arguments: &arguments)) + ")"
        case .comparison(let comparison) where comparison.op == .contains
                && comparison.options == .caseAndDiacriticInsensitive && comparison.keyPath.components.count == 1:
            let name = comparison.keyPath.last
            guard case .value(let value) = comparison.operand else {
                throw .badRequest("Search text for \(entity.name).\(name) must be a string")
            }
            guard let attribute = entity.attribute(named: name) else {
                throw .badRequest("Cannot search \(entity.name) by \"\(name)\": it is not an attribute of \(entity.name)")
            }
            guard let needle = value.searchableText else {
                throw .badRequest("Search text for \(entity.name).\(name) must be a string")
            }
            // An attribute without a column has no text to match.
            guard let column = attribute.column else { return "0" }
            arguments.append(.text(TextFolding.fold(needle)))
            let reference = quoteIdentifier(column)
            return "\(FoldedContainsFunction.name)(\(reference), ?)"
        case .comparison(let comparison) where comparison.op == .equals && comparison.options.isEmpty
                && comparison.keyPath.components.count == 1:
            let name = comparison.keyPath.last
            guard case .value(let value) = comparison.operand else {
                throw .badRequest("Cannot compare \(entity.name).\(name) with that operand yet")
            }
            guard let attribute = entity.attribute(named: name) else {
                throw .badRequest("Cannot compare \(entity.name).\(name): it is not an attribute of \(entity.name)")
            }
            guard let column = attribute.column else { return "0" }
            let reference = quoteIdentifier(column)
            switch value {
            case .uuid(let uuid):
                // Core Data keeps a UUID as its 16 bytes.
                arguments.append(.blob(withUnsafeBytes(of: uuid.uuid) { Array($0) }))
            case .string(let text): arguments.append(.text(text))
            case .integer(let number): arguments.append(.integer(number))
            case .boolean(let flag): arguments.append(.integer(flag ? 1 : 0))
            default:
                throw .badRequest("Cannot compare \(entity.name).\(name) with \(value)")
            }
            return "\(reference) = ?"
        case .comparison, .quantified, .count:
            throw .badRequest("The store file reader cannot evaluate this condition yet")
        }
    }
}
