import BrowserCore
import Foundation
#if canImport(Glibc)
import Glibc // memchr, memcmp
#elseif canImport(Darwin)
import Darwin // memchr, memcmp
#endif

/// `TextFolding.containsFolded` on UTF-8 bytes, without making Strings, for the text a search meets most: ASCII,
/// the Latin, Greek and Cyrillic letters below U+0500, U+1E00–U+214F (Vietnamese and polytonic Greek letters,
/// general punctuation such as dashes and quotes, currency and letter-like symbols), and U+3000–U+9FFF (CJK
/// punctuation, Hiragana, Katakana, Bopomofo, compatibility Jamo and the CJK Unified Ideographs: a Chinese or
/// Japanese search must not take 50 times longer than a Latin one). It answers nil for anything else (Hangul
/// syllables, which decompose; emoji; anything past U+9FFF), and the caller then takes the exact path
/// (`TextFolding`); when it answers, the answer is the exact path's.
///
/// Why it is exact: each scalar is folded through a table whose entries are `TextFolding.fold` of that scalar
/// alone, and only scalars whose fold is made of "simple" scalars (see `isSimple`) have an entry; a text holding
/// anything else (a combining mark, a character from U+0500 on, invalid UTF-8) is left to the exact path. The
/// folded text and the needle are then both sequences of simple scalars, each a grapheme cluster of its own with
/// no canonical decomposition, so `String.contains` (Characters, canonical equivalence) finds a match exactly
/// where a UTF-8 byte search does. Tests check the table's folds against `TextFolding.fold` of whole texts.
///
/// Why: the exact path makes a String per row and folds it with Foundation, about 2 µs a row, so a search over a
/// million titles took about 2 s; this path takes tens of nanoseconds.
enum FoldedContainsMatcher {
    /// The scalars handled besides ASCII: U+0080–U+04FF (two UTF-8 bytes), U+1E00–U+214F and U+3000–U+9FFF
    /// (three).
    static let ranges = [0x80..<0x500, 0x1E00..<0x2150, 0x3000..<0xA000]

    /// The table entry of a scalar, nil when it is not handled here.
    static func folded(_ value: Int) -> [UInt8]? {
        let table = FoldTable.shared
        guard let slot = FoldTable.slot(value), table.lengths[slot] > 0 else { return nil }
        let start = Int(table.offsets[slot])
        return Array(table.bytes[start..<start + Int(table.lengths[slot])])
    }

