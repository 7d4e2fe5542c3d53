@testable import BrowserCore
import Foundation
import Testing

/// The hand-written JSON of the hot response types against `JSONEncoder` itself (the encoder `BrowserJSON` used
/// for them before): every value must come out byte for byte the same, so the API's bytes did not change.
struct JSONBytesTests {
    // MARK: Oracle

    /// What `BrowserJSON` produced through `JSONEncoder`: the type's own `Encodable` conformance, not its writer.
    private static func encoderBytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// Compares bytes, not `String`s: `String`'s `==` takes canonically equivalent text as equal.
    private static func expectIdentical<Value: Encodable & JSONWritable>(_ value: Value,
                                                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try encoderBytes(value)
        let written = Array(value.jsonData)
        #expect(sameJSON(written, expected), "\(String(decoding: written, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))",
                sourceLocation: sourceLocation)
        #expect(sameJSON(Array(try BrowserJSON.encode(value)), expected), sourceLocation: sourceLocation)
    }

    /// Byte for byte where Foundation is swift-foundation's open build (Linux): the writer copies its rules. Apple's
    /// own Foundation sorts keys with `NSString` comparison and prints some floats its own way, so there the two
    /// documents must mean the same (the writer's bytes are then the Linux ones, on every platform).
    static func sameJSON(_ written: [UInt8], _ expected: [UInt8]) -> Bool {
        #if canImport(Darwin)
        let parse = { (bytes: [UInt8]) in try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? NSObject }
        return parse(written) != nil && parse(written) == parse(expected)
        #else
        return written == expected
        #endif
    }

    // MARK: Samples

    static let controlCharacters = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }

    static let texts: [String] = controlCharacters + [
        controlCharacters.joined(), "", "plain", "\u{7F}", "\"", "\\", "/", "a/b\\c\"d", "</script>", "\u{2028}", "\u{2029}",
        "😀", "👩‍👩‍👧‍👦", "e\u{301}", "\u{E9}", "\u{301}", "日本語のテキスト", "한국어", "\u{FEFF}", "\u{FFFD}", "\u{80}\u{9F}",
        "x-coredata://11111111-2222-3333-4444-555555555555/Book/p42", "tab\there", "line\r\nbreak", "\u{0}inside\u{0}",
        "mixed \u{1F}\u{7F}\u{2028}\"\\/é😀",
    ]

    static let keys: [String] = [
        "", "a", "A", "b", "B", "Z", "z", "_", "~", "1", "10", "2", "a b", "ab", "aB", "é", "e\u{301}x", "f", "ä", "😀",
        "\u{FF5E}", "日本", "key\"quoted", "key\\slash", "key/slash", "\u{1}control", "pageCount", "publishedAt",
    ]

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.1 + 0.2, 2.5, 100, 1e15, 1e16, 1e17, 1e20, 1e21, 1e22, 1e-5, 1e-6, 1e-7, -1e-7, 0.001, 0.0001,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.2250738585072014e-308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .pi,
        9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, 123_456_789_012_345_680, 1.5e300, 12_345.678e10,
    ]

    static let floats: [Float] = [
        0, -0.0, 0.1, 1, 100, 1.5, 1e10, 1e20, 1e-7, .leastNonzeroMagnitude, 16_777_216, 16_777_218, .greatestFiniteMagnitude, .leastNormalMagnitude,
        -.greatestFiniteMagnitude, .pi,
    ]

    static let dates: [Date] = [
        -62_135_596_800.0, -5_364_662_400, -1.5, -1, -0.001, 0, 0.0004, 0.001, 0.9996, 59.9996, 951_868_799.999, 1_700_000_000.123,
        253_402_300_799.999, 253_402_300_800, 1e13, -1e13, 1e15, .infinity, .nan,
    ].map { Date(timeIntervalSince1970: $0) }

    static let decimals: [Decimal] = [
        0, 1, -1, Decimal(string: "10.11")!, Decimal(string: "-0.000001")!, Decimal(string: "12345678901234567890.123456789")!,
        Decimal(string: "1e30")!, Decimal(string: "1e-30")!, .nan, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
    ]

    static let integers: [Int64] = [
        0, 1, -1, 42, -32_768, 9_007_199_254_740_990, 9_007_199_254_740_991, 9_007_199_254_740_992, -9_007_199_254_740_991,
        -9_007_199_254_740_992, .max, .min, .max - 1, .min + 1,
    ]

    /// Every case of `AttributeValue` with the edge values above.
    static var attributeValues: [AttributeValue] {
        var values: [AttributeValue] = [.null, .boolean(true), .boolean(false), .double(.nan), .double(.infinity),
                                        .double(-.infinity), .float(.nan), .float(.infinity), .float(-.infinity),
                                        .binary(byteCount: 0), .binary(byteCount: 1234), .binary(byteCount: .max),
                                        .uuid(UUID(uuidString: "fefe4176-912d-429f-8d6c-0a1b2c3d4e5f")!), .uuid(UUID())]
        values += texts.flatMap { [AttributeValue.string($0), .uri($0), .undecodable($0)] }
        values += integers.map(AttributeValue.integer) + doubles.map(AttributeValue.double) + floats.map(AttributeValue.float)
        values += decimals.map(AttributeValue.decimal) + dates.map(AttributeValue.date)
        return values
    }

    // MARK: Scalars

    @Test func everyAttributeValueCase() throws {
        for value in Self.attributeValues {
            try Self.expectIdentical(value)
            try Self.expectIdentical([value])
        }
    }

    @Test func randomDoubleAndFloatBitPatterns() throws {
        var generator = SeededGenerator(state: 0x5EED_D0B1E)
        var tested = 0
        while tested < 600 {
            let double = Double(bitPattern: generator.next())
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            guard double.isFinite, float.isFinite else { continue }
            try Self.expectIdentical(AttributeValue.double(double))
            try Self.expectIdentical(AttributeValue.float(float))
            // Whole numbers and short decimals too: random bit patterns are almost never either.
            let whole = Double(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &generator))
            try Self.expectIdentical(AttributeValue.double(whole))
            try Self.expectIdentical(AttributeValue.double(whole / 1000))
            try Self.expectIdentical(AttributeValue.float(Float(whole / 1000)))
            tested += 1
        }
    }

    @Test func randomDecimals() throws {
        var generator = SeededGenerator(state: 0xDEC1)
        for _ in 0..<300 {
            // Mantissas of up to 64 bits are written from their storage, longer ones through `description`.
            let significand = Decimal(generator.next() >> UInt64.random(in: 0...63, using: &generator))
                * (Bool.random(using: &generator) ? Decimal(generator.next()) : 1)
            let value = Decimal(sign: Bool.random(using: &generator) ? .minus : .plus,
                                exponent: Int.random(in: -40...40, using: &generator), significand: significand)
            try Self.expectIdentical(AttributeValue.decimal(value))
        }
    }

    @Test func randomDatesAndUUIDs() throws {
        var generator = SeededGenerator(state: 0xDA7E)
        for _ in 0..<300 {
            let seconds = Double(Int64.random(in: -100_000_000_000...100_000_000_000, using: &generator)) / 1000
            try Self.expectIdentical(AttributeValue.date(Date(timeIntervalSince1970: seconds)))
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                                   bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            try Self.expectIdentical(AttributeValue.uuid(uuid))
        }
    }

    /// The rules the writer copies, spelled out: a change of toolchain that breaks one shows which.
    @Test func encoderRulesAsObserved() throws {
        let controls = Self.controlCharacters.joined() + "\u{7F}\u{2028}/"
        #expect(Array(AttributeValue.string(controls).jsonData) == Array(("\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
            + "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a"
            + "\\u001b\\u001c\\u001d\\u001e\\u001f\u{7F}\u{2028}/\"").utf8))
        let numbers: [(AttributeValue, String)] = [(.double(100), "100"), (.double(-0.0), "-0"), (.double(1e20), "1e+20"),
                                                   (.double(1e-7), "1e-07"), (.float(0.1), "0.1"), (.double(1e16), "1e+16"),
                                                   (.double(1e15), "1000000000000000")]
        for (value, text) in numbers {
            #expect(String(decoding: value.jsonData, as: UTF8.self) == text)
        }
        let sorted = Self.keys.sorted(by: JSONBytes.keyPrecedes)
        #expect(sorted.prefix(8) == ["", "\u{1}control", "1", "10", "2", "A", "B", "Z"])
        #expect(sorted.firstIndex(of: "e\u{301}x")! < sorted.firstIndex(of: "f")!)
        #expect(sorted.firstIndex(of: "f")! < sorted.firstIndex(of: "é")!)
    }

    /// `BrowserJSON.encode` takes the written bytes for a `JSONWritable`, whatever its `Encodable` conformance says.
    @Test func browserJSONPrefersTheWriter() throws {
        struct Both: Encodable, JSONWritable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode("encoder")
            }

            func writeJSON(into json: inout JSONBytes) {
                json.appendString("writer")
            }
        }
        #expect(String(decoding: try BrowserJSON.encode(Both()), as: UTF8.self) == #""writer""#)
        #expect(String(decoding: try BrowserJSON.encode([Both()]), as: UTF8.self) == #"["writer"]"#)
        #expect(String(decoding: try BrowserJSON.encode(["k": Both()]), as: UTF8.self) == #"{"k":"writer"}"#)
        #expect(String(decoding: try BrowserJSON.encode(["k": [Both()]]), as: UTF8.self) == #"{"k":["writer"]}"#)
    }

    /// The standard types DTOs are made of, alone and in arrays and dictionaries (which `BrowserJSON` writes too).
    @Test func standardTypesAndContainers() throws {
        for text in Self.texts {
            try Self.expectIdentical(text)
        }
        try Self.expectIdentical(Self.texts)
        try Self.expectIdentical(Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, $0) }))
        try Self.expectIdentical(Dictionary(uniqueKeysWithValues: Self.keys.enumerated().map { ($1, [$0, -$0, .max, .min]) }))
        try Self.expectIdentical([true, false])
        try Self.expectIdentical(Self.integers)
        try Self.expectIdentical([Int.max, Int.min, 0, -1, 1])
        try Self.expectIdentical([[String: Int]]())
        try Self.expectIdentical([String: [Int64]]())
        try Self.expectIdentical([[String: Bool]](repeating: [:], count: 3))
    }

    // MARK: Objects

    @Test func keysInEncoderOrder() throws {
        var attrs: [String: AttributeValue] = [:]
        for (index, key) in Self.keys.enumerated() { attrs[key] = .integer(Int64(index)) }
        try Self.expectIdentical(RowDTO(id: "x-coredata://S/Book/p1", entity: "Book", summary: "One", attrs: attrs))
        for key in Self.keys {
            try Self.expectIdentical(RowDTO(id: key, entity: key, summary: key, attrs: [key: .string(key)]))
        }
    }

    @Test func emptyPagesRowsAndObjects() throws {
        try Self.expectIdentical(RecordsPageDTO(total: 0, offset: 0, limit: 50, rows: []))
        try Self.expectIdentical(RecordsPageDTO(total: 3, offset: 2, limit: 1, rows: [RowDTO(id: "", entity: "", summary: "", attrs: [:])]))
        try Self.expectIdentical(ObjectDTO(id: "i", entity: "E", summary: "", attrs: [:], relationships: []))
        try Self.expectIdentical(ObjectDTO(id: "i", entity: "E", summary: "s", attrs: [:], relationships: [], version: 0))
        try Self.expectIdentical([ObjectReferenceDTO]())
    }

    /// Rows after the first reuse its key order when they have the same keys; a row whose keys differ (even by
    /// its last key only, or with the same count) is sorted afresh.
    @Test func rowsSharingOrChangingKeys() throws {
        let keySets: [[String]] = [["b", "a", "c"], ["a", "b", "c"], ["a", "b", "d"], ["a", "b", "0"], ["a", "b"], [], ["c", "b", "a"],
                                   ["a"], ["b"], ["B", "a", "b"], ["b", "B", "a"]]
        let rows = keySets.map { keys in
            RowDTO(id: "i", entity: "E", summary: "s", attrs: Dictionary(uniqueKeysWithValues: keys.map { ($0, AttributeValue.string($0)) }))
        }
        try Self.expectIdentical(RecordsPageDTO(total: rows.count, offset: 0, limit: 100, rows: rows))
        try Self.expectIdentical(RecordsPageDTO(total: rows.count, offset: 0, limit: 100, rows: rows.reversed()))
    }

    @Test func randomPages() throws {
        var generator = SeededGenerator(state: 0x9A6E5)
        for _ in 0..<150 {
            let rows = Self.randomRows(count: Int.random(in: 0...12, using: &generator), using: &generator)
            let page = RecordsPageDTO(total: Int.random(in: 0...Int.max, using: &generator), offset: Int.random(in: 0...1_000_000, using: &generator),
                                      limit: Int.random(in: 0...1000, using: &generator), rows: rows)
            try Self.expectIdentical(page)
        }
    }

    @Test func randomObjects() throws {
        var generator = SeededGenerator(state: 0x0B1EC7)
        for _ in 0..<100 {
            let row = Self.randomRow(using: &generator)
            let relationships = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                RelationshipItemsDTO(name: Self.randomText(using: &generator), destination: Self.randomText(using: &generator),
                                     toMany: Bool.random(using: &generator), ordered: Bool.random(using: &generator),
                                     count: Int.random(in: 0...100_000, using: &generator),
                                     items: (0..<Int.random(in: 0...5, using: &generator)).map { _ in Self.randomReference(using: &generator) })
            }
            let version = Bool.random(using: &generator) ? Int64.random(in: .min ... .max, using: &generator) : nil
            let object = ObjectDTO(id: row.id, entity: row.entity, summary: row.summary, attrs: row.attrs,
                                   relationships: relationships, version: version)
            try Self.expectIdentical(object)
            for relationship in relationships {
                try Self.expectIdentical(relationship)
                try Self.expectIdentical(relationship.items)
            }
        }
    }

    @Test func randomExportLines() throws {
        typealias Line = RecordExportStream.ExportedLine
        var generator = SeededGenerator(state: 0xE9B0E7)
        var writer = JSONBytes()
        // Written by one writer, as an export writes a batch: lines mostly share their keys, as a batch's do.
        for row in (0..<15).flatMap({ _ in Self.randomRows(count: 10, using: &generator) }) {
            var attrs = row.attrs.mapValues(RecordExportStream.ExportedAttribute.value)
            attrs[Bool.random(using: &generator) ? "cover" : Self.randomText(using: &generator)] = .base64(bytes: Int.random(in: 0...1 << 40, using: &generator),
                                                                 text: Self.randomText(using: &generator))
            var relationships: [String: RecordExportStream.ExportedRelationship] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                let relationship: RecordExportStream.ExportedRelationship = switch Int.random(in: 0..<4, using: &generator) {
                case 0: .toOne(Self.randomReference(using: &generator))
                case 1: .toOne(nil)
                case 2: .toMany(Int.random(in: 0...1_000_000, using: &generator))
                default: .unreadable(Self.randomText(using: &generator))
                }
                let name = Bool.random(using: &generator) ? Self.randomText(using: &generator)
                    : ["author", "tags", "publisher"].randomElement(using: &generator)!
                relationships[name] = relationship
            }
            let line = Line(id: row.id, entity: row.entity, summary: row.summary, attrs: attrs, relationships: relationships)
            try Self.expectIdentical(line)
            var buffer = Array("earlier line\n".utf8)
            writer.append(line, to: &buffer)
            #expect(Array(buffer.prefix(13)) == Array("earlier line\n".utf8))
            #expect(Self.sameJSON(Array(buffer.dropFirst(13)), try Self.encoderBytes(line)))
        }
    }

    // MARK: Random values

    /// Rows of random keys, or, half the time, as a store's pages are: every row with the first row's keys, now
    /// and then one more or one fewer.
    private static func randomRows(count: Int, using generator: inout SeededGenerator) -> [RowDTO] {
        var rows = (0..<count).map { _ in randomRow(using: &generator) }
        guard Bool.random(using: &generator), let first = rows.first else { return rows }
        for index in rows.indices {
            rows[index].attrs = first.attrs.mapValues { _ in randomValue(using: &generator) }
            if Int.random(in: 0..<4, using: &generator) == 0 { rows[index].attrs[randomText(using: &generator)] = .null }
            if Int.random(in: 0..<4, using: &generator) == 0, let key = first.attrs.keys.randomElement(using: &generator) {
                rows[index].attrs[key] = nil
            }
        }
        return rows
    }

    private static func randomRow(using generator: inout SeededGenerator) -> RowDTO {
        var attrs: [String: AttributeValue] = [:]
        for _ in 0..<Int.random(in: 0...10, using: &generator) {
            attrs[randomText(using: &generator)] = randomValue(using: &generator)
        }
        return RowDTO(id: randomText(using: &generator), entity: randomText(using: &generator),
                      summary: randomText(using: &generator), attrs: attrs)
    }

    private static func randomReference(using generator: inout SeededGenerator) -> ObjectReferenceDTO {
        ObjectReferenceDTO(id: randomText(using: &generator), entity: randomText(using: &generator),
                           summary: randomText(using: &generator))
    }

    private static let values = attributeValues

    private static func randomValue(using generator: inout SeededGenerator) -> AttributeValue {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: .string(randomText(using: &generator))
        case 1: .integer(Int64(bitPattern: generator.next()))
        case 2: .double(Double(bitPattern: generator.next()))
        case 3: .float(Float(bitPattern: UInt32(truncatingIfNeeded: generator.next())))
        case 4: .date(Date(timeIntervalSince1970: Double(Int64.random(in: -1 << 40 ... 1 << 40, using: &generator)) / 1000))
        default: values.randomElement(using: &generator)!
        }
    }

    /// Scalars from every range the escaping treats apart: controls, ASCII, `"` `\` `/`, DEL, two- to four-byte
    /// UTF-8, separators, combining marks.
    private static let scalars: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init)
        + ["é", "ß", "\u{301}", "\u{308}", "\u{80}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "日", "語",
           "한", "😀", "🇫", "🇷", "\u{10FFFF}", "\u{E000}"]

    private static func randomText(using generator: inout SeededGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            text.append(scalars.randomElement(using: &generator)!)
        }
        return String(text)
    }
}
