/// Bounds-checked reads from the bytes under inspection: every format parser here and in BrowserCore reads through these, so an offset
/// or length taken from hostile data gives nil, never a trap.
extension UnsafeRawBufferPointer {
    public func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < count ? self[offset] : nil
    }

    /// Big-endian unsigned integer of `size` bytes (1…8) at `offset`.
    public func bigEndian(at offset: Int, size: Int) -> UInt64? {
        guard size >= 1, size <= 8, offset >= 0, offset <= count - size else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(self[index]) }
        return value
    }

    /// Little-endian unsigned integer of `size` bytes (1…8) at `offset`.
    public func littleEndian(at offset: Int, size: Int) -> UInt64? {
        guard size >= 1, size <= 8, offset >= 0, offset <= count - size else { return nil }
        var value: UInt64 = 0
        for index in (offset..<(offset + size)).reversed() { value = value << 8 | UInt64(self[index]) }
        return value
    }

    public func uint16BE(at offset: Int) -> Int? { bigEndian(at: offset, size: 2).map { Int($0) } }
    public func uint32BE(at offset: Int) -> Int? { bigEndian(at: offset, size: 4).map { Int($0) } }
    public func uint16LE(at offset: Int) -> Int? { littleEndian(at: offset, size: 2).map { Int($0) } }
    public func uint24LE(at offset: Int) -> Int? { littleEndian(at: offset, size: 3).map { Int($0) } }
    public func uint32LE(at offset: Int) -> Int? { littleEndian(at: offset, size: 4).map { Int($0) } }

    /// Whether the bytes at `offset` are exactly `prefix` (ASCII).
    public func matches(_ prefix: StaticString, at offset: Int = 0) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard offset >= 0, offset <= count - length else { return false }
        let start = prefix.utf8Start
        for index in 0..<length where self[offset + index] != start[index] { return false }
        return true
    }

    /// Whether the bytes from `offset` to the end are a prefix of `word` (a literal cut off by the end of input).
    public func matchesPrefix(of word: StaticString, at offset: Int) -> Bool {
        let start = word.utf8Start
        for index in offset..<count where index - offset >= word.utf8CodeUnitCount || self[index] != start[index - offset] {
            return false
        }
        return true
    }

    /// Index of the first occurrence of `needle` at or after `from`, before `end`.
    public func firstIndex(of needle: [UInt8], from: Int, end: Int? = nil) -> Int? {
        let limit = Swift.min(end ?? count, count) - needle.count
        guard let first = needle.first, from >= 0, from <= limit else { return nil }
        var index = from
        while index <= limit {
            if self[index] == first {
                var matched = true
                for offset in 1..<needle.count where self[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
