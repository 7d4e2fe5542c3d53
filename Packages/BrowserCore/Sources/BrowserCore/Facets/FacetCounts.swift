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
    /// Where counting stopped when the facet's deadline (`FacetRequest.deadline`) passed; nil when it finished.
    /// The parts the cut names as missing hold placeholders (0, empty, nil) that `FacetsDTO` sends as null.
    public var cut: FacetCut?

    public init(total: Int, nulls: Int, top: [FacetValueCount], distinct: Int, distinctIsExact: Bool, others: Int,
                minimum: AttributeValue? = nil, maximum: AttributeValue? = nil, histogram: [FacetBucket]? = nil,
                sampled: Int? = nil, cut: FacetCut? = nil) {
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
        self.cut = cut
    }

    /// An answer cut before `part` was counted: `total` when it was counted (else 0, sent as null).
    public static func cut(before part: FacetCut, total: Int = 0, sampled: Int? = nil) -> FacetCounts {
        FacetCounts(total: total, nulls: 0, top: [], distinct: 0, distinctIsExact: false, others: 0, sampled: sampled, cut: part)
    }
}

/// How far a facet got when its deadline passed (`FacetCounts.cut`), so the answer says what it holds rather than
/// failing the request: a facet is a glance, and part of one is worth more than a 503.
public enum FacetCut: String, Sendable, Hashable {
    /// The list's size was not counted, so nothing was.
    case total
    /// The list was counted, its values were not (top, nulls, others, distinct, and the range).
    case values
    /// The values were counted, not the minimum, maximum and histogram.
    case range
    /// Every part was counted, on the records looked at before the deadline (`sampled` of them): a store that
    /// counts record by record (`FacetCounter`) stops between records.
    case records
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
