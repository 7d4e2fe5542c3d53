import BrowserFormats
import Foundation
import Testing

/// DEFLATE (RFC 1951) in its gzip (RFC 1952) and zlib (RFC 1950) containers: blocks, checksums, damage, limits.
/// Samples made once with Python 3 and embedded (the command is beside each).
enum DeflateSamples {
    /// gzip.compress(b"The quick brown fox jumps over the lazy dog. " * 40, mtime=0) (1,800 bytes inflated)
    static let textGzip = Array(Data(base64Encoded: "H4sIAAAAAAACAwvJSFUoLM1MzlZIKsovz1NIy69QyCrNLShWyC9LLVIoAUrnJFZVKqTkp+sphIwqHlU8qnhU8ajiUcXDSzEA5sOVZAgHAAA=")!)
    /// random.seed(2); t = " ".join(random.choice(["alpha","beta","gamma","delta","epsilon","zeta","eta","theta"])
    /// for _ in range(300)).encode(); zlib.compress(t, 9): 1,726 bytes of text in a dynamic-Huffman block.
    static let dynamicHuffmanZlib = Array(Data(base64Encoded: """
        eNp1VFsSgzAIvIpXC9NM2xltnalfnL6tJLJsyIeoBFgeG8q6P8oi9WhC/+Jetq0sdf881/fret/q+jsrp0OzOOw5nY7H+duMzcwkHGt3cRiTFnyE\
        UDYERUPsYZVS8Rzt34LHNCEr+5wozDdpTgx3vUGHsBr7bIWagbjCZPSXEXpsGYdQmija+sgHZHDuWDgBk4xosfEMwgjGgubGSjMdTxu6oZR8PnUo\
        X2ejQsJFeDxBKUwNbAJOPFQuRKWMLkku4br4yKAVwlXAGeaHlEZwzLvDBS4eSeFAYZ9HGHKsKRIu2yqBAOkNlJEhCVuFrzuzhpfEpRzHRasxTQXz\
        js3VHCkQ3tfYbDBh3cFpliCytE75MWKMixO7QPHU/bINgU2nxLBk5tasifzt9PsCVtZx9A==
        """)!)
    static let dynamicHuffmanLength = 1726
    /// zlib header 78 01, a final stored block of 5 bytes, Adler-32 of "hello".
    static let storedHello: [UInt8] = [0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8) + [0x06, 0x2C, 0x02, 0x15]
    static let quickBrownFox = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 40)

    /// A gzip member around a hand-made raw stream, with a zero trailer.
    static func gzip(_ deflate: [UInt8]) -> [UInt8] {
        [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + deflate + [0, 0, 0, 0, 0, 0, 0, 0]
    }
}

/// Writes DEFLATE bits least significant first, for streams built by hand.
struct BitWriter {
    var bytes: [UInt8] = []
    private var bitCount = 0

    mutating func write(_ value: Int, bits: Int) {
        for bit in 0..<bits {
            if bitCount % 8 == 0 { bytes.append(0) }
            if value >> bit & 1 == 1 { bytes[bytes.count - 1] |= 1 << UInt8(bitCount % 8) }
            bitCount += 1
        }
    }

    /// A Huffman code, sent most significant bit first.
    mutating func writeCode(_ code: Int, length: Int) {
        for bit in (0..<length).reversed() { write(code >> bit & 1, bits: 1) }
    }
}

@Suite struct DeflateTests {
    private func gzip(_ bytes: [UInt8], maxOutput: Int = 1 << 20) -> CompressedContainer? {
        bytes.withUnsafeBytes { CompressedContainer.gzip($0, maxOutput: maxOutput) }
    }

    private func zlib(_ bytes: [UInt8], maxOutput: Int = 1 << 20) -> CompressedContainer? {
        bytes.withUnsafeBytes { CompressedContainer.zlib($0, maxOutput: maxOutput) }
    }

    @Test func dynamicHuffmanBlocksInflate() throws {
        let container = try #require(zlib(DeflateSamples.dynamicHuffmanZlib))
        #expect(container.kind == .zlib)
        #expect(container.problems.isEmpty)
        let words = String(decoding: container.inflated, as: UTF8.self).split(separator: " ")
        #expect(container.inflated.count == DeflateSamples.dynamicHuffmanLength)
        #expect(words.count == 300)
        #expect(Set(words).isSubset(of: ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]))
    }

    @Test func gzipChecksItsCRCAndLength() throws {
        let clean = try #require(gzip(DeflateSamples.textGzip))
        #expect(clean.kind == .gzip)
        #expect(clean.problems.isEmpty)
        #expect(String(decoding: clean.inflated, as: UTF8.self) == DeflateSamples.quickBrownFox)
        var bytes = DeflateSamples.textGzip
        bytes[bytes.count - 8] ^= 0xFF
        let damaged = try #require(gzip(bytes))
        #expect(damaged.problems == ["gzip CRC mismatch"])
        #expect(String(decoding: damaged.inflated, as: UTF8.self) == DeflateSamples.quickBrownFox)
        bytes = DeflateSamples.textGzip
        bytes[bytes.count - 4] ^= 0x01
        #expect(gzip(bytes)?.problems == ["gzip length mismatch"])
    }

