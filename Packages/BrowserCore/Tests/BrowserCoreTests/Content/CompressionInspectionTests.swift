import BrowserCore
import Foundation
import Testing

/// gzip and zlib samples made once with Python 3 and embedded (the command is beside each).
enum CompressedSamples {
    /// gzip.compress(bytes([0x08,0x00,0x12,0x0f,0x08,0x00,0x10,0x00,0x1a,0x09,0x12,0x05]) + b"Hello" + bytes([0x18,0x01]), mtime=0):
    /// an Apple Notes-like body, gzip → protobuf.
    static let protobufGzip = Array(Data(base64Encoded: "H4sIAAAAAAACA+NgEOLnYBBgkOIUYvVIzcnJl2AEAPNQQisTAAAA")!)
    /// zlib.compress(b'{"a": [1, 2, 3], "b": "hello"}')
    static let jsonZlib = Array(Data(base64Encoded: "eJyrVkpUslKINtRRMNJRMI7VUVBKAvKVMlJzcvKVagFrLgeC")!)
    /// gzip.compress(b"The quick brown fox jumps over the lazy dog. " * 40, mtime=0) (1,800 bytes inflated)
    static let textGzip = Array(Data(base64Encoded: "H4sIAAAAAAACAwvJSFUoLM1MzlZIKsovz1NIy69QyCrNLShWyC9LLVIoAUrnJFZVKqTkp+sphIwqHlU8qnhU8ajiUcXDSzEA5sOVZAgHAAA=")!)
    /// random.seed(1); t = " ".join(random.choice(["alpha","beta","gamma","delta","epsilon","zeta","eta","theta"])
    /// for _ in range(300)).encode(); zlib.compress(t, 9): 1,724 bytes of text in a dynamic-Huffman block.
    static let dynamicHuffmanZlib = Array(Data(base64Encoded: """
        eNp9VFsOwjAMuwpXa8QESOMh0a+cHkHWxXY6PihLmyax4/TS7vd2sqW30/J639bnI4x+1fX7Oy9rb+jQ1tc1jtLa3LdocMXTp64ZPr3CxiJix/MTX\
        UbKDPhLe/lBJHTOgMbZ+E/AiCiry6i+RwNSMOs4RrqIupF6vxJrJEMaMr1L1IobY2heZyywKT0qdcclrNJqetsZOAbLrJvQOdnnFrLFTXOVrc25PlCAVe\
        kqfmU57PjWSUHh5D1ndTEscsaqqDShomsUnCwsBU9lnox1gbdsFMxcg0yqDhCNa4cPeOf+wcsB0kJBkMy3SCQh53GZdBdp0UeKoGNGpxOTYqeVWB3XiTK\
        xbRx//hJA3QgEBzV71//OjIkcJi804kqlO9Vp0sRDyr2KlhuJWGv3vsYHcyBxZA==
        """)!)
    /// gzip.compress(gzip.compress(b"\\0" * 10_000_000, mtime=0, compresslevel=9), mtime=0, compresslevel=9):
    /// a 10 MB bomb (9,750 bytes) inside a 132-byte gzip.
    static let nestedBomb = Array(Data(base64Encoded: """
        H4sIAAAAAAACA+3YvQnCQACA0UuiECx0BN1DCFbB0sYhbFzBA0tBrMQFUjuDtQOIhRuIG/h3axzvVd8M33hXh6Ssnpei+Ec8fM6vehAAAACAzMX7tkozIE\
        y+t3axBAAAAHK3Gg3n6QX03pvHftZ3RwBysy6v3bSJx1P4AWvJRxwWJgAA
        """)!)
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

@Suite struct CompressionInspectionTests {
    @Test func gzipOfProtobufLooksInside() {
        let report = inspect(CompressedSamples.protobufGzip)
        #expect(report.kind == .gzip)
        #expect(report.inflatedSize == 19)
        #expect(report.summary == "gzip → protobuf “Hello” · 39 B")
        #expect(report.problems.isEmpty)
        let inner = try! #require(report.inner?.report)
        #expect(inner.kind == .protobuf)
        #expect(inner.size == 19)
        let strings = try! #require(inner.tree?.children.first)
        #expect(strings.type == "strings")
        #expect(strings.children.map(\.label) == ["2.3.2"])
        #expect(strings.children.map(\.value) == ["Hello"])
        let fields = Array(try! #require(inner.tree?.children.dropFirst()))
        #expect(fields.map(\.label) == ["1", "2"])
        #expect(fields[1].type == "message")
        #expect(fields[1].children.map(\.label) == ["1", "2", "3"])
        #expect(fields[1].children[2].children.first?.value == "Hello")
    }

    @Test func zlibOfJSONChecksAdlerAndShowsTheTree() {
        let report = inspect(CompressedSamples.jsonZlib)
        #expect(report.kind == .zlib)
        #expect(report.problems.isEmpty)
        #expect(report.inner?.report.kind == .json)
        #expect(report.summary == "zlib → JSON object (2 keys) · \(CompressedSamples.jsonZlib.count) B")
    }

    @Test func dynamicHuffmanBlocksInflate() {
        let report = inspect(CompressedSamples.dynamicHuffmanZlib)
        #expect(report.kind == .zlib)
        #expect(report.inflatedSize == 1_724)
        #expect(report.problems.isEmpty)
        #expect(report.inner?.report.kind == .utf8Text)
        #expect(report.inner?.report.text?.hasPrefix("alpha") == true || report.inner?.report.text?.isEmpty == false)
    }

    @Test func gzipCRCMismatchIsReported() {
        var bytes = CompressedSamples.textGzip
        bytes[bytes.count - 8] ^= 0xFF
        let report = inspect(bytes)
        #expect(report.kind == .gzip)
        #expect(report.problems == ["gzip CRC mismatch"])
        #expect(report.inner?.report.text == String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 40))
    }

    @Test func zlibAdlerMismatchIsReported() {
        var bytes = CompressedSamples.jsonZlib
        bytes[bytes.count - 1] ^= 0x01
        #expect(inspect(bytes).problems == ["zlib Adler-32 mismatch"])
    }

    @Test func truncatedGzipSaysSo() {
        let report = inspect(Array(CompressedSamples.textGzip.prefix(30)))
        #expect(report.kind == .gzip)
        #expect(report.problems == ["gzip: the compressed data is truncated"])
        let header = inspect(Array(CompressedSamples.textGzip.prefix(6)))
        #expect(header.kind == .gzip)
        #expect(header.problems == ["gzip header is truncated"])
    }

    @Test func storedBlockIsCopied() {
        // zlib header 78 01, a final stored block of 5 bytes, Adler-32 of "hello".
        let bytes: [UInt8] = [0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8) + [0x06, 0x2C, 0x02, 0x15]
        let report = inspect(bytes)
        #expect(report.kind == .zlib)
        #expect(report.problems.isEmpty)
        #expect(report.inner?.report.text == "hello")
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
        let report = inspect([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + writer.bytes + [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(report.kind == .gzip)
        #expect(report.problems == ["gzip: invalid code-length code in a dynamic block"])
        #expect(report.inner == nil)
    }

    @Test func backReferenceBeforeTheStartIsRefused() {
        // Fixed block: length 3 (symbol 257, code 0000001), distance 1 (code 00000) with no output yet.
        var writer = BitWriter()
        writer.write(1, bits: 1)
        writer.write(1, bits: 2)
        writer.writeCode(0b0000001, length: 7)
        writer.writeCode(0, length: 5)
        let report = inspect([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + writer.bytes + [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(report.problems == ["gzip: a back-reference points before the start of the output"])
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
        let gzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + writer.bytes + [0, 0, 0, 0, 0, 0, 0, 0]
        let report = inspect(gzip, limits: ContentLimits(maxInflatedBytes: 100_000))
        #expect(report.kind == .gzip)
        #expect(report.inflatedSize == 100_000)
        #expect(report.truncated == ["inflated output stopped at 98 KB"])
        #expect(report.problems.isEmpty)
        #expect(report.inner?.report.kind == .unknown)
    }

    @Test func nestedBombIsBoundedAtEachLevel() {
        let report = inspect(CompressedSamples.nestedBomb, limits: ContentLimits(maxInflatedBytes: 1 << 20))
        #expect(report.kind == .gzip)
        #expect(report.inflatedSize == 9_750)
        let inner = try! #require(report.inner?.report)
        #expect(inner.kind == .gzip)
        #expect(inner.inflatedSize == 1 << 20)
        #expect(inner.truncated == ["inflated output stopped at 1 MB"])
        #expect(report.summary == "gzip → gzip → binary data · 132 B")
    }

    @Test func nestingDepthIsLimited() {
        let report = inspect(CompressedSamples.nestedBomb, limits: ContentLimits(maxInflatedBytes: 1 << 20, maxNestedInspections: 1))
        let inner = try! #require(report.inner?.report)
        #expect(inner.kind == .gzip)
        #expect(inner.inner == nil)
        #expect(inner.truncated.contains("inflated bytes not inspected: compression nested more than 1 levels deep"))
    }
}
