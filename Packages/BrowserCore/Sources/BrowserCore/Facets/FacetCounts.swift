/// What a store counted for a `FacetRequest`.
public struct FacetCounts: Sendable, Hashable {
    /// The records of the list (all of them, even when the values were sampled).
    public var total: Int
    /// Records whose value is nil, among those looked at.
    public var nulls: Int
    /// The most frequent values, most frequent first (equal counts in ascending value order), at most `top`.
    public var top: [FacetValueCount]
    /// How many different non-nil values there are (at most `FacetRequest.distinctLimit` are counted).
    public var distinct: Int
    /// False when there are more distinct values than `distinct` says.
    public var distinctIsExact: Bool
    /// Records with a non-nil value outside `top`, among those looked at.
    public var others: Int
    /// For numbers and dates: the smallest and largest value, and the histogram.
    public var minimum: AttributeValue?
    public var maximum: AttributeValue?
    public var histogram: [FacetBucket]?
    /// When the values were counted on the first `sampled` records only, not on all `total`.
    public var sampled: Int?

    public init(total: Int, nulls: Int, top: [FacetValueCount], distinct: Int, distinctIsExact: Bool, others: Int,
                minimum: AttributeValue? = nil, maximum: AttributeValue? = nil, histogram: [FacetBucket]? = nil,
                sampled: Int? = nil) {
        self.total = total
        self.nulls = nulls
        self.top = top
        self.distinct = distinct
        self.distinctIsExact = distinctIsExact
        self.others = others
        self.minimum = minimum
        self.maximum = maximum
        self.histogram = histogram
        self.sampled = sampled
    }
}

public struct FacetValueCount: Sendable, Hashable {
    public var value: AttributeValue
    public var count: Int

    public init(value: AttributeValue, count: Int) {
        self.value = value
        self.count = count
    }
}

/// One bar of a histogram: the values `lower <= v < upper` (the last bucket includes its upper bound).
public struct FacetBucket: Sendable, Hashable {
    public var lower: AttributeValue
    public var upper: AttributeValue
    public var count: Int

    public init(lower: AttributeValue, upper: AttributeValue, count: Int) {
        self.lower = lower
        self.upper = upper
        self.count = count
    }
}
