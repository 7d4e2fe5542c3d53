/// `GET /api/entities/:name/facets`: an attribute's values among a list's records.
public struct FacetsDTO: Encodable, Sendable, Hashable {
    public var entity: String
    public var attribute: String
    public var type: String
    /// Null (as are the other counts below) when the facet's deadline passed before it was counted (`cut`).
    public var total: Int?
    public var nulls: Int?
    public var distinct: Int?
    public var distinctExact: Bool?
    /// Empty when the values were not counted (`cut`).
    public var top: [Value]
    public var others: Int?
    public var min: AttributeValue?
    public var max: AttributeValue?
    public var histogram: [Bucket]?
    /// The number of records the values were counted on, when not all of `total`.
    public var sampled: Int?
    /// Where counting stopped at the facet's deadline (`FacetCut`'s names: total, values, range, records); null
    /// when everything was counted.
    public var cut: String?
    /// What the numbers mean when they are not exact, for the person reading them.
    public var notes: [String]

    public struct Value: Encodable, Sendable, Hashable {
        public var value: AttributeValue
        public var count: Int
    }

    public struct Bucket: Encodable, Sendable, Hashable {
        public var from: AttributeValue
        public var to: AttributeValue
        public var count: Int
    }

    public init(request: FacetRequest, counts: FacetCounts) {
        entity = request.query.entity
        attribute = request.attribute.name
        type = request.attribute.type.rawValue
        let valuesCounted = counts.cut != .total && counts.cut != .values
        let rangeCounted = valuesCounted && counts.cut != .range
        total = counts.cut == .total ? nil : counts.total
        nulls = valuesCounted ? counts.nulls : nil
        distinct = valuesCounted ? counts.distinct : nil
        distinctExact = valuesCounted ? counts.distinctIsExact : nil
        // A value longer than a list's longest preview is sent cut, as a list shows it (`ValuePreview`).
        top = valuesCounted
            ? counts.top.map { Value(value: ValuePreview.cut($0.value, toBytes: ValuePreview.maximumBytes), count: $0.count) } : []
        others = valuesCounted ? counts.others : nil
        min = rangeCounted ? counts.minimum : nil
        max = rangeCounted ? counts.maximum : nil
        histogram = rangeCounted ? counts.histogram?.map { Bucket(from: $0.lower, to: $0.upper, count: $0.count) } : nil
        sampled = counts.sampled
        cut = counts.cut?.rawValue
        notes = []
        if let part = counts.cut {
            let limit = "The facet stopped at its time limit (CoreDataBrowserServer.Options.facetTimeBudget)"
            switch part {
            case .total: notes.append("\(limit) before counting the list: nothing was counted. Narrow the list and ask again.")
            case .values: notes.append("\(limit) after counting the list: its values were not counted. Narrow the list and ask again.")
            case .range: notes.append("\(limit) after counting the values: the minimum, maximum and histogram are missing.")
            case .records: notes.append("\(limit) after looking at \(counts.sampled ?? 0) of the list's \(counts.total) records: the counts are theirs.")
            }
        }
        if let sampled = counts.sampled, counts.cut != .records, valuesCounted {
            notes.append("Counted on the first \(sampled) of the list's \(counts.total) records: the counts are a sample.")
        }
        if valuesCounted, !counts.distinctIsExact {
            notes.append("More than \(FacetRequest.distinctLimit) different values: distinct says "
                + "\(FacetRequest.distinctLimit), counted no further.")
        }
    }

    // Absent values are sent as null, so a client can tell "none" from a missing key.
    enum CodingKeys: String, CodingKey {
        case entity, attribute, type, total, nulls, distinct, distinctExact, top, others, min, max, histogram, sampled, cut, notes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entity, forKey: .entity)
        try container.encode(attribute, forKey: .attribute)
        try container.encode(type, forKey: .type)
        try container.encode(total, forKey: .total)
        try container.encode(nulls, forKey: .nulls)
        try container.encode(distinct, forKey: .distinct)
        try container.encode(distinctExact, forKey: .distinctExact)
        try container.encode(top, forKey: .top)
        try container.encode(others, forKey: .others)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(histogram, forKey: .histogram)
        try container.encode(sampled, forKey: .sampled)
        try container.encode(cut, forKey: .cut)
        try container.encode(notes, forKey: .notes)
    }
}
