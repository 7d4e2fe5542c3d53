/// The `order` parameter.
public enum SortOrder: String, Sendable, Hashable {
    case ascending = "asc"
    case descending = "desc"
}

/// What a page is sorted by: an attribute, or the number of records a to-many relationship holds
/// (`books.@count`), then always the primary key (in the same direction) so that equal values keep one order and
/// consecutive pages never overlap or skip records.
public struct SortKey: Sendable, Hashable {
    /// The attribute's name or, when `countsRelationship`, the to-many relationship's.
    public var attribute: String
    public var order: SortOrder
    /// Sorts by how many records the relationship `attribute` holds (0 for none), not by an attribute's value.
    public var countsRelationship: Bool

    public init(attribute: String, order: SortOrder) {
        self.attribute = attribute
        self.order = order
        self.countsRelationship = false
    }

    /// A key sorting by how many records the to-many relationship `relationship` holds.
    public init(countOf relationship: String, order: SortOrder) {
        self.attribute = relationship
        self.order = order
        self.countsRelationship = true
    }

    /// The key as the `sort` parameter names it: `title`, or `books.@count`.
    public var keyPath: String { countsRelationship ? attribute + Self.countSuffix : attribute }

    /// What follows a to-many relationship's name in a key that sorts by its count.
    public static let countSuffix = ".@count"

    /// "Copy as Swift"'s note for a count key it leaves out: a fetch has no documented sort by a relationship's
    /// count (the live adapter counts in a grouped fetch of its own and orders the IDs itself), so the code says what
    /// to do instead.
    static func countSortNote(_ key: SortKey) -> String {
        "Not sorted by \(key.keyPath) (\(key.order == .ascending ? "ascending" : "descending")): a fetch cannot sort by a "
            + "relationship's count; add a derived attribute (\(key.keyPath)) and sort by it, or sort the results."
    }
}

extension SortKey {
    /// The `sort` parameter: one attribute (`title`, in `order`'s direction) or several, comma-separated, each
    /// with an optional direction (`pageCount:desc,title`); a key without one takes `defaultOrder`. Every name
    /// must be a sortable attribute of the entity, or a to-many relationship's count (`books.@count`, inherited
    /// relationships included), at most once, and at most `RecordQuery.maximumSortKeys` keys.
    static func parse(_ text: String, defaultOrder: SortOrder, for entity: EntitySchema) throws(BrowserError) -> [SortKey] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= RecordQuery.maximumSortKeys else {
            throw .badRequest("sort has \(parts.count) keys; at most \(RecordQuery.maximumSortKeys) are allowed")
        }
        var keys: [SortKey] = []
        for part in parts {
            let pieces = part.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pieces[0])
            var order = defaultOrder
            if pieces.count == 2 {
                guard let given = SortOrder(rawValue: String(pieces[1])) else {
                    throw .badRequest("In sort=\(text): the direction of \(name) must be \"asc\" or \"desc\", got \"\(pieces[1])\"")
                }
                order = given
            }
            guard !name.isEmpty else {
                throw .badRequest("In sort=\(text): an empty key (keys are attribute names separated by commas)")
            }
            let key = try Self.key(name, order: order, for: entity)
            guard !keys.contains(where: { $0.keyPath == name }) else {
                throw .badRequest("In sort=\(text): \(name) is named twice")
            }
            keys.append(key)
        }
        return keys
    }

    /// One key of the `sort` parameter, checked against the entity: a sortable attribute, or `<relationship>.@count`
    /// of a to-many relationship.
    private static func key(_ name: String, order: SortOrder, for entity: EntitySchema) throws(BrowserError) -> SortKey {
        if name.hasSuffix(countSuffix) {
            let relationshipName = String(name.dropLast(countSuffix.count))
            guard let relationship = entity.relationship(named: relationshipName) else {
                let kind = entity.attribute(named: relationshipName) != nil
                    ? "it is an attribute, and only a to-many relationship has a count"
                    : "\(entity.name) has no relationship \"\(relationshipName)\""
                throw .badRequest("Cannot sort \(entity.name) by \(name): \(kind)")
            }
            guard relationship.isToMany else {
                throw .badRequest("Cannot sort \(entity.name) by \(name): \(relationshipName) is a to-one relationship, "
                    + "and only a to-many relationship has a count")
            }
            return SortKey(countOf: relationshipName, order: order)
        }
        guard let attribute = entity.attribute(named: name) else {
            let hint = entity.relationship(named: name)?.isToMany == true ? " (sort by its count with \(name)\(countSuffix))" : ""
            throw .badRequest("Cannot sort \(entity.name) by \"\(name)\": it is not an attribute of \(entity.name)\(hint)")
        }
        guard attribute.type.isSortable else {
            throw .badRequest("Cannot sort \(entity.name) by \(name): its type (\(attribute.type.rawValue)) has no order to sort by")
        }
        return SortKey(attribute: name, order: order)
    }
}
