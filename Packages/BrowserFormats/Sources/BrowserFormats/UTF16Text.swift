/// UTF-16 text: with a byte-order mark, or without one when the bytes have UTF-16's pattern for mostly-Latin
/// text (every other byte zero). Valid means no unpaired surrogate, no NUL and few control characters.
public enum UTF16Text {
    /// Units sampled for the BOM-less pattern.
    private static let sampleBytes = 4_096

    /// The decoded text (capped at `limit` characters) and whether it was cut, or nil when not UTF-16 text.
    public static func decode(_ bytes: UnsafeRawBufferPointer, limit: Int) -> (text: String, cut: Bool)? {
        guard bytes.count >= 2 else { return nil }
        var bigEndian: Bool
        var start = 0
        if bytes[0] == 0xFF, bytes[1] == 0xFE {
            (bigEndian, start) = (false, 2)
        } else if bytes[0] == 0xFE, bytes[1] == 0xFF {
            (bigEndian, start) = (true, 2)
        } else {
            guard bytes.count >= 4, bytes.count % 2 == 0 else { return nil }
            let sample = min(bytes.count, sampleBytes) / 2
            var zeroHigh = (little: 0, big: 0)
            for unit in 0..<sample {
                let first = bytes[2 * unit]
                let second = bytes[2 * unit + 1]
                if second == 0, first != 0 { zeroHigh.little += 1 }
                if first == 0, second != 0 { zeroHigh.big += 1 }
            }
            if zeroHigh.little * 10 >= sample * 9 {
                bigEndian = false
            } else if zeroHigh.big * 10 >= sample * 9 {
                bigEndian = true
            } else {
                return nil
            }
        }
        let unitCount = (bytes.count - start) / 2
        guard unitCount > 0 else { return nil }
        var controls = 0
        var expectingLow = false
        var scalars = 0
        var text = ""
        var pendingHigh: UInt16 = 0
        for index in 0..<unitCount {
            let offset = start + 2 * index
            let unit = bigEndian ? UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
                                 : UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset])
            if expectingLow {
                guard (0xDC00..<0xE000).contains(unit) else { return nil }
                expectingLow = false
                if scalars < limit, let scalar = Unicode.Scalar(0x10000 + (UInt32(pendingHigh - 0xD800) << 10) + UInt32(unit - 0xDC00)) {
                    text.unicodeScalars.append(scalar)
                }
                scalars += 1
                continue
            }
            switch unit {
            case 0: return nil
            case 0xD800..<0xDC00:
                expectingLow = true
                pendingHigh = unit
                continue
            case 0xDC00..<0xE000: return nil
            case 0x01...0x1F where unit != 0x09 && unit != 0x0A && unit != 0x0C && unit != 0x0D, 0x7F: controls += 1
            default: break
            }
            if scalars < limit, let scalar = Unicode.Scalar(unit) { text.unicodeScalars.append(scalar) }
            scalars += 1
        }
        guard controls * 100 <= unitCount else { return nil }
        return (text, scalars > limit)
    }
}
