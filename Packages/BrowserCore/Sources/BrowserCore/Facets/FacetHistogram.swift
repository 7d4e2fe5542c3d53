import Foundation

/// The buckets of a histogram: equal widths from the minimum, so every store computes the same bucket for a value
/// (`index(of:)` here; BrowserSQLite's SQL is the same arithmetic on the same doubles: subtract, divide, truncate).
public struct FacetHistogram: Sendable, Hashable {
    public let lower: Double
    public let width: Double
    public let count: Int
    /// Integer attributes get whole-number widths, so a bucket never splits one value.
    public let integral: Bool

    public init(minimum: Double, maximum: Double, buckets: Int, integral: Bool) {
        self.lower = minimum
        self.integral = integral
        let buckets = max(1, buckets)
        if integral {
            let span = maximum - minimum + 1
            let width = max(1, (span / Double(buckets)).rounded(.up))
            self.width = width
            self.count = max(1, Int((span / width).rounded(.up)))
        } else if maximum > minimum {
            self.width = (maximum - minimum) / Double(buckets)
            self.count = buckets
        } else {
            // One value: one bucket holding it.
            self.width = 1
            self.count = 1
        }
    }

    /// The bucket of `value` (values past the maximum land in the last one, which includes its upper bound).
    public func index(of value: Double) -> Int {
        let position = ((value - lower) / width).rounded(.towardZero)
        guard position.isFinite, position > 0 else { return 0 }
        return position >= Double(count - 1) ? count - 1 : Int(position)
    }

    /// The bucket's bounds: `lower ..< upper`, as numbers.
    public func bounds(_ index: Int) -> (lower: Double, upper: Double) {
        (lower + Double(index) * width, lower + Double(index + 1) * width)
    }

    /// The buckets with their counts (`bars[i]` values in bucket `i`), bounds as values of the attribute's type.
    public func buckets(_ bars: [Int], as type: AttributeType) -> [FacetBucket] {
        bars.indices.map { index in
            let bounds = bounds(index)
            return FacetBucket(lower: Self.value(bounds.lower, as: type), upper: Self.value(bounds.upper, as: type),
                               count: bars[index])
        }
    }

    /// A value of an attribute as a number on the histogram's line (dates as seconds since 2001, as Core Data
    /// keeps them), or nil for one that has no place on it.
    public static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .double(let number): number.isFinite ? number : nil
        case .float(let number): number.isFinite ? Double(number) : nil
        case .decimal(let number): number.isNaN ? nil : NSDecimalNumber(decimal: number).doubleValue
        case .date(let date): date.timeIntervalSinceReferenceDate
        default: nil
        }
    }

    /// A number on the line as a value of the attribute's type, for the answer's bounds.
    public static func value(_ number: Double, as type: AttributeType) -> AttributeValue {
        switch type {
        case .integer16, .integer32, .integer64:
            number.isFinite && abs(number) < 9.2e18 ? .integer(Int64(number.rounded(.down))) : .double(number)
        case .date: .date(Date(timeIntervalSinceReferenceDate: number))
        default: .double(number)
        }
    }
}
