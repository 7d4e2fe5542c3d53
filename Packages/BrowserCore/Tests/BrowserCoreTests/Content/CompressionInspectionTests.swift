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
