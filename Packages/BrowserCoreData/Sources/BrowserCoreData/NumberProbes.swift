#if canImport(CoreData)

/// Finds the nearest number a set holds, asking only whether a range holds one (`exists(lower, upper)`: a one-row
/// history probe or a count): galloping away from the start, then halving the range that holds it, so a number `n`
/// away costs about 2·log2(n) questions however many numbers there are. How persistent history is paged without a
/// sort descriptor (`HistoryRequests`).
enum NumberProbes {
    /// Whether some number lies in `lower ..< upper` (nil: unbounded on that side).
    typealias Exists = (_ lower: Int64?, _ upper: Int64?) throws -> Bool

    /// The largest number below `upper` (nil: the largest of all).
    static func largest(below upper: Int64?, exists: Exists) throws -> Int64? {
        guard try exists(nil, upper) else { return nil }
        var low: Int64 = 0
        var high: Int64
        if let upper {
            // Gallop down: [upper-1, upper), [upper-3, upper-1), … until a range holds one.
            high = upper
            var step: Int64 = 1
            while true {
                low = high > step ? high - step : 0
                if try exists(low, high) { break }
                // Only reached when the app purged its history between two probes.
                if low == 0 { return nil }
                high = low
                step = step > Int64.max / 2 ? Int64.max : step * 2
            }
        } else {
            // Gallop up: the largest is at or above `low` and below the first power of two with none above it.
            high = 1
            while try exists(high, nil) {
                low = high
                if high > Int64.max / 2 { high = Int64.max; break }
                high *= 2
            }
        }
        // A number lies in [low, high): halve towards the top.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if try exists(middle, high) { low = middle } else { high = middle }
        }
        return low
    }

    /// The smallest number at or above `lower`, by the same galloping and halving upwards.
    static func smallest(from lower: Int64, exists: Exists) throws -> Int64? {
        guard try exists(lower, nil) else { return nil }
        var low = lower
        var step: Int64 = 1
        var high: Int64
        while true {
            high = low > Int64.max - step ? Int64.max : low + step
            if try exists(low, high) { break }
            // Only reached when the app purged its history between two probes.
            if high == Int64.max { return nil }
            low = high
            step = step > Int64.max / 2 ? Int64.max : step * 2
        }
        // A number lies in [low, high): halve towards the bottom.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if try exists(low, middle) { high = middle } else { low = middle }
        }
        return low
    }
}

#endif