    /// Whether `text` contains `needle` after folding `text`, or nil when this path cannot tell exactly.
    static func contains(_ text: UnsafeRawBufferPointer, foldedNeedle needle: UnsafeRawBufferPointer) -> Bool? {
        let table = FoldTable.shared
        guard isSimpleNeedle(needle, table) else { return nil }
        // A scalar folds to at most 3 bytes per byte it takes (checked in `entry`), ASCII to 1.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count * 3 + 1) { buffer -> Bool? in
            guard let length = fold(text, into: buffer, table) else { return nil }
            return find(needle, in: UnsafeBufferPointer(rebasing: buffer[0..<length]))
        }
    }

    /// `TextFolding.fold(text)` as UTF-8, or nil when the text holds anything this path does not handle.
    static func fold(_ text: [UInt8]) -> [UInt8]? {
        text.withUnsafeBytes { text in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count * 3 + 1) { buffer in
                fold(text, into: buffer, FoldTable.shared).map { Array(buffer[0..<$0]) }
            }
        }
    }

    /// The scalar at `index` when it takes 2 or 3 bytes and is well formed, with its length; else nil.
    @inline(__always)
    private static func scalar(at index: Int, in bytes: UnsafeRawBufferPointer) -> (value: Int, length: Int)? {
        let byte = bytes[index]
        if byte >= 0xC2, byte <= 0xDF {
            guard index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 else { return nil }
            return (Int(byte & 0x1F) << 6 | Int(bytes[index + 1] & 0x3F), 2)
        }
        // E1…E9 lead U+1000–U+9FFF: never overlong (E0), never surrogates (ED).
        if byte >= 0xE1, byte <= 0xE9 {
            guard index + 2 < bytes.count, bytes[index + 1] & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80 else { return nil }
            return (Int(byte & 0x0F) << 12 | Int(bytes[index + 1] & 0x3F) << 6 | Int(bytes[index + 2] & 0x3F), 3)
        }
        return nil
    }

    /// Folds `text` into `buffer` (at least 3 bytes per byte of text); the folded length, or nil.
    private static func fold(_ text: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>,
                             _ table: FoldTable) -> Int? {
        guard let output = buffer.baseAddress else { return nil }
        var length = 0
        var index = 0
        let count = text.count
        guard let input = text.baseAddress else { return 0 }
        while index < count {
            // Eight ASCII bytes at a time (SWAR): lower-case A–Z by setting bit 0x20 where a byte is in 0x41…0x5A.
            while index + 8 <= count {
                let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                guard word & 0x8080_8080_8080_8080 == 0 else { break }
                let atLeastA = word &+ 0x3F3F_3F3F_3F3F_3F3F // high bit set where byte ≥ 0x41
                let aboveZ = word &+ 0x2525_2525_2525_2525 // high bit set where byte ≥ 0x5B
                let upper = atLeastA & ~aboveZ & 0x8080_8080_8080_8080
                UnsafeMutableRawPointer(output + length).storeBytes(of: word | (upper >> 2), as: UInt64.self)
                length += 8
                index += 8
            }
            guard index < count else { break }
            let byte = text[index]
            if byte < 0x80 {
                output[length] = byte &- 0x41 < 26 ? byte | 0x20 : byte
                length += 1
                index += 1
                continue
            }
            // Anything but a handled scalar (4-byte sequences, invalid UTF-8 included) goes the exact way.
            guard let (value, size) = scalar(at: index, in: text), let slot = FoldTable.slot(value) else { return nil }
            let entryLength = Int(table.lengths[slot])
            guard entryLength > 0 else { return nil }
            let start = Int(table.offsets[slot])
            for offset in 0..<entryLength {
                output[length + offset] = table.bytes[start + offset]
            }
            length += entryLength
            index += size
        }
        return length
    }

    /// The table entry for `value`: `TextFolding.fold` of the scalar alone, when the scalar stands alone (a mark
    /// folds differently after a letter than alone) and its fold is made of simple scalars.
    private static func entry(_ value: Int) -> [UInt8]? {
        guard value >= 0x80, let scalar = Unicode.Scalar(UInt32(value)), standsAlone(scalar) else { return nil }
        let folded = TextFolding.fold(String(Character(scalar)))
        let bytes = Array(folded.utf8)
        guard !bytes.isEmpty, bytes.count <= 3 * String(Character(scalar)).utf8.count,
              folded.unicodeScalars.allSatisfy(isSimple) else { return nil }
        return bytes
    }

    /// A scalar that is a grapheme cluster of its own whatever surrounds it and has no canonical decomposition:
    /// one that `standsAlone` and is its own NFD (nothing precomposed).
    static func isSimple(_ scalar: Unicode.Scalar) -> Bool {
        guard standsAlone(scalar) else { return false }
        if scalar.value < 0x80 { return true }
        let text = String(Character(scalar))
        return text.decomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(text.unicodeScalars)
    }

    /// ASCII but CR and LF (which form one cluster together), and in `ranges` the letters, digits, punctuation,
    /// symbols and spaces: no marks (they attach to what precedes them), controls or format characters (ZWJ
    /// joins emoji). These blocks hold no Hangul jamo, prepended or spacing-mark letters, which cluster too.
    static func standsAlone(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar != "\r" && scalar != "\n" }
        guard ranges.contains(where: { $0.contains(Int(scalar.value)) }) else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .surrogate, .privateUse, .unassigned,
             .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }

    private static func isSimpleNeedle(_ needle: UnsafeRawBufferPointer, _ table: FoldTable) -> Bool {
        var index = 0
        while index < needle.count {
            let byte = needle[index]
            if byte < 0x80 {
                guard byte != 0x0A, byte != 0x0D else { return false }
                index += 1
                continue
            }
            guard let (value, size) = scalar(at: index, in: needle), let slot = FoldTable.slot(value),
                  table.simple[slot] else { return false }
            index += size
        }
        return true
    }

    /// Whether `needle` occurs in `haystack` (bytes). UTF-8 never matches inside a scalar, so a byte match is a
    /// match of whole scalars.
    private static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = needle.count
        guard count > 0 else { return true }
        guard haystack.count >= count, let base = haystack.baseAddress, let pattern = needle.baseAddress
        else { return false }
        let first = Int32(pattern.load(as: UInt8.self))
        var start = 0
        let last = haystack.count - count
        // memchr finds each candidate first byte (vectorised in the C library), memcmp checks the rest.
        while start <= last, let hit = memchr(base + start, first, last - start + 1) {
            let position = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if memcmp(hit, pattern, count) == 0 { return true }
            start = position + 1
        }
        return false
    }

    /// The fold table, flattened into buffers that are allocated once and never freed, so reading an entry costs
    /// no reference counting: `lengths[slot]` bytes at `bytes[offsets[slot]]` (length 0: not handled), and whether
    /// the scalar is simple. Immutable after `init`.
    final class FoldTable: @unchecked Sendable {
        static let shared = FoldTable()

        let offsets: UnsafeMutableBufferPointer<UInt32>
        let lengths: UnsafeMutableBufferPointer<UInt8>
        let simple: UnsafeMutableBufferPointer<Bool>
        let bytes: UnsafeMutableBufferPointer<UInt8>

        /// The slot of a scalar of `ranges`, nil for any other.
        @inline(__always)
        static func slot(_ value: Int) -> Int? {
            if value < 0x500 { return value >= 0x80 ? value - 0x80 : nil }
            if value >= 0x1E00, value < 0x2150 { return value - 0x1E00 + 0x480 }
            return value >= 0x3000 && value < 0xA000 ? value - 0x3000 + 0x480 + 0x350 : nil
        }

        private init() {
            let values = Array(ranges.joined())
            let entries = values.map(FoldedContainsMatcher.entry)
            offsets = .allocate(capacity: values.count)
            lengths = .allocate(capacity: values.count)
            simple = .allocate(capacity: values.count)
            let flat = entries.flatMap { $0 ?? [] }
            bytes = .allocate(capacity: max(flat.count, 1))
            _ = bytes.initialize(from: flat)
            var offset = 0
            for (slot, value) in values.enumerated() {
                precondition(Self.slot(value) == slot)
                offsets[slot] = UInt32(offset)
                lengths[slot] = UInt8(entries[slot]?.count ?? 0)
                offset += entries[slot]?.count ?? 0
                simple[slot] = Unicode.Scalar(UInt32(value)).map(FoldedContainsMatcher.isSimple) ?? false
            }
        }
    }
}
