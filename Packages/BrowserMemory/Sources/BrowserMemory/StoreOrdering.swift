import BrowserCore
import Foundation

/// How the in-memory store orders attribute values, matching SQLite's `ORDER BY` on Core Data's columns:
/// NULL before everything, numbers by value, strings by UTF-8 bytes (BINARY collation), dates by time.
enum StoreOrdering {
    /// What a row is sorted by for one key: the attribute's value, or for `books.@count` how many records the
    /// relationship holds (an integer, 0 for none; never NULL, as SQLite's `COUNT(*)` is not).
    static func sortValue(of row: InMemoryStore.Row, by key: SortKey) -> AttributeValue {
        if key.countsRelationship { return .integer(Int64(row.links[key.attribute]?.count ?? 0)) }
        return row.values[key.attribute] ?? .null
    }

    static func compare(_ left: AttributeValue, _ right: AttributeValue) -> ComparisonResult {
        switch (left, right) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let a), .string(let b)), (.uri(let a), .uri(let b)):
            return compareBytes(Array(a.utf8), Array(b.utf8))
        case (.boolean(let a), .boolean(let b)):
            return compareValues(a ? 1 : 0, b ? 1 : 0)
        case (.date(let a), .date(let b)):
            return compareValues(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case (.uuid(let a), .uuid(let b)):
            return compareBytes(Array(a.uuidString.utf8), Array(b.uuidString.utf8))
        case (.binary(let a), .binary(let b)):
            return compareValues(a, b)
        default:
            if let a = numericValue(left), let b = numericValue(right) {
                // SQLite orders NaN as NULL would; keep it first so every adapter agrees.
                if a.isNaN || b.isNaN { return a.isNaN == b.isNaN ? .orderedSame : (a.isNaN ? .orderedAscending : .orderedDescending) }
                return compareValues(a, b)
            }
            return .orderedSame
        }
    }

    private static func numericValue(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .double(let number): number
        case .float(let number): Double(number)
        case .decimal(let number): NSDecimalNumber(decimal: number).doubleValue
        default: nil
        }
    }

    private static func compareValues<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }

    private static func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        a.lexicographicallyPrecedes(b) ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }
}
