/// A canonical Huffman code as DEFLATE defines it (RFC 1951 §3.2.2), built from code lengths.
///
/// Decoding looks the next `fastBits` bits up in one table (codes that short are nearly all of them in real
/// streams); a longer code falls back to walking the canonical code length by length, as zlib's `puff.c` does.
/// The table is small on purpose: it is rebuilt for every dynamic block, and a hostile stream can hold many tiny
/// blocks, so its cost per block must stay a few hundred entries.
struct HuffmanTable: Sendable {
    static let fastBits = 9
    static let maximumLength = 15

    /// Indexed by the next `fastBits` input bits (least significant first): symbol << 4 | length, or 0 when the
    /// code is longer than `fastBits` bits (or unused).
    private var fast: [UInt16]
    /// Codes of each length, and the symbols in canonical order: what the slow path walks.
    private var counts: [Int]
    private var symbols: [UInt16]

    /// nil when the lengths over-subscribe the code space (more codes than bit patterns). An incomplete or empty
    /// code is accepted (RFC 1951 allows one distance code, or none in a block of literals only); a bit pattern
    /// that is no code fails to decode.
    init?(lengths: ArraySlice<UInt8>) {
        var counts = [Int](repeating: 0, count: Self.maximumLength + 1)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...Self.maximumLength {
            left <<= 1
            left -= counts[length]
            if left < 0 { return nil }
        }
        var offsets = [Int](repeating: 0, count: Self.maximumLength + 2)
        for length in 1...Self.maximumLength { offsets[length + 1] = offsets[length] + counts[length] }
        var symbols = [UInt16](repeating: 0, count: lengths.count)
        var nextCode = [Int](repeating: 0, count: Self.maximumLength + 1)
        var code = 0
        for length in 1...Self.maximumLength {
            code = (code + counts[length - 1]) << 1
            nextCode[length] = code
        }
        var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let length = Int(length)
            symbols[offsets[length]] = UInt16(symbol)
            offsets[length] += 1
            let assigned = nextCode[length]
            nextCode[length] += 1
            guard length <= Self.fastBits else { continue }
            // Codes are sent most significant bit first; the bit reader yields the first bit lowest.
            var reversed = 0
            for bit in 0..<length where assigned & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
            var index = reversed
            while index < 1 << Self.fastBits {
                fast[index] = UInt16(symbol << 4 | length)
                index += 1 << length
            }
        }
        self.fast = fast
        self.counts = counts
        self.symbols = symbols
    }

    /// The symbol the low bits of `bits` begin with and its code length, or nil when they match no code
    /// (`available` bits are valid).
    @inline(__always)
    func decode(_ bits: UInt64, available: Int) -> (symbol: Int, length: Int)? {
        let entry = Int(fast[Int(bits & UInt64(1 << Self.fastBits - 1))])
        if entry != 0 {
            let length = entry & 0xF
            return length <= available ? (entry >> 4, length) : nil
        }
        var code = 0
        var first = 0
        var index = 0
        for length in 1...Self.maximumLength {
            guard length <= available else { return nil }
            code |= Int(bits >> UInt64(length - 1) & 1)
            let count = counts[length]
            if code - first < count { return (Int(symbols[index + code - first]), length) }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        return nil
    }
}
