/// Raw DEFLATE decompression (RFC 1951) in Swift: stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// Output stops at `maxOutput` bytes, so a decompression bomb costs at most that much memory and time; every
/// length, distance and table is checked, so corrupt input ends with a reason, never a trap.
public struct Inflater {
    public struct Result: Sendable {
        public var output: [UInt8]
        /// Input bytes the stream used (the end of the last block, rounded up to a byte): where a gzip or zlib
        /// trailer begins.
        public var consumed: Int
        /// True when output reached `maxOutput` before the stream ended.
        public var stoppedAtLimit: Bool
        /// Why inflating failed: nil when the final block ended (or the limit was reached).
        public var failure: String?
        /// True when the failure is that the input ran out.
        public var inputEnded: Bool

        /// True when the stream inflated to its end, within the limit.
        public var isComplete: Bool { failure == nil && !stoppedAtLimit }
    }

    private enum Failure: Error {
        case inputEnded
        case invalid(String)
        case limitReached
    }

    private let input: UnsafeRawBufferPointer
    private var position: Int
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    /// The output, written through a pointer (an Array's append checks capacity and uniqueness per byte, which
    /// was most of the time spent inflating): `count` bytes of `capacity`, doubled as needed up to `maxOutput`.
    private var output: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private let maxOutput: Int

    /// Inflates the raw DEFLATE stream that starts at `start` of `input` (a gzip or zlib container's payload, or
    /// a bare stream such as Core Data's `Z_MODELCACHE`), producing at most `maxOutput` bytes.
    public static func inflate(_ input: UnsafeRawBufferPointer, from start: Int, maxOutput: Int) -> Result {
        // Room for a typical ratio up front.
        let initial = min(maxOutput, max(1024, (input.count - start) * 4))
        var inflater = Inflater(input: input, position: start, maxOutput: maxOutput, capacity: initial)
        defer { inflater.output.deallocate() }
        var failure: String?
        var inputEnded = false
        var stopped = false
        do {
            try inflater.run()
        } catch {
            switch error {
            case .inputEnded:
                failure = "the compressed data is truncated"
                inputEnded = true
            case .invalid(let reason): failure = reason
            case .limitReached: stopped = true
            }
        }
        let consumed = inflater.position - inflater.bitCount / 8
        let output = Array(UnsafeBufferPointer(start: inflater.output, count: inflater.count))
        return Result(output: output, consumed: consumed, stoppedAtLimit: stopped, failure: failure, inputEnded: inputEnded)
    }

    private init(input: UnsafeRawBufferPointer, position: Int, maxOutput: Int, capacity: Int) {
        self.input = input
        self.position = position
        self.maxOutput = maxOutput
        self.capacity = max(1, capacity)
        output = .allocate(capacity: self.capacity)
    }

