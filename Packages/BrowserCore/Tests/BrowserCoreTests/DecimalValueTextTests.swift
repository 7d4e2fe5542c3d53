@testable import BrowserCore
import Foundation
import Testing

/// `DecimalValueText` writes what `Decimal.description` writes, for every kind of value an export meets: parsed
/// numerals of every length and exponent, values built from sign, exponent and significand, integers, and the
/// results of arithmetic (which Foundation does not normalise, so 1.5 × 2 keeps a trailing zero).
struct DecimalValueTextTests {
    private func text(_ value: Decimal) -> String {
        var bytes: [UInt8] = Array("x,".utf8)
        DecimalValueText.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func expectDescription(_ value: Decimal, _ label: @autoclosure () -> String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(text(value) == "x," + value.description, "\(label())", sourceLocation: sourceLocation)
    }

    #if os(Linux)
    /// On Linux the storage is read directly; if a Foundation update changed it, every value would silently take
    /// the slow path, so this says so.
    @Test func storageIsReadOnLinux() {
        #expect(DecimalValueText.storageIsKnown)
        #expect(DecimalValueText.parts(of: Decimal(string: "-10.25")!)
            == .init(isNaN: false, isNegative: true, mantissa: 1025, exponent: -2))
    }
    #endif

    @Test func edgeValues() {
        let values: [Decimal] = [
            0, 1, -1, 10, 100, 1000, -1000, 0.5, -0.5, 0.05, 0.001, 123.456, -123.456,
            Decimal.nan, Decimal.greatestFiniteMagnitude, Decimal.leastFiniteMagnitude, Decimal.leastNonzeroMagnitude,
            Decimal(Int64.max), Decimal(Int64.min), Decimal(UInt64.max), Decimal(Int64.max) + 1, Decimal(UInt64.max) + 1,
            Decimal(sign: .minus, exponent: 0, significand: 0), Decimal(sign: .plus, exponent: 127, significand: 9),
            Decimal(sign: .minus, exponent: -128, significand: 1), Decimal(sign: .plus, exponent: -19, significand: Decimal(UInt64.max)),
            Decimal(sign: .plus, exponent: -20, significand: Decimal(UInt64.max)), Decimal(sign: .plus, exponent: -18, significand: Decimal(UInt64.max)),
            Decimal(string: "3.3333333333")!, Decimal(string: "99999999999999999999")!, Decimal(string: "0.0000000000000000001")!,
            Decimal(12.99), Decimal(0.1), Decimal(-1e-10), Decimal(1e20), Decimal(Double.pi),
            Decimal(string: "1.5")! * 2, Decimal(string: "1.50")! + Decimal(string: "1.50")!, Decimal(1) / 3, Decimal(2) / 3 * 3,
            Decimal(10) - Decimal(string: "0.10")!, Decimal(string: "100")! * Decimal(string: "0.01")!,
        ]
        for value in values { expectDescription(value, "\(value)") }
    }

    /// Numerals of 1 to 38 digits with exponents across Decimal's range, in both signs, and what arithmetic makes
    /// of them.
    @Test func manyValuesAgainstDescription() {
        var generator = SeededGenerator(state: 20_261_125)
        var fastPath = 0
        for round in 0..<20_000 {
            let digitCount = Int.random(in: 1...38, using: &generator)
            var digits = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digitCount { digits.append(Character(String(Int.random(in: 0...9, using: &generator)))) }
            let exponent = Int.random(in: -100...90, using: &generator)
            let sign = Bool.random(using: &generator) ? "-" : ""
            let numeral = "\(sign)\(digits)e\(exponent)"
            guard let value = Decimal(string: numeral) else { continue }
            expectDescription(value, "\(numeral) (round \(round))")
            if DecimalValueText.parts(of: value) != nil { fastPath += 1 }

            let small = Decimal(sign: sign.isEmpty ? .plus : .minus, exponent: Int.random(in: -30...10, using: &generator),
                                significand: Decimal(UInt64.random(in: 0...UInt64.max >> Int.random(in: 0...60, using: &generator),
                                                                   using: &generator)))
            expectDescription(small, "significand \(small.significand) exponent \(small.exponent) (round \(round))")
            let sum = small + Decimal(string: "0.\(String(repeating: "0", count: round % 6))10")!
            let product = small * Decimal(string: "2.50")!
            expectDescription(sum, "\(small) + 0.…10 (round \(round))")
            expectDescription(product, "\(small) × 2.50 (round \(round))")
        }
        // Most numerals of up to 19 digits take the storage path: the test covers it, not only `description`.
        #if os(Linux)
        #expect(fastPath > 5_000, "values written from their storage: \(fastPath)")
        #endif
    }
}
