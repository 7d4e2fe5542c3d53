import BrowserCore
import Foundation
import Testing

/// Every value encoding rule of the API, one row per rule, asserted on the exact JSON text.
struct AttributeValueEncodingTests {
    static let cases: [(AttributeValue, String)] = [
        (.null, "null"),
        (.string("Café \"quoted\" </script>"), #""Café \"quoted\" <\/script>""#),
        (.integer(42), "42"),
        (.integer(-32768), "-32768"),
        (.integer(9_007_199_254_740_991), "9007199254740991"),
        (.integer(-9_007_199_254_740_991), "-9007199254740991"),
        (.integer(9_007_199_254_740_992), #""9007199254740992""#),
        (.integer(-9_007_199_254_740_992), #""-9007199254740992""#),
        (.integer(.max), #""9223372036854775807""#),
        (.integer(.min), #""-9223372036854775808""#),
        (.double(2.5), "2.5"),
        (.double(.nan), #""NaN""#),
        (.double(.infinity), #""Infinity""#),
        (.double(-.infinity), #""-Infinity""#),
        (.float(0.1), "0.1"),
        (.float(.nan), #""NaN""#),
        (.decimal(Decimal(string: "10.11")!), #""10.11""#),
        (.decimal(Decimal(string: "12345678901234567890.123456789")!), #""12345678901234567890.123456789""#),
        (.boolean(true), "true"),
        (.boolean(false), "false"),
        (.date(Date(timeIntervalSinceReferenceDate: 639_503_569.64)), #""2021-04-07T15:52:49.640Z""#),
        (.date(Date(timeIntervalSince1970: 0)), #""1970-01-01T00:00:00Z""#),
        (.date(Date(timeIntervalSince1970: -1)), #""1969-12-31T23:59:59Z""#),
        (.date(Date(timeIntervalSince1970: 951_868_799.999)), #""2000-02-29T23:59:59.999Z""#),
        (.date(Date(timeIntervalSince1970: 59.9996)), #""1970-01-01T00:01:00Z""#),
        (.date(Date(timeIntervalSinceReferenceDate: -631_064_399)), #""1981-01-02T00:20:01Z""#),
        (.date(Date(timeIntervalSince1970: -5_364_662_400)), #""1800-01-01T00:00:00Z""#),
        (.uuid(UUID(uuidString: "fefe4176-912d-429f-8d6c-0a1b2c3d4e5f")!), #""FEFE4176-912D-429F-8D6C-0A1B2C3D4E5F""#),
        (.uri("https://example.com/a b"), #""https://example.com/a b""#),
        (.binary(byteCount: 1234), #"{"bytes":1234,"type":"binary"}"#),
        (.undecodable("invalid UTF-8"), #"{"message":"invalid UTF-8","type":"error"}"#),
        (.truncatedText(prefix: "Long \"text\"", byteCount: 10_485_760),
         #"{"bytes":10485760,"preview":"Long \"text\"","truncated":true,"type":"text"}"#),
    ]

    @Test("each value encodes to its exact JSON", arguments: cases)
    func encodes(value: AttributeValue, json: String) throws {
        // Encoded inside an array: top-level fragments are not what responses contain.
        let data = try BrowserJSON.encode([value])
        #expect(String(decoding: data, as: UTF8.self) == "[\(json)]".replacingOccurrences(of: #"<\/"#, with: "</"))
    }

    @Test func sortedKeysAndUnescapedSlashesInDictionaries() throws {
        let data = try BrowserJSON.encode(["b": AttributeValue.uri("x-coredata://S/E/p1"), "a": .integer(1)])
        #expect(String(decoding: data, as: UTF8.self) == #"{"a":1,"b":"x-coredata://S/E/p1"}"#)
    }
}
