/// A validated request for an attribute's facet: which values the records of a list hold, how often, and for
/// numbers and dates how they spread (`GET /api/entities/:name/facets`).
///
/// Built only by `BrowserService.facets`, which checks the attribute against the entity, so a store can trust
/// `attribute` (an attribute of `query.entity` whose type has values to count) and `query` (its filter and scope;
/// its sort, limit and offset mean nothing here).
public struct FacetRequest: Sendable, Hashable {
    public var query: RecordQuery
    public var attribute: AttributeSchema
    /// How many of the most frequent values to answer.
    public var top: Int
    /// How many equal-width buckets the histogram of a number or date attribute has.
    public var buckets: Int

    public static let defaultTop = 10
    public static let maximumTop = 50
    public static let defaultBuckets = 20
    public static let maximumBuckets = 100
    /// Distinct values are counted exactly up to this many; beyond it the answer says "more than".
    public static let distinctLimit = 10_000
    /// A store that counts in its own code (not in SQL) looks at this many records at most and says it sampled.
    public static let sampleLimit = 200_000

    public init(query: RecordQuery, attribute: AttributeSchema, top: Int = defaultTop, buckets: Int = defaultBuckets) {
        self.query = query
        self.attribute = attribute
        self.top = top
        self.buckets = buckets
    }

    /// Whether the attribute's values spread on a line (a histogram and a minimum and maximum make sense).
    public var hasRange: Bool { FacetRequest.rangeTypes.contains(attribute.type) }

    /// Types whose values can be counted: not Binary, Transformable or undefined (opaque bytes and objects).
    static let countableTypes: Set<AttributeType> = [
        .string, .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean, .date, .uuid, .uri,
    ]
    static let rangeTypes: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float, .decimal, .date]
}
