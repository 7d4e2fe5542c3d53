public import Foundation

/// Formats dates as ISO 8601 in UTC, the way the API sends them: `2021-04-07T15:12:49.640Z` when the value has
/// a fraction of a second (to the millisecond, which is what JavaScript's `Date` holds), `2021-04-07T15:12:49Z`
/// when it has none.
///
/// Written out rather than using `ISO8601DateFormatter`, which cannot switch fractional seconds per value and
/// is not documented as thread-safe on every platform this runs on.
public enum ISO8601Timestamp {
    public static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the date's text to a buffer (an export writes a million of them without a `String` each).
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return bytes.append(contentsOf: invalid) }
        var seconds = interval.rounded(.down)
        var milliseconds = ((interval - seconds) * 1000).rounded()
        if milliseconds >= 1000 {
            seconds += 1
            milliseconds = 0
        }
        // Dates far beyond year ±292 billion do not fit Int64 seconds; Core Data never stores such values.
        guard let whole = Int64(exactly: seconds) else { return bytes.append(contentsOf: invalid) }
        let days = floorDivide(whole, 86_400)
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        // ISO 8601 writes years outside 0000…9999 with a sign and at least four digits.
        if year < 0 { bytes.append(UInt8(ascii: "-")) } else if year > 9999 { bytes.append(UInt8(ascii: "+")) }
        appendPadded(abs(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, width: 2, to: &bytes)
        if milliseconds > 0 {
            bytes.append(UInt8(ascii: "."))
            appendPadded(Int64(milliseconds), width: 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    private static let invalid = Array("invalid date".utf8)

    /// Proleptic Gregorian calendar date of a day count from 1970-01-01 (the "days from civil" inverse,
    /// using 400-year eras of 146,097 days).
    static func civilDate(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468 // days from 0000-03-01
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor < 0) ? quotient - 1 : quotient
    }

    /// A non-negative value's decimal digits, left-padded with zeros to `width`.
    private static func appendPadded(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        DecimalText.appendDigits(value.magnitude, width: width, to: &bytes)
    }
}
