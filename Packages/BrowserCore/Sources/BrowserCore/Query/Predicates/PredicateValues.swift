import Foundation

/// Literal values as predicate text writes them.
enum PredicateValues {
    /// A whole numeral that fits 64 bits is an integer, another numeral without an exponent a decimal (exact,
    /// so `price == 10.11` means 10.11), one with an exponent a Double; nil past a Double's range.
    static func number(_ numeral: String) -> AttributeValue? {
        if let integer = Int64(numeral) { return .integer(integer) }
        if !numeral.contains(where: { $0 == "e" || $0 == "E" }), let decimal = Decimal(string: numeral, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN {
            return .decimal(decimal)
        }
        guard let double = Double(numeral), double.isFinite else { return nil }
        return .double(double)
    }

    /// `2020-03-01`, `2020-03-01T12:00:00Z`, with a fraction of a second or a UTC offset (`+02:00`).
    static func date(fromISO text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
