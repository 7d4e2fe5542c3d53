import Foundation

/// `Decimal` values written straight into a byte buffer, exactly as `Decimal.description` writes them: the
/// cells of a million-row export, where `description` (a division of the 128-bit mantissa and a `String` append
/// per digit, then a reversal) cost a third of the encoding.
///
/// `description` writes the mantissa's digits as they are stored (a value is not normalised first: 1.50 built
/// by arithmetic reads "1.50"), with the point placed by the exponent: `M` followed by `e` zeros for `e ≥ 0`,
/// `0.` and `-e − digits` zeros before `M` when the point falls before its first digit, `-` first for a
/// negative value; `0` for zero, `NaN` for NaN.
///
/// Foundation on Linux keeps a Decimal's mantissa and exponent internal, and its public API reaches them only
/// through arithmetic, so they are read from the value's storage (`exponent: Int8`, a byte of length (high
/// four bits) and sign (bit 3), two reserved bytes, eight little-endian `UInt16` words of mantissa). That reading
/// is proved once per process against `description` on values that exercise each field (`storageIsKnown`); on a
/// platform where it does not hold (Apple's Foundation lays the same fields out as C bit-fields), and for
/// mantissas over 64 bits, the cell is `description` itself.
enum DecimalValueText {
    static func append(_ value: Decimal, to bytes: inout [UInt8]) {
        guard storageIsKnown, let parts = parts(of: value) else {
            return bytes.append(contentsOf: value.description.utf8)
        }
        appendParts(parts, to: &bytes)
    }

    /// A Decimal's sign, mantissa and exponent as its storage holds them; nil for a value whose mantissa needs more
    /// than 64 bits (written through `description`). NaN is `Parts.notANumber`.
    struct Parts: Equatable {
        var isNaN: Bool
        var isNegative: Bool
        var mantissa: UInt64
        var exponent: Int

        static let notANumber = Parts(isNaN: true, isNegative: false, mantissa: 0, exponent: 0)
    }

    static func parts(of value: Decimal) -> Parts? {
        withUnsafeBytes(of: value) { storage -> Parts? in
            let exponent = Int(Int8(bitPattern: storage[0]))
            let flags = storage[1]
            let length = Int(flags >> 4)
            let isNegative = flags & 0b0000_1000 != 0
            if length == 0 { return isNegative ? .notANumber : Parts(isNaN: false, isNegative: false, mantissa: 0, exponent: 0) }
            guard length <= 4 else { return nil }
            var mantissa: UInt64 = 0
            for word in (0..<length).reversed() {
                mantissa = mantissa << 16 | UInt64(storage.loadUnaligned(fromByteOffset: 4 + 2 * word, as: UInt16.self).littleEndian)
            }
            // A zero with a length (never built by Foundation's own operations) is written through `description`,
            // which gives it as many digits as its exponent places.
            guard mantissa != 0 else { return nil }
            return Parts(isNaN: false, isNegative: isNegative, mantissa: mantissa, exponent: exponent)
        }
    }

    /// `description`'s text of a value with these parts.
    static func appendParts(_ parts: Parts, to bytes: inout [UInt8]) {
        if parts.isNaN { return bytes.append(contentsOf: "NaN".utf8) }
        if parts.mantissa == 0 { return bytes.append(UInt8(ascii: "0")) }  // Only a plain zero reaches here.
        if parts.isNegative { bytes.append(UInt8(ascii: "-")) }
        if parts.exponent >= 0 {
            DecimalText.appendDigits(parts.mantissa, to: &bytes)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: parts.exponent))
            return
        }
        let fractionDigits = -parts.exponent
        let digitCount = DecimalText.digitCount(parts.mantissa)
        if fractionDigits >= digitCount {
            bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ".")])
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: fractionDigits - digitCount))
            DecimalText.appendDigits(parts.mantissa, to: &bytes)
            return
        }
        var power: UInt64 = 1
        for _ in 0..<fractionDigits { power *= 10 }
        DecimalText.appendDigits(parts.mantissa / power, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        DecimalText.appendDigits(parts.mantissa % power, width: fractionDigits, to: &bytes)
    }

    /// Whether this platform's Decimal storage is the one `parts(of:)` reads, shown by values built through the
    /// public API whose parts are known: the text `parts(of:)` gives must be `description`'s, and the parts must
    /// be the expected ones (a wrong reading of a field cannot pass by chance).
    static let storageIsKnown: Bool = {
        let samples: [(Decimal, Parts)] = [
            (Decimal(sign: .minus, exponent: -2, significand: Decimal(12_345 as UInt64)),
             Parts(isNaN: false, isNegative: true, mantissa: 12_345, exponent: -2)),
            (Decimal(sign: .plus, exponent: 7, significand: Decimal(3 as UInt64)),
             Parts(isNaN: false, isNegative: false, mantissa: 3, exponent: 7)),
            (Decimal(sign: .plus, exponent: -20, significand: Decimal(0x1234_5678_9ABC_DEF1 as UInt64)),
             Parts(isNaN: false, isNegative: false, mantissa: 0x1234_5678_9ABC_DEF1, exponent: -20)),
            (Decimal(0), Parts(isNaN: false, isNegative: false, mantissa: 0, exponent: 0)),
            (Decimal.nan, .notANumber),
        ]
        return samples.allSatisfy { value, expected in
            guard let read = parts(of: value), read == expected else { return false }
            var text: [UInt8] = []
            appendParts(read, to: &text)
            return text.elementsEqual(value.description.utf8)
        }
    }()
}
