import Dispatch

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
    /// `DispatchTime.now().uptimeNanoseconds` past which the store stops counting and answers what it has,
    /// marked cut (`FacetCounts.cut`); nil for no limit. Earlier than the request's own deadline
    /// (`RequestBudget`), so a long count ends as a partial answer, not as a 503 (`deadline(seconds:within:)`).
    public var deadline: UInt64?

    public static let defaultTop = 10
    public static let maximumTop = 50
    public static let defaultBuckets = 20
    public static let maximumBuckets = 100
    /// Distinct values are counted exactly up to this many; beyond it the answer says "more than".
    public static let distinctLimit = 10_000
    /// A store that counts in its own code (not in SQL) looks at this many records at most and says it sampled.
    public static let sampleLimit = 200_000

    /// Seconds a facet counts by default before it answers with what it has (`BrowserService.facetTimeBudget`).
    public static let defaultTimeBudget: Double = 10
    /// The share of what is left of the request's time budget a facet may use at most: the rest is the margin in
    /// which a cut facet still answers before the request's own deadline turns it into a 503.
    public static let requestBudgetShare = 0.75

    public init(query: RecordQuery, attribute: AttributeSchema, top: Int = defaultTop, buckets: Int = defaultBuckets,
                deadline: UInt64? = nil) {
        self.query = query
        self.attribute = attribute
        self.top = top
        self.buckets = buckets
        self.deadline = deadline
    }

    /// The facet's deadline: `seconds` from now, and never later than `requestBudgetShare` of the time the request
    /// has left (`RequestBudget.deadline`); nil when neither limits it. `now`: tests give the time.
    public static func deadline(seconds: Double?, within requestDeadline: UInt64? = RequestBudget.deadline,
                                now: UInt64? = nil) -> UInt64? {
        let now = now ?? DispatchTime.now().uptimeNanoseconds
        // Clamped: a host may give `.infinity` (no own limit), which would trap converted as it is.
        let own = seconds.map { now &+ UInt64(min(max(0, $0) * 1_000_000_000, Double(UInt64.max / 4))) }
        let share = requestDeadline.map { now + UInt64(Double($0 > now ? $0 - now : 0) * requestBudgetShare) }
        switch (own, share) {
        case let (own?, share?): return min(own, share)
        case let (own, share): return own ?? share
        }
    }

    /// Whether the facet's deadline has passed.
    public var isPastDeadline: Bool {
        guard let deadline else { return false }
        return DispatchTime.now().uptimeNanoseconds >= deadline
    }

    /// Whether the attribute's values spread on a line (a histogram and a minimum and maximum make sense).
    public var hasRange: Bool { FacetRequest.rangeTypes.contains(attribute.type) }

    /// Types whose values can be counted: not Binary, Transformable or undefined (opaque bytes and objects).
    static let countableTypes: Set<AttributeType> = [
        .string, .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean, .date, .uuid, .uri,
    ]
    static let rangeTypes: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float, .decimal, .date]
}
