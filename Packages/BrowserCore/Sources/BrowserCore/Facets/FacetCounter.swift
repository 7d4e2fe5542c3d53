/// Counts a facet in Swift, over the records a cursor hands out: for stores that cannot ask a database (the
/// in-memory store, a live context). Looks at `FacetRequest.sampleLimit` records at most and says so, and stops
/// between batches once the facet's deadline has passed (`FacetCut.records`).
public enum FacetCounter {
    public static func count(_ request: FacetRequest, total: Int, cursor: any RecordCursor) async throws -> FacetCounts {
        let name = request.attribute.name
        // Every value met is counted (at most `sampleLimit` records are looked at, so at most that many keys), so
        // the top values are those of every record looked at, as SQL's GROUP BY gives them; only the distinct
        // count is reported up to `distinctLimit`.
        var counts: [AttributeValue: Int] = [:]
        var looked = 0
        var nulls = 0
        var numbers: [Double] = []
        var smallest: (number: Double, value: AttributeValue)?
        var largest: (number: Double, value: AttributeValue)?
        var cut: FacetCut?
        scanning: while true {
            // Past the facet's deadline the records looked at so far are the answer (`FacetCut.records`).
            if request.isPastDeadline, looked < min(total, FacetRequest.sampleLimit) {
                cut = .records
                break
            }
            guard let batch = try await cursor.next() else { break }
            let slot = batch.attributeNames.firstIndex(of: name)
            for row in 0..<batch.count {
                if looked == FacetRequest.sampleLimit { break scanning }
                looked += 1
                let value = slot.flatMap { batch.value(at: row, slot: $0) } ?? .null
                if value == .null {
                    nulls += 1
                    continue
                }
                if request.hasRange, let number = FacetHistogram.number(value) {
                    numbers.append(number)
                    if number < smallest?.number ?? .infinity { smallest = (number, value) }
                    if number > largest?.number ?? -.infinity { largest = (number, value) }
                }
                counts[value, default: 0] += 1
            }
        }
        let top = counts.sorted { $0.value != $1.value ? $0.value > $1.value : FacetValueOrder.ascending($0.key, $1.key) }
            .prefix(request.top).map { FacetValueCount(value: $0.key, count: $0.value) }
        var answer = FacetCounts(
            total: total, nulls: nulls, top: top, distinct: min(counts.count, FacetRequest.distinctLimit),
            distinctIsExact: counts.count <= FacetRequest.distinctLimit,
            others: looked - nulls - top.reduce(0) { $0 + $1.count },
            sampled: looked < total ? looked : nil, cut: cut)
        if let smallest, let largest {
            answer.minimum = smallest.value
            answer.maximum = largest.value
            let histogram = FacetHistogram(minimum: smallest.number, maximum: largest.number, buckets: request.buckets,
                                           integral: request.attribute.type.isInteger)
            var bars = Array(repeating: 0, count: histogram.count)
            for number in numbers { bars[histogram.index(of: number)] += 1 }
            answer.histogram = histogram.buckets(bars, as: request.attribute.type)
        }
        return answer
    }
}
