/// Integers written as ASCII digits straight into a byte buffer: the cells of a million-row export, where a
/// `String` per number would cost more than reading the row.
enum DecimalText {
    /// Appends the decimal digits of `value`, left-padded with zeros to `width` (no sign).
    static func appendDigits(_ value: UInt64, width: Int = 1, to bytes: inout [UInt8]) {
        let count = max(digitCount(value), width)
        let end = bytes.count + count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        // Filled from the end through the buffer: no temporary, no slice of the (large, shared) batch array.
        bytes.withUnsafeMutableBufferPointer { buffer in
            var rest = value
            var index = end
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
        }
    }

    /// How many decimal digits `value` has (1 for zero).
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        return count
    }

    /// Appends an integer as `String(value)` writes it.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, to: &bytes)
    }
}
