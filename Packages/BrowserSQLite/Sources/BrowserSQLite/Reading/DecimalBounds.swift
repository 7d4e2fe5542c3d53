import Foundation

/// Where a Decimal comparison cuts the stored doubles, so `price > 3.3333333333` is a plain, index-friendly
/// comparison of the REAL column that answers exactly what the reader shows.
///
/// A Decimal column holds a REAL, which the reader shows through its 15 significant digits
/// (`ValueDecoder.decimalNumeral`): CoreDataPlus wrote 3.3333333333 and stored 3.3333333332999993, which reads
/// back "3.3333333333". Comparing the REAL with `Double(3.3333333333)` would then say "not equal" to the value on
/// screen. Rounding to 15 digits is monotonic, so the doubles whose shown value is at least `d` are exactly those
/// from one double on: `lowest(showingAtLeast: d)`, found by bisection over the ordered doubles (64 steps, once
/// per query). INTEGER-stored decimals of up to 15 digits compare exactly against these bounds too.
enum DecimalBounds {
    /// The smallest double up to ±`limit` whose shown value is `>= d` (`strictly`: `> d`); nil when none's is.
    static func lowest(showing d: Decimal, strictly: Bool) -> Double? {
        func holds(_ key: Int64) -> Bool {
            let shown = ValueDecoder.decimal(from: ValueDecoder.decimalNumeral(double(key))) ?? 0
            return strictly ? shown > d : shown >= d
        }
        // Within ±1e100: Decimal holds these (it cannot hold every double; the reader shows larger ones as
        // undecodable), so the shown value is monotonic over the whole search.
        var low = key(-Self.limit), high = key(Self.limit)
        guard holds(high) else { return nil }
        // Invariant: holds(high); the answer is in low...high.
        while low < high {
            // The span can exceed Int64.max; as an unsigned number it cannot.
            let middle = low &+ Int64(bitPattern: UInt64(bitPattern: high &- low) / 2)
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return double(high)
    }

    static let limit = 1e100

    /// Doubles in order as integers: -0 and +0 are both 0.
    private static func key(_ value: Double) -> Int64 {
        let magnitude = Int64(bitPattern: value.magnitude.bitPattern)
        return value.sign == .minus ? -magnitude : magnitude
    }

    private static func double(_ key: Int64) -> Double {
        key < 0 ? -Double(bitPattern: UInt64(-key)) : Double(bitPattern: UInt64(key))
    }
}
