import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Values the fixtures lack, in a store written here in Core Data's layout: external-storage markers, 64-bit
/// integers past 2^53, non-finite doubles, invalid UTF-8, storage classes that do not fit, Unicode search.
struct SyntheticValueTests {
    static let model = SyntheticStore.modelXML("""
        <entity name="Item" representedClassName="Item" syncable="YES">
            <attribute name="amount" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
            <attribute name="big" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="flag" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
            <attribute name="link" optional="YES" attributeType="URI"/>
            <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="ratio" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="raw" optional="YES" attributeType="Binary"/>
            <attribute name="score" optional="YES" attributeType="Float" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
            <attribute name="title" attributeType="String"/>
            <attribute name="uid" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
            <attribute name="when" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        </entity>
        """)

    static let uid: [UInt8] = [0xFE, 0xFE, 0x41, 0x76, 0x91, 0x2D, 0x42, 0x9F, 0x9C, 0x83, 0x66, 0x2F, 0xFF, 0x64, 0x11, 0x15]

    static func makeStore() throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Item")],
            tables: ["CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBIG INTEGER, ZFLAG INTEGER, ZWHEN TIMESTAMP, ZRATIO FLOAT, ZSCORE FLOAT, ZAMOUNT DECIMAL, ZLINK VARCHAR, ZTITLE VARCHAR, ZPHOTO BLOB, ZRAW BLOB, ZUID BLOB )"],
            modelXML: model
        ) { database in
            let insert = "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBIG, ZRATIO, ZSCORE, ZAMOUNT, ZWHEN, ZFLAG, ZPHOTO, ZRAW, ZUID, ZLINK) VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            try database.run(insert, [.integer(1), .text("Café"), .integer(9_007_199_254_740_993), .real(.infinity), .real(0.1),
                                      .real(10.11), .real(639_503_569.64), .integer(1), .blob([0x01, 1, 2, 3, 4, 5]),
                                      .blob([0x01, 9, 9]), .blob(uid), .text("https://example.com/a")])
            try database.run(insert, [.integer(2), .text("CAFÉ"), .integer(.max), .real(-.infinity), .null,
                                      .integer(10), .integer(-631_064_399), .integer(0), .blob([0x02] + Array("5F3C-EXTERNAL".utf8) + [0]),
                                      .null, .null, .null])
            try database.run(insert, [.integer(3), .text("cafe\u{301} noir"), .integer(.min), .real(.nan), .null,
                                      .text("123456789012345678901234.5"), .null, .null, .blob([0x02] + Array("MISSING-FILE".utf8) + [0]),
                                      .null, .null, .null])
            try database.run(insert, [.integer(4), .text("Straße"), .text("not a number"), .real(2.5), .null,
                                      .text("abc"), .text("yesterday"), .null, .blob([0x03, 1, 2]), .null, .null, .null])
            try database.run(insert, [.integer(5), .textBytes([0x63, 0x61, 0xFF, 0x65]), .null, .null, .null,
                                      .null, .null, .integer(1), .blob([0x07, 1]), .null, .blob([1, 2, 3]), .null])
            try database.run(insert, [.integer(6), .text("cafe au lait"), .integer(-1), .null, .null,
                                      .real(0.30000000000000004), .null, .null, .blob([]), .blob([]), .null, .null])
            try database.run(insert, [.integer(7), .text("Other"), .null, .null, .null,
                                      .null, .null, .null, .null, .null, .null, .null])
        }
    }

    static func open(_ synthetic: SyntheticStore, withModel: Bool = true) throws -> SQLiteStore {
        let external = synthetic.directory.path(".Synthetic_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 1234).write(to: external.appendingPathComponent("5F3C-EXTERNAL"))
        return try SQLiteStore.open(storeAt: synthetic.storeURL, model: withModel ? synthetic.modelURL : nil)
    }

    func values(_ store: SQLiteStore, _ key: Int64) async throws -> [String: AttributeValue] {
        try #require(try await store.record(ObjectID(storeIdentifier: "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D", entity: "Item", primaryKey: key))).values
    }

    @Test func everyTypeDecodesPerTheFormat() async throws {
        let synthetic = try Self.makeStore()
        let store = try Self.open(synthetic)
        let origin = try await store.describe().model
        #expect(origin == ModelOrigin(source: .file, name: "Model", path: synthetic.modelURL.standardizedFileURL.path))
        let schema = try await store.schema()
        #expect(schema.entity(named: "Item")?.attribute(named: "scratch") == nil)
        #expect(schema.entity(named: "Item")?.attribute(named: "title")?.isOptional == false)

        let first = try await values(store, 1)
        #expect(first["title"] == .string("Café"))
        #expect(first["big"] == .integer(9_007_199_254_740_993))
        #expect(first["ratio"] == .double(.infinity))
        #expect(first["score"] == .float(0.1))
        #expect(first["amount"] == .decimal(Decimal(string: "10.11")!))
        #expect(first["when"] == .date(Date(timeIntervalSinceReferenceDate: 639_503_569.64)))
        #expect(first["flag"] == .boolean(true))
        #expect(first["photo"] == .binary(byteCount: 5)) // 0x01 marker: inline, the marker not counted
        #expect(first["raw"] == .binary(byteCount: 3)) // no external-storage flag: no marker, every byte counts
        #expect(first["uid"] == .uuid(UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115")!))
        #expect(first["link"] == .uri("https://example.com/a"))

        let second = try await values(store, 2)
        #expect(second["big"] == .integer(.max))
        #expect(second["ratio"] == .double(-.infinity))
        #expect(second["amount"] == .decimal(10))
        #expect(second["when"] == .date(Date(timeIntervalSinceReferenceDate: -631_064_399)))
        #expect(second["flag"] == .boolean(false))
        #expect(second["photo"] == .binary(byteCount: 1234)) // 0x02 marker: the external file's size
        #expect(second["raw"] == .null)

        let third = try await values(store, 3)
        #expect(third["big"] == .integer(.min))
        // SQLite stores NaN as NULL (https://www.sqlite.org/c3ref/bind_blob.html), so NaN reads back as nil.
        #expect(third["ratio"] == .null)
        // A numeric TEXT in a NUMERIC-affinity (DECIMAL) column is stored as REAL with 15 significant digits
        // (https://www.sqlite.org/datatype3.html#type_affinity), so that is all a reader can get back.
        #expect(third["amount"] == .decimal(Decimal(string: "123456789012346000000000")!))
        #expect(third["photo"] == .undecodable("external data file MISSING-FILE is missing from \(synthetic.directory.url.standardizedFileURL.path)/.Synthetic_SUPPORT/_EXTERNAL_DATA"))

        let fourth = try await values(store, 4)
        #expect(fourth["title"] == .string("Straße"))
        #expect(fourth["big"] == .undecodable("expected an integer, found TEXT \"not a number\""))
        #expect(fourth["amount"] == .undecodable("expected a decimal number, found TEXT \"abc\""))
        #expect(fourth["when"] == .undecodable("expected a date (seconds since 2001), found TEXT \"yesterday\""))
        #expect(fourth["photo"] == .undecodable("file-backed future value (marker 0x03) is not supported"))
        #expect(fourth["ratio"] == .double(2.5))

        let fifth = try await values(store, 5)
        #expect(fifth["title"] == .undecodable("invalid UTF-8 in text of 4 bytes"))
        #expect(fifth["uid"] == .undecodable("a UUID is 16 bytes, found a BLOB of 3 bytes"))
        #expect(fifth["photo"] == .undecodable("unknown external-storage marker 0x07 in 2 bytes"))
        #expect(fifth["flag"] == .boolean(true))

        let sixth = try await values(store, 6)
        #expect(sixth["amount"] == .decimal(Decimal(string: "0.3")!))
        #expect(sixth["photo"] == .binary(byteCount: 0))
        #expect(sixth["raw"] == .binary(byteCount: 0))
        #expect(sixth["big"] == .integer(-1))
    }

    @Test func largeIntegersAndNonFiniteNumbersReachJSONIntact() async throws {
        let synthetic = try Self.makeStore()
        let store = try Self.open(synthetic)
        let first = try await values(store, 1)
        let encoder = JSONEncoder()
        #expect(String(decoding: try encoder.encode(first["big"]!), as: UTF8.self) == "\"9007199254740993\"")
        #expect(String(decoding: try encoder.encode(first["ratio"]!), as: UTF8.self) == "\"Infinity\"")
        #expect(String(decoding: try encoder.encode(first["amount"]!), as: UTF8.self) == "\"10.11\"")
    }

    @Test("search folds case and diacritics over all of Unicode", arguments: [
        ("cafe", [1, 2, 3, 6] as [Int64]),
        ("CAFÉ", [1, 2, 3, 6]),
        ("café", [1, 2, 3, 6]),
        ("strasse", [4]),
        ("STRASSE", [4]),
        ("au l", [6]),
        ("zzz", []),
    ])
    func unicodeSearch(needle: String, expected: [Int64]) async throws {
        let store = try Self.open(try Self.makeStore())
        let entity = try #require(try await store.schema().entity(named: "Item"))
        let query = try RecordQuery.validated(RecordQueryParameters(search: needle, searchAttribute: "title"), for: entity)
        let page = try await store.page(query)
        #expect(page.records.map(\.id.primaryKey) == expected)
        #expect(page.total == expected.count)
        // The same through TextFolding, the definition every adapter shares.
        let titles = ["Café", "CAFÉ", "cafe\u{301} noir", "Straße", nil, "cafe au lait", "Other"]
        let matching = titles.enumerated().filter { $0.element.map { TextFolding.contains($0, needle) } ?? false }.map { Int64($0.offset + 1) }
        #expect(matching == expected)
    }

    @Test func filtersCombineWithAllAnyAndNot() async throws {
        let store = try Self.open(try Self.makeStore())
        func keys(_ filter: RecordFilter) async throws -> [Int64] {
            try await store.page(RecordQuery(entity: "Item", filter: filter)).records.map(\.id.primaryKey)
        }
        let cafe = RecordFilter.contains("title", "cafe")
        let noir = RecordFilter.contains("title", "NOIR")
        let strasse = RecordFilter.contains("title", "strasse")
        #expect(try await keys(.all([cafe, noir])) == [3])
        #expect(try await keys(.any([noir, strasse])) == [3, 4])
        #expect(try await keys(.not(cafe)) == [4, 5, 7])
        #expect(try await keys(.all([])) == [1, 2, 3, 4, 5, 6, 7])
        #expect(try await keys(.any([])) == [])
        // A needle with SQL in it is only ever a bound value.
        #expect(try await keys(RecordFilter.contains("title", "'); DROP TABLE ZITEM; --")) == [])
        #expect(try await store.count(of: "Item") == 7)
    }

    @Test func sortsNullsFirstAndStringsByBytes() async throws {
        let store = try Self.open(try Self.makeStore())
        let ascending = try await store.page(RecordQuery(entity: "Item", sortKeys: [SortKey(attribute: "big", order: .ascending)])).records
        #expect(ascending.map(\.id.primaryKey) == [5, 7, 3, 6, 1, 2, 4]) // NULLs, then integers, then TEXT (SQLite's order)
        let descending = try await store.page(RecordQuery(entity: "Item", sortKeys: [SortKey(attribute: "title", order: .descending)], tieBreak: .descending)).records
        // Byte order, descending: "ca\xFFe" (5) > "cafe\u{301} noir" (3, 0xCC) > "cafe au lait" (6) > "Straße" > "Other"
        // > "Café" (1, 'a') > "CAFÉ" (2, 'A').
        #expect(descending.map(\.id.primaryKey) == [5, 3, 6, 4, 7, 1, 2])
        let paged = try await store.page(RecordQuery(entity: "Item", sortKeys: [SortKey(attribute: "big", order: .ascending)], limit: 2, offset: 2))
        #expect(paged.total == 7)
        #expect(paged.records.map(\.id.primaryKey) == [3, 6])
    }

    @Test func zeroConfigurationInfersTheSchema() async throws {
        let store = try Self.open(try Self.makeStore(), withModel: false)
        #expect(try await store.describe().model?.source == .inferred)
        let item = try #require(try await store.schema().entity(named: "Item"))
        #expect(item.attribute(named: "title")?.type == .string)
        #expect(item.attribute(named: "when")?.type == .date)
        #expect(item.attribute(named: "amount")?.type == .decimal)
        #expect(item.attribute(named: "ratio")?.type == .double)
        #expect(item.attribute(named: "photo")?.type == .binary)
        let first = try await values(store, 1)
        #expect(first["title"] == .string("Café"))
        #expect(first["photo"] == .binary(byteCount: 6)) // without a model nothing says the column has a marker
    }
}
