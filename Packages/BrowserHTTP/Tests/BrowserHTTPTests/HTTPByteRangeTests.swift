import BrowserHTTP
import Testing

/// `Range` headers against a 1,000-byte representation (RFC 9110 §14.1.2, §14.2).
struct HTTPByteRangeTests {
    @Test("ranges read", arguments: [
        (nil, HTTPByteRange.whole),
        ("bytes=0-99", .partial(0..<100)),
        ("bytes=900-", .partial(900..<1000)),
        ("bytes=900-5000", .partial(900..<1000)),  // a last position past the end is clamped
        ("bytes=-100", .partial(900..<1000)),
        ("bytes=-5000", .partial(0..<1000)),
        ("BYTES = 5-5".replacingOccurrences(of: " = ", with: "="), .partial(5..<6)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        // Ignored, so the whole representation is sent: several ranges, other units, malformed specs.
        ("bytes=0-1,5-6", .whole), ("items=0-1", .whole), ("bytes=abc", .whole), ("bytes=5-1", .whole),
        ("bytes=+1-2", .whole), ("bytes=", .whole),
    ] as [(String?, HTTPByteRange)])
    func ranges(header: String?, expected: HTTPByteRange) {
        #expect(HTTPByteRange(header: header, length: 1000) == expected)
    }

    @Test func contentRangeValues() {
        #expect(HTTPByteRange.partial(0..<100).contentRange(length: 1000) == "bytes 0-99/1000")
        #expect(HTTPByteRange.unsatisfiable.contentRange(length: 1000) == "bytes */1000")
        #expect(HTTPByteRange.whole.contentRange(length: 1000) == nil)
        // Nothing can be selected from an empty representation.
        #expect(HTTPByteRange(header: "bytes=0-", length: 0) == .unsatisfiable)
    }

    @Test func rangeAnswersHaveTheirReasonPhrases() {
        #expect(HTTPStatus(code: 206) == .partialContent)
        #expect(HTTPStatus(code: 206).description == "206 Partial Content")
        #expect(HTTPStatus(code: 416) == .rangeNotSatisfiable)
        #expect(HTTPStatus(code: 416).description == "416 Range Not Satisfiable")
    }
}
