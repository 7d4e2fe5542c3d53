import BrowserCore

/// An attribute's facet counted by SQLite (`BrowserStore.facets`): one read transaction, the list's own FROM and
/// WHERE (`listSQL`: sub-entity rows, filter, scope), and GROUP BY where an index on the column can serve it.
///
/// Lists longer than `exactLimit` rows are counted on their first `FacetRequest.sampleLimit` rows (in key order)
/// and the answer says so: a facet is a glance, and a full GROUP BY over tens of millions of rows on a phone's
/// store would hold the store for seconds.
extension RecordReader {
    /// Above this many records a facet is counted on a sample.
    static let exactFacetLimit = 1_000_000

    func facets(_ request: FacetRequest, of entity: EntityMapping, in connection: SQLiteConnection) throws -> FacetCounts {
        let list = try listSQL(request.query, of: entity)
        let total = Int(try connection.scalar("SELECT count(*) FROM \(list.table)\(list.whereClause)", list.arguments)?.int64 ?? 0)
        guard let attribute = entity.attribute(named: request.attribute.name), let column = attribute.column else {
            // No column (never stored): every record's value is nil.
            return FacetCounts(total: total, nulls: total, top: [], distinct: 0, distinctIsExact: true, others: 0)
        }
        // The rows counted: the list, or its first rows when it is long. `v` is the value in either case.
        let source: String
        var sampled: Int?
        let value = "\(list.table).\(quoteIdentifier(column))"
        if total > Self.exactFacetLimit {
            source = "(SELECT \(value) AS v FROM \(list.table)\(list.whereClause) ORDER BY \(list.table).\"Z_PK\" LIMIT \(FacetRequest.sampleLimit))"
            sampled = FacetRequest.sampleLimit
        } else {
            source = "(SELECT \(value) AS v FROM \(list.table)\(list.whereClause))"
        }
        let arguments = list.arguments

        let counted = try connection.rows("SELECT count(*), count(v) FROM \(source)", arguments)
        let looked = Int(counted.first?[0].int64 ?? 0)
        let nonNull = Int(counted.first?[1].int64 ?? 0)

        var top: [FacetValueCount] = []
        let statement = try connection.prepare(
            "SELECT v, count(*) AS n FROM \(source) WHERE v IS NOT NULL GROUP BY v ORDER BY n DESC, v ASC LIMIT \(request.top)")
        try statement.bind(arguments)
        while try statement.step() {
            top.append(FacetValueCount(value: decoder.decode(statement, column: 0, as: attribute),
                                       count: Int(statement.value(at: 1).int64 ?? 0)))
        }

        let distinct = Int(try connection.scalar(
            "SELECT count(*) FROM (SELECT DISTINCT v FROM \(source) WHERE v IS NOT NULL LIMIT \(FacetRequest.distinctLimit + 1))",
            arguments)?.int64 ?? 0)
        var answer = FacetCounts(
            total: total, nulls: looked - nonNull, top: top, distinct: min(distinct, FacetRequest.distinctLimit),
            distinctIsExact: distinct <= FacetRequest.distinctLimit, others: nonNull - top.reduce(0) { $0 + $1.count },
            sampled: sampled)

        guard request.hasRange, nonNull > 0 else { return answer }
        let range = try connection.prepare("SELECT min(v), max(v) FROM \(source) WHERE v IS NOT NULL")
        try range.bind(arguments)
        guard try range.step() else { return answer }
        let minimum = decoder.decode(range, column: 0, as: attribute)
        let maximum = decoder.decode(range, column: 1, as: attribute)
        answer.minimum = minimum
        answer.maximum = maximum
        guard let low = FacetHistogram.number(minimum), let high = FacetHistogram.number(maximum) else { return answer }
        let histogram = FacetHistogram(minimum: low, maximum: high, buckets: request.buckets,
                                       integral: request.attribute.type.isInteger)
        // The same arithmetic as FacetHistogram.index(of:) on the same doubles: subtract, divide, truncate toward
        // zero; the clamping to the first and last bucket is done here.
        var bars = Array(repeating: 0, count: histogram.count)
        let buckets = try connection.rows(
            "SELECT CAST((v - ?) / ? AS INTEGER) AS b, count(*) FROM \(source) WHERE v IS NOT NULL GROUP BY b",
            [.real(histogram.lower), .real(histogram.width)] + arguments)
        for row in buckets {
            let index = min(max(Int(row[0].int64 ?? 0), 0), histogram.count - 1)
            bars[index] += Int(row[1].int64 ?? 0)
        }
        answer.histogram = bars.indices.map { index in
            let bounds = histogram.bounds(index)
            return FacetBucket(lower: FacetHistogram.value(bounds.lower, as: request.attribute.type),
                               upper: FacetHistogram.value(bounds.upper, as: request.attribute.type), count: bars[index])
        }
        return answer
    }
}
