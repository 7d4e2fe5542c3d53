import BrowserCore
import CSQLite

/// An attribute's facet counted by SQLite (`BrowserStore.facets`): one read transaction, the list's own FROM and
/// WHERE (`listSQL`: sub-entity rows, filter, scope), and GROUP BY where an index on the column can serve it.
///
/// Lists longer than `exactLimit` rows are counted on their first `FacetRequest.sampleLimit` rows (in key order)
/// and the answer says so: a facet is a glance, and a full GROUP BY over tens of millions of rows on a phone's
/// store would hold the store for seconds.
///
/// Bounded in time: the statements run under the facet's own deadline (`FacetRequest.deadline`, earlier than the
/// request's), and when it passes the parts counted so far are answered, with `FacetCounts.cut` naming the first
/// part missing (the list's size, its values, the range), instead of the request failing with a 503.
extension RecordReader {
    /// Above this many records a facet is counted on a sample.
    static let exactFacetLimit = 1_000_000

    func facets(_ request: FacetRequest, of entity: EntityMapping, in connection: SQLiteConnection,
                cache: ReadCache, stop: QueryInterruption? = nil) throws -> FacetCounts {
        // The facet's statements stop at its deadline, or when the request stops (then the request's error is
        // thrown, as for any other read). Tests pass `stop` to cut after a given number of checks.
        let enclosing = connection.interruption
        let stop = stop ?? QueryInterruption(deadline: request.deadline, within: enclosing)
        connection.interruption = stop
        defer { connection.interruption = enclosing }

        let list = try listSQL(request.query, of: entity)
        // A whole entity's count is usually kept already; a filtered list is counted.
        guard let total = try facetPart(stop, { () throws -> Int in
            request.query.isWholeEntity
                ? try count(of: entity, in: connection, cache: cache)
                : Int(try connection.scalar("SELECT count(*) FROM \(list.table)\(list.whereClause)", list.arguments)?.int64 ?? 0)
        }) else { return .cut(before: .total) }
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
        guard let grouped = try facetPart(stop, {
            try facetFromGroups(request, attribute: attribute, source: source, arguments: arguments, total: total,
                                looked: sampled.map { min($0, total) } ?? total, sampled: sampled, in: connection)
        }) else { return .cut(before: .values, total: total, sampled: sampled) }
        if let answer = grouped { return answer }
        guard var answer = try facetPart(stop, {
            try facetValues(request, attribute: attribute, source: source, arguments: arguments, total: total,
                            sampled: sampled, in: connection)
        }) else { return .cut(before: .values, total: total, sampled: sampled) }
        guard request.hasRange, answer.others + answer.top.reduce(0, { $0 + $1.count }) > 0 else { return answer }
        guard let range = try facetPart(stop, {
            try facetRange(request, attribute: attribute, source: source, arguments: arguments, in: connection)
        }) else {
            answer.cut = .range
            return answer
        }
        (answer.minimum, answer.maximum, answer.histogram) = range
        return answer
    }

    /// Runs one part of a facet under `stop`; nil when the facet's own deadline has passed before or during it
    /// (the request's reasons to stop are thrown, as `SQLiteStore.perform` words them).
    private func facetPart<T>(_ stop: QueryInterruption, _ body: () throws -> T) throws -> T? {
        if stop.reason != nil {
            if let reason = stop.enclosingReason { throw QueryInterruption.error(for: reason) }
            return nil
        }
        do {
            return try body()
        } catch let error as SQLiteError where error.primaryCode == SQLITE_INTERRUPT && stop.enclosingReason == nil {
            return nil
        }
    }

    /// The values' part when there are too many different ones for one pass: counts, the top values and the
    /// distinct count, each asked of SQLite.
    private func facetValues(_ request: FacetRequest, attribute: AttributeMapping, source: String, arguments: [SQLiteValue],
                             total: Int, sampled: Int?, in connection: SQLiteConnection) throws -> FacetCounts {
        let counted = try connection.rows("SELECT count(*), count(v) FROM \(source)", arguments)
        let looked = Int(counted.first?[0].int64 ?? 0)
        let nonNull = Int(counted.first?[1].int64 ?? 0)

        var top: [FacetValueCount] = []
        let grouping = facetGrouping(attribute, source: source)
        let statement = try connection.prepare(
            "SELECT \(grouping.select) FROM \(grouping.from) WHERE \(grouping.present) GROUP BY \(grouping.key) ORDER BY n DESC, \(grouping.key) LIMIT \(request.top)")
        try statement.bind(arguments)
        while try statement.step() {
            top.append(FacetValueCount(value: facetValue(statement, attribute), count: Int(statement.value(at: 1).int64 ?? 0)))
        }

        let distinct = Int(try connection.scalar(
            "SELECT count(*) FROM (SELECT DISTINCT \(grouping.key) FROM \(grouping.from) WHERE \(grouping.present) LIMIT \(FacetRequest.distinctLimit + 1))",
            arguments)?.int64 ?? 0)
        return FacetCounts(
            total: total, nulls: looked - nonNull, top: top, distinct: min(distinct, FacetRequest.distinctLimit),
            distinctIsExact: distinct <= FacetRequest.distinctLimit, others: nonNull - top.reduce(0) { $0 + $1.count },
            sampled: sampled)
    }