    /// Makes room for `needed` more bytes (the caller has capped `needed` at the limit).
    private mutating func reserve(_ needed: Int) {
        guard count + needed > capacity else { return }
        var grown = capacity
        while grown < count + needed { grown = min(maxOutput, grown * 2) }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: output, count: count)
        output.deallocate()
        output = larger
        capacity = grown
    }

    private mutating func run() throws(Failure) {
        var isFinal = false
        while !isFinal {
            isFinal = try bits(1) == 1
            switch try bits(2) {
            case 0: try storedBlock()
            case 1: try codesBlock(literals: Self.fixedLiterals, distances: Self.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables()
                try codesBlock(literals: literals, distances: distances)
            default: throw .invalid("invalid DEFLATE block type 3")
            }
        }
    }

    // MARK: Bits (RFC 1951 §3.1.1: least significant bit first)

    @inline(__always)
    private mutating func refill() {
        while bitCount <= 56, position < input.count {
            bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    @inline(__always)
    private mutating func bits(_ count: Int) throws(Failure) -> Int {
        if bitCount < count {
            refill()
            guard bitCount >= count else { throw .inputEnded }
        }
        let value = Int(bitBuffer & ((1 << UInt64(count)) - 1))
        bitBuffer >>= UInt64(count)
        bitCount -= count
        return value
    }

    @inline(__always)
    private mutating func decode(_ table: HuffmanTable) throws(Failure) -> Int {
        if bitCount < HuffmanTable.maximumLength { refill() }
        guard let (symbol, length) = table.decode(bitBuffer, available: bitCount) else {
            throw bitCount < HuffmanTable.maximumLength ? .inputEnded : .invalid("invalid Huffman code")
        }
        bitBuffer >>= UInt64(length)
        bitCount -= length
        return symbol
    }

    // MARK: Blocks

    /// RFC 1951 §3.2.4: byte-aligned LEN, NLEN (its complement), then LEN bytes copied as they are.
    private mutating func storedBlock() throws(Failure) {
        bitBuffer >>= UInt64(bitCount % 8)
        bitCount -= bitCount % 8
        let length = try bits(16)
        let complement = try bits(16)
        guard length == ~complement & 0xFFFF else { throw .invalid("stored block length does not match its complement") }
        // Whole bytes still in the bit buffer come first, then the input directly.
        var remaining = length
        while remaining > 0, bitCount >= 8 {
            try emit(UInt8(try bits(8)))
            remaining -= 1
        }
        guard remaining <= input.count - position else {
            try emitRun(input.count - position)
            throw .inputEnded
        }
        try emitRun(remaining)
    }

    /// Copies `count` input bytes to the output (stored blocks), up to the limit.
    private mutating func emitRun(_ length: Int) throws(Failure) {
        let taken = min(length, maxOutput - count)
        reserve(taken)
        if taken > 0 { (output + count).update(from: input.baseAddress!.advanced(by: position).assumingMemoryBound(to: UInt8.self), count: taken) }
        count += taken
        position += taken
        if taken < length { throw .limitReached }
    }

    @inline(__always)
    private mutating func emit(_ byte: UInt8) throws(Failure) {
        if count == capacity {
            guard count < maxOutput else { throw .limitReached }
            reserve(1)
        }
        output[count] = byte
        count += 1
    }

    // RFC 1951 §3.2.5: lengths 3…258 and distances 1…32768 as a base plus extra bits.
    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// RFC 1951 §3.2.6: the fixed codes.
    private static let fixedLiterals: HuffmanTable = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        return HuffmanTable(lengths: lengths[...])!
    }()
    private static let fixedDistances = HuffmanTable(lengths: [UInt8](repeating: 5, count: 30)[...])!

    private mutating func codesBlock(literals: HuffmanTable, distances: HuffmanTable) throws(Failure) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                try emit(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthCode = symbol - 257
            guard lengthCode < 29 else { throw .invalid("invalid length code \(symbol)") }
            let length = Self.lengthBase[lengthCode] + (try bits(Self.lengthExtra[lengthCode]))
            let distanceCode = try decode(distances)
            guard distanceCode < 30 else { throw .invalid("invalid distance code \(distanceCode)") }
            let distance = Self.distanceBase[distanceCode] + (try bits(Self.distanceExtra[distanceCode]))
            guard distance <= count else { throw .invalid("a back-reference points before the start of the output") }
            let copied = min(length, maxOutput - count)
            reserve(copied)
            // A distance shorter than the length repeats the bytes just written (RFC 1951 §3.2.3): a run of one
            // byte is a fill, a distance at least the length a plain copy, anything else byte by byte.
            let from = count - distance
            if distance == 1 {
                (output + count).update(repeating: output[from], count: copied)
            } else if distance >= copied {
                (output + count).update(from: output + from, count: copied)
            } else {
                for offset in 0..<copied { output[count + offset] = output[from + offset] }
            }
            count += copied
            if copied < length { throw .limitReached }
        }
    }

    /// RFC 1951 §3.2.7: the code-length code, then the literal/length and distance code lengths it encodes.
    private mutating func dynamicTables() throws(Failure) -> (HuffmanTable, HuffmanTable) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .invalid("too many codes in a dynamic block header") }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[order[index]] = UInt8(try bits(3)) }
        guard let codeLengthTable = HuffmanTable(lengths: codeLengthLengths[...]) else {
            throw .invalid("invalid code-length code in a dynamic block")
        }
        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var index = 0
        while index < lengths.count {
            let symbol = try decode(codeLengthTable)
            if symbol < 16 {
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            }
            var repeated: UInt8 = 0
            let times: Int
            switch symbol {
            case 16:
                guard index > 0 else { throw .invalid("a repeated code length has nothing to repeat") }
                repeated = lengths[index - 1]
                times = 3 + (try bits(2))
            case 17: times = 3 + (try bits(3))
            default: times = 11 + (try bits(7))
            }
            guard index + times <= lengths.count else { throw .invalid("code lengths overrun the dynamic block header") }
            for _ in 0..<times {
                lengths[index] = repeated
                index += 1
            }
        }
        guard lengths[256] > 0 else { throw .invalid("a dynamic block has no end-of-block code") }
        guard let literals = HuffmanTable(lengths: lengths[0..<literalCount]),
              let distances = HuffmanTable(lengths: lengths[literalCount...])
        else { throw .invalid("invalid Huffman table in a dynamic block") }
        return (literals, distances)
    }
}
