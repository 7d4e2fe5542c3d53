@testable import BrowserSQLite
import Foundation
import Testing

/// Decimal columns stored as REAL are read back through `%.15g` and a numeral parser of our own (a million-row
/// export would otherwise spend its time in `String(format:)` and `Decimal(string:)`): both must give exactly
/// what Foundation gives.
struct DecimalReadingTests {
    static let posix = Locale(identifier: "en_US_POSIX")

    @Test func fifteenDigitsAreCsOwn() {
        for number in [0.0, -0.0, 10.11, 3.3333333332999993, 1e-7, 123456789012345678.0, -95.01, 1e300, Double.leastNonzeroMagnitude] {
            #expect(ValueDecoder.fifteenSignificantDigits(number) == String(format: "%.15g", number), "\(number)")
        }
    }

    @Test func theFastNumeralHasTheValueOfFifteenDigits() {
        var numbers: [Double] = [0, -0.0, 10.11, 95.01, 100_000, 1e16, 1e-7, 3.3333333332999993, 0.1 + 0.2, 123_456_789_012_345_680, -2.5e-300]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let cents = Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) / 100
            numbers += [cents, Double.random(in: -1e6...1e6, using: &generator) * pow(10, Double.random(in: -20...20, using: &generator))]
        }
        for number in numbers {
            let fast = ValueDecoder.decimal(from: ValueDecoder.decimalNumeral(number))
            #expect(fast == ValueDecoder.decimal(from: String(format: "%.15g", number)), "\(number)")
        }
    }

    @Test func numeralsParseAsFoundationParsesThem() {
        var numerals = ["0", "-0", "10.11", "10.00", "007.50", ".5", "5.", "+3", "-0.05", "1e5", "1E-5", "1.5e-7",
                        "123456789012345", "12345678901234567890123", "99999999999999999999.5", "1e120", "-1e-120"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let magnitude = Double.random(in: -12...12, using: &generator)
            numerals.append(String(format: "%.15g", Double.random(in: -1...1, using: &generator) * pow(10, magnitude)))
        }
        for numeral in numerals {
            let ours = ValueDecoder.decimal(from: numeral)
            let foundation = Decimal(string: numeral, locale: Self.posix)
            #expect(ours == foundation, "\(numeral)")
            #expect(ours?.description == foundation?.description, "\(numeral)")
        }
    }

    @Test(arguments: ["", "-", "+", ".", "1e", "e5", "1.2.3", "+-1", " 1", "1 ", "12abc", "0x10", "1e+", "NaN", "inf"])
    func anythingButANumeralIsRefused(text: String) {
        #expect(ValueDecoder.decimal(from: text) == nil)
    }
}