    /// How a facet groups an attribute's values: the rows grouped (`from`, with `present` the test for a value),
    /// the select list (a group's key and its count `n`) and the GROUP BY and DISTINCT key.
    ///
    /// A String or URI value is grouped by `TextPreviewSQL.groupItem`: itself up to `ValuePreview.maximumBytes`,
    /// a longer one by its first bytes and its length (decision): SQLite's sorter keeps every group's key, and
    /// 100 values of 10 MB made one facet hold a gigabyte. Two long values that share their first 4 KB and their
    /// length are counted as one (the list shows what was sent: that start); shorter values are their own key, so
    /// every facet of values up to 4 KB is exact. The key is computed in a sub-select that `LIMIT -1` keeps from
    /// being flattened into the grouping query: flattened, SQLite 3.40 carries the whole column into the sorter
    /// beside the expressions (measured: 1 GB; 23 MB this way). Its presence test is `typeof(v) <> 'null'`, which
    /// SQLite answers from the record's header, where `v IS NOT NULL` reads the whole value once more.
    private func facetGrouping(_ attribute: AttributeMapping, source: String)
        -> (from: String, present: String, select: String, key: String) {
        guard TextPreviewSQL.applies(to: attribute.kind) else { return (source, "v IS NOT NULL", "v, count(*) AS n", "v") }
        let keys = "(SELECT \(TextPreviewSQL.groupItem("v", bytes: ValuePreview.maximumBytes)) AS k "
            + "FROM \(source) WHERE typeof(v) <> 'null' LIMIT -1)"
        return (keys, "1", "k, count(*) AS n", "k")
    }

    /// The value of a row of `facetGrouping`'s select list.
    private func facetValue(_ statement: SQLiteStatement, _ attribute: AttributeMapping) -> AttributeValue {
        guard TextPreviewSQL.applies(to: attribute.kind) else { return decoder.decode(statement, column: 0, as: attribute) }
        return decoder.decodePreviewKey(statement, column: 0, kind: attribute.kind, limit: ValuePreview.maximumBytes)
    }

    /// The range's part (a number or date with non-nil values): minimum, maximum and histogram, asked of SQLite.
    private func facetRange(_ request: FacetRequest, attribute: AttributeMapping, source: String, arguments: [SQLiteValue],
                            in connection: SQLiteConnection) throws -> (AttributeValue?, AttributeValue?, [FacetBucket]?) {
        let range = try connection.prepare("SELECT min(v), max(v) FROM \(source) WHERE v IS NOT NULL")
        try range.bind(arguments)
        guard try range.step() else { return (nil, nil, nil) }
        let minimum = decoder.decode(range, column: 0, as: attribute)
        let maximum = decoder.decode(range, column: 1, as: attribute)
        guard let low = FacetHistogram.number(minimum), let high = FacetHistogram.number(maximum) else {
            return (minimum, maximum, nil)
        }
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
        return (minimum, maximum, histogram.buckets(bars, as: request.attribute.type))
    }

    /// One pass for a column with at most `FacetRequest.distinctLimit` different values (most facets: a kind, a
    /// status, a year, a count): every group with its count, in value order, from which the top values, the
    /// distinct count, the range and the histogram follow without scanning again — an index on the column serves
    /// it. Nil when there are more groups; the caller then asks SQLite for each part.
    private func facetFromGroups(_ request: FacetRequest, attribute: AttributeMapping, source: String,
                                 arguments: [SQLiteValue], total: Int, looked: Int, sampled: Int?,
                                 in connection: SQLiteConnection) throws -> FacetCounts? {
        let grouping = facetGrouping(attribute, source: source)
        let statement = try connection.prepare(
            "SELECT \(grouping.select) FROM \(grouping.from) WHERE \(grouping.present) GROUP BY \(grouping.key) ORDER BY \(grouping.key) LIMIT \(FacetRequest.distinctLimit + 1)")
        try statement.bind(arguments)
        var groups: [FacetValueCount] = []
        while try statement.step() {
            if groups.count == FacetRequest.distinctLimit { return nil }
            groups.append(FacetValueCount(value: facetValue(statement, attribute), count: Int(statement.value(at: 1).int64 ?? 0)))
        }
        let nonNull = groups.reduce(0) { $0 + $1.count }
        // Most frequent first; equal counts keep the groups' value order, as `ORDER BY n DESC, v` gives them.
        let top = groups.enumerated()
            .sorted { $0.element.count != $1.element.count ? $0.element.count > $1.element.count : $0.offset < $1.offset }
            .prefix(request.top).map(\.element)
        var answer = FacetCounts(total: total, nulls: looked - nonNull, top: top, distinct: groups.count,
                                 distinctIsExact: true, others: nonNull - top.reduce(0) { $0 + $1.count }, sampled: sampled)
        guard request.hasRange, let first = groups.first, let last = groups.last else { return answer }
        answer.minimum = first.value
        answer.maximum = last.value
        guard let low = FacetHistogram.number(first.value), let high = FacetHistogram.number(last.value) else { return answer }
        let histogram = FacetHistogram(minimum: low, maximum: high, buckets: request.buckets,
                                       integral: request.attribute.type.isInteger)
        var bars = Array(repeating: 0, count: histogram.count)
        for group in groups {
            if let number = FacetHistogram.number(group.value) { bars[histogram.index(of: number)] += group.count }
        }
        answer.histogram = histogram.buckets(bars, as: request.attribute.type)
        return answer
    }
}
