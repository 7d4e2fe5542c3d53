import BrowserCore
import Foundation
import Testing

/// `AttributeValue(foundationValue:type:)`, the conversion the live adapter uses for every attribute. Plain
/// Foundation, so these run on Linux too; the adapter's own tests need Core Data and run on macOS.
@Suite struct FoundationValueTests {
    private func json(_ value: Any?, _ type: AttributeType) throws -> String {
        String(decoding: try BrowserJSON.encode(AttributeValue(foundationValue: value, type: type)), as: UTF8.self)
    }

    @Test func integersKeepEveryDigitAndGoOutAsStringsBeyondJavaScriptsRange() throws {
        #expect(AttributeValue(foundationValue: NSNumber(value: Int16(-7)), type: .integer16) == .integer(-7))
        #expect(AttributeValue(foundationValue: NSNumber(value: Int64(9_007_199_254_740_993)), type: .integer64)
            == .integer(9_007_199_254_740_993))
        #expect(try json(NSNumber(value: Int64(9_007_199_254_740_993)), .integer64) == #""9007199254740993""#)
    }

    @Test func floatStaysAFloatAndDoublesMayBeNonFinite() throws {
        #expect(try json(NSNumber(value: Float(0.1)), .float) == "0.1")
        #expect(try json(NSNumber(value: Double.nan), .double) == #""NaN""#)
        #expect(try json(NSNumber(value: -Double.infinity), .double) == #""-Infinity""#)
    }

    @Test func decimalIsExactFromDecimalNumbers() throws {
        #expect(try json(NSDecimalNumber(string: "10.11"), .decimal) == #""10.11""#)
        #expect(try json(Decimal(string: "3.00"), .decimal) == #""3""#)
    }

    @Test func booleansDatesUUIDsAndURIs() throws {
        #expect(AttributeValue(foundationValue: NSNumber(value: true), type: .boolean) == .boolean(true))
        #expect(try json(Date(timeIntervalSince1970: 1.25), .date) == #""1970-01-01T00:00:01.250Z""#)
        let uuid = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
        #expect(AttributeValue(foundationValue: uuid, type: .uuid) == .uuid(uuid))
        #expect(try json(URL(string: "https://example.com/a?b=c")!, .uri) == #""https://example.com/a?b=c""#)
    }

    @Test func binaryAndTransformableDataShowOnlyTheirSize() throws {
        #expect(try json(Data(count: 2048), .binary) == #"{"bytes":2048,"type":"binary"}"#)
        #expect(AttributeValue(foundationValue: Data([1, 2, 3]), type: .transformable) == .binary(byteCount: 3))
    }

    @Test func nilAndNSNullAreNull() {
        #expect(AttributeValue(foundationValue: nil, type: .string) == .null)
        #expect(AttributeValue(foundationValue: NSNull(), type: .date) == .null)
    }

    @Test func aValueOfTheWrongTypeIsUndecodableNotACrash() {
        guard case .undecodable(let message) = AttributeValue(foundationValue: "text", type: .integer32) else {
            Issue.record("expected .undecodable")
            return
        }
        #expect(message.contains("Integer 32"))
    }

    /// `foundationValue` is what Core Data is handed (a seed, a predicate's constant): read back through
    /// `init(foundationValue:type:)` it is the same value.
    @Test("foundationValue round-trips", arguments: [
        (AttributeValue.integer(9_007_199_254_740_993), AttributeType.integer64), (.double(-0.5), .double),
        (.float(0.1), .float), (.decimal(Decimal(string: "10.11")!), .decimal), (.boolean(true), .boolean),
        (.string("Café"), .string), (.date(Date(timeIntervalSinceReferenceDate: 12.25)), .date),
        (.uuid(UUID(uuidString: "31D0046D-3C85-410E-BBB0-141FC0105E06")!), .uuid), (.binary(byteCount: 3), .binary),
        (.null, .string),
    ])
    func foundationValueRoundTrips(value: AttributeValue, type: AttributeType) {
        #expect(AttributeValue(foundationValue: value.foundationValue, type: type) == value)
    }
}
