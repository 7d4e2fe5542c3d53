/// The `order` parameter.
public enum SortOrder: String, Sendable, Hashable {
    case ascending = "asc"
    case descending = "desc"
}

/// What a page is sorted by: an attribute, then always the primary key (in the same direction) so that equal
/// values keep one order and consecutive pages never overlap or skip records.
public struct SortKey: Sendable, Hashable {
    public var attribute: String
    public var order: SortOrder

    public init(attribute: String, order: SortOrder) {
        self.attribute = attribute
        self.order = order
    }
}

extension SortKey {
    /// The `sort` parameter: one attribute (`title`, in `order`'s direction) or several, comma-separated, each
    /// with an optional direction (`pageCount:desc,title`); a key without one takes `defaultOrder`. Every name
    /// must be a sortable attribute of the entity, at most once, and at most `RecordQuery.maximumSortKeys` keys.
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
            guard let attribute = entity.attribute(named: name) else {
                throw .badRequest("Cannot sort \(entity.name) by \"\(name)\": it is not an attribute of \(entity.name)")
            }
            guard attribute.type.isSortable else {
                throw .badRequest("Cannot sort \(entity.name) by \(name): its type (\(attribute.type.rawValue)) has no order to sort by")
            }
            guard !keys.contains(where: { $0.attribute == name }) else {
                throw .badRequest("In sort=\(text): \(name) is named twice")
            }
            keys.append(SortKey(attribute: name, order: order))
        }
        return keys
    }
}