    @Test func zlibChecksItsAdler32() {
        var bytes = DeflateSamples.storedHello
        bytes[bytes.count - 1] ^= 0x01
        #expect(zlib(bytes)?.problems == ["zlib Adler-32 mismatch"])
        #expect(zlib([0x78, 0xBB, 0, 0])?.problems == ["zlib stream needs a preset dictionary"])
        #expect(zlib(Array("ab".utf8)) == nil)
        // "x^" is a valid zlib header: text that starts so is a zlib stream that fails to inflate.
        #expect(zlib(Array("x^ is text".utf8))?.inflatedCleanly == false)
    }

    @Test func truncatedGzipSaysSo() {
        let cut = gzip(Array(DeflateSamples.textGzip.prefix(30)))
        #expect(cut?.kind == .gzip)
        #expect(cut?.problems == ["gzip: the compressed data is truncated"])
        #expect(cut?.inflatedCleanly == false)
        #expect(gzip(Array(DeflateSamples.textGzip.prefix(6)))?.problems == ["gzip header is truncated"])
        let noTrailer = gzip(Array(DeflateSamples.textGzip.dropLast(8)))
        #expect(noTrailer?.problems == ["gzip trailer is missing (the file is truncated)"])
    }

    @Test func storedBlockIsCopied() throws {
        let container = try #require(zlib(DeflateSamples.storedHello))
        #expect(container.problems.isEmpty)
        #expect(container.inflated == Array("hello".utf8))
        #expect(DeflateSamples.storedHello.withUnsafeBytes { Inflater.inflate($0, from: 2, maxOutput: 100).consumed } == 12)
    }

    @Test func corruptHuffmanTableIsRefused() {
        // A dynamic block whose code-length code over-subscribes: all 19 code-length codes have length 1.
        var writer = BitWriter()
        writer.write(1, bits: 1) // final
        writer.write(2, bits: 2) // dynamic
        writer.write(0, bits: 5)
        writer.write(0, bits: 5)
        writer.write(15, bits: 4) // 19 code-length codes
        for _ in 0..<19 { writer.write(1, bits: 3) }
        let container = gzip(DeflateSamples.gzip(writer.bytes))
        #expect(container?.problems == ["gzip: invalid code-length code in a dynamic block"])
        #expect(container?.inflated == [])
    }

    @Test func backReferenceBeforeTheStartIsRefused() {
        // Fixed block: length 3 (symbol 257, code 0000001), distance 1 (code 00000) with no output yet.
        var writer = BitWriter()
        writer.write(1, bits: 1)
        writer.write(1, bits: 2)
        writer.writeCode(0b0000001, length: 7)
        writer.writeCode(0, length: 5)
        #expect(gzip(DeflateSamples.gzip(writer.bytes))?.problems == ["gzip: a back-reference points before the start of the output"])
    }

    @Test func blockType3IsRefused() {
        let result = [0b111].withUnsafeBytes { Inflater.inflate($0, from: 0, maxOutput: 100) }
        #expect(result.failure == "invalid DEFLATE block type 3")
        #expect(!result.isComplete)
    }

    @Test func decompressionBombStopsAtTheLimit() {
        // Hand-made fixed-Huffman stream: one literal 0, then 4,000 copies of (length 258, distance 1): 1 MB.
        var writer = BitWriter()
        writer.write(1, bits: 1)
        writer.write(1, bits: 2)
        writer.writeCode(0x30, length: 8) // literal 0
        for _ in 0..<4_000 {
            writer.writeCode(0b11000101, length: 8) // symbol 285: length 258
            writer.writeCode(0, length: 5) // distance 1
        }
        writer.writeCode(0, length: 7) // end of block
        let container = gzip(DeflateSamples.gzip(writer.bytes), maxOutput: 100_000)
        #expect(container?.inflated.count == 100_000)
        #expect(container?.stoppedAtLimit == true)
        #expect(container?.problems == [])
        let whole = writer.bytes.withUnsafeBytes { Inflater.inflate($0, from: 0, maxOutput: 2 << 20) }
        #expect(whole.isComplete)
        #expect(whole.output.count == 1 + 4_000 * 258)
        #expect(whole.output.allSatisfy { $0 == 0 })
    }

    @Test func checksumsMatchTheirStandardCheckValues() {
        // The check value of each algorithm over "123456789" (RFC 1952's CRC-32: CBF43926; Adler-32: 091E01DE).
        let digits = Array("123456789".utf8)
        #expect(digits.withUnsafeBytes(Checksums.crc32) == 0xCBF4_3926)
        #expect(digits.withUnsafeBytes(Checksums.adler32) == 0x091E_01DE)
    }
}
