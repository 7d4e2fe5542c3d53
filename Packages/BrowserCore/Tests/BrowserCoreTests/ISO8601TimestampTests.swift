import BrowserCore
import Foundation
import Testing

/// Dates as the API and exports write them, against Foundation's own ISO 8601 formatter from 1583 (before the
/// Gregorian reform Foundation switches to the Julian calendar; ISO 8601, and this formatter, stay proleptic
/// Gregorian) to 9999, with millisecond fractions only when there is one; the proleptic and signed forms beyond.
struct ISO8601TimestampTests {
    static func formatter(fractional: Bool) -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter
    }

    @Test func matchesFoundationFrom1583To9999() {
        var generator = SystemRandomNumberGenerator()
        // 1583-01-01 to 9999-12-31, in whole milliseconds.
        let first: Int64 = -12_212_553_600_000, last: Int64 = 253_402_300_799_999
        let plain = Self.formatter(fractional: false), fractional = Self.formatter(fractional: true)
        var samples: [Int64] = [first, last, 0, -1, 1, 999, 1_000, 951_782_400_000]
        for _ in 0..<20_000 { samples.append(Int64.random(in: first...last, using: &generator)) }
        for millisecondsSince1970 in samples {
            let date = Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1_000)
            let expected = millisecondsSince1970 % 1_000 == 0 ? plain.string(from: date) : fractional.string(from: date)
            #expect(ISO8601Timestamp.string(from: date) == expected, "\(millisecondsSince1970)")
        }
    }

    @Test func earlierYearsAreProlepticGregorianAndYearsBeyondFourDigitsCarryASign() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -12_219_292_800)) == "1582-10-15T00:00:00Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -12_219_292_801)) == "1582-10-14T23:59:59Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == "+10000-01-01T00:00:00Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -62_167_219_200 - 86_400)) == "-0001-12-31T00:00:00Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: .nan)) == "invalid date")
    }
}
