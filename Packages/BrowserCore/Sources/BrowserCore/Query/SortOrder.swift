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
