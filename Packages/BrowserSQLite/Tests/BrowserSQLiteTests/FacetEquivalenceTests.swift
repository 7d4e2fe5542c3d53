import BrowserCore
import BrowserMemory
@testable import BrowserSQLite
import Foundation
import Testing

/// Facets counted by SQLite (`FacetReading`, GROUP BY) equal those counted in Swift over a cursor
/// (`FacetCounter`, the in-memory store's default) on the same records: nulls, top values with ties in value order,
/// distinct counts, others, minimum, maximum and every histogram bucket, with and without a filter, and on the
/// sub-entity's rows only. Two independent countings that must agree, on values chosen to meet the edges
/// (Unicode, repeated counts, nulls, one value, negative numbers, dates before 2001).
struct FacetEquivalenceTests {
    struct Row {
        var key: Int64
        var special: Bool
        var title: String?
        var pages: Int64?
        var rating: Double?
        var published: Double?  // seconds since 2001
        var available: Bool?
    }

    /// 240 rows with repeats, nulls and ties; deterministic.
    static let rows: [Row] = (1...240).map { key in
        let titles = ["Café", "cafe", "Straße", "Zebra", "éclair", "Apple", "apple", "日本"]
        return Row(
            key: Int64(key), special: key % 5 == 0,
            title: key % 7 == 0 ? nil : titles[(key * 3) % titles.count],
            pages: key % 11 == 0 ? nil : Int64((key * 37) % 500) - 20,
            rating: key % 13 == 0 ? nil : Double((key * 17) % 50) / 10,
            published: key % 4 == 0 ? nil : Double(key * 86_400 * 30) - 40_000_000,
            available: key % 3 == 0 ? nil : key % 2 == 0)
    }

    static let model = SyntheticStore.modelXML("""
        <entity name="Book" representedClassName="Book" syncable="YES">
            <attribute name="available" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
            <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="published" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            <attribute name="rating" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Special" representedClassName="Special" parentEntity="Book" syncable="YES"/>
        """)

    static func sqliteStore() throws -> (SyntheticStore, SQLiteStore) {
        let synthetic = try SyntheticStore(
            entities: [.init(number: 1, name: "Book"), .init(number: 2, name: "Special", parent: 1)],
            tables: ["CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAVAILABLE INTEGER, ZPAGES INTEGER, ZPUBLISHED TIMESTAMP, ZRATING FLOAT, ZTITLE VARCHAR )"],
            modelXML: model
        ) { database in
            try database.execute("BEGIN")
            for row in rows {
                try database.run("INSERT INTO ZBOOK VALUES (?, ?, 1, ?, ?, ?, ?, ?)", [
                    .integer(row.key), .integer(row.special ? 2 : 1),
                    row.available.map { .integer($0 ? 1 : 0) } ?? .null, row.pages.map { .integer($0) } ?? .null,
                    row.published.map { .real($0) } ?? .null, row.rating.map { .real($0) } ?? .null,
                    row.title.map { .text($0) } ?? .null,
                ])
            }
            try database.execute("COMMIT")
        }
        return (synthetic, try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL))
    }

    static func memoryStore(schema: StoreSchema) async throws -> InMemoryStore {
        let store = InMemoryStore(schema: schema)
        for row in rows {
            var values: [String: AttributeValue] = [:]
            values["title"] = row.title.map { .string($0) } ?? .null
            values["pages"] = row.pages.map { .integer($0) } ?? .null
            values["rating"] = row.rating.map { .double($0) } ?? .null
            values["published"] = row.published.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
            values["available"] = row.available.map { .boolean($0) } ?? .null
            _ = try await store.insert(row.special ? "Special" : "Book", values)
        }
        return store
    }

    static let cases: [(entity: String, attribute: String, filter: RecordFilter?, top: Int, buckets: Int)] = [
        ("Book", "title", nil, 10, 20),
        ("Book", "title", .contains("title", "a"), 3, 20),
        ("Book", "pages", nil, 5, 20),
        ("Book", "pages", .contains("title", "cafe"), 10, 7),
        ("Book", "rating", nil, 10, 10),
        ("Book", "published", nil, 4, 12),
        ("Book", "available", nil, 10, 20),
        ("Special", "pages", nil, 10, 20),
        ("Special", "title", nil, 2, 20),
        ("Book", "rating", .contains("title", "nothing matches"), 10, 20),
    ]

    @Test("SQLite and Swift count the same facet", arguments: cases.indices)
    func sameFacet(index: Int) async throws {
        let (synthetic, sqlite) = try Self.sqliteStore()
        _ = synthetic
        let schema = try await sqlite.schema()
        let memory = try await Self.memoryStore(schema: schema)
        let item = Self.cases[index]
        let attribute = try #require(schema.entity(named: item.entity)?.attribute(named: item.attribute))
        let request = FacetRequest(query: RecordQuery(entity: item.entity, filter: item.filter), attribute: attribute,
                                   top: item.top, buckets: item.buckets)
        let fromSQL = try await sqlite.facets(request)
        let fromSwift = try await memory.facets(request)
        #expect(fromSQL == fromSwift, "\(item.entity).\(item.attribute)")
        // The numbers add up: every record is a null, one of the top values, or another value.
        #expect(fromSQL.nulls + fromSQL.top.reduce(0) { $0 + $1.count } + fromSQL.others == fromSQL.total)
        if let histogram = fromSQL.histogram {
            #expect(histogram.reduce(0) { $0 + $1.count } == fromSQL.total - fromSQL.nulls)
        }
    }

    @Test func theCountsAreTheRows() async throws {
        // An independent count from the rows themselves: the title facet of every Book.
        let (synthetic, sqlite) = try Self.sqliteStore()
        _ = synthetic
        let attribute = try #require(try await sqlite.schema().entity(named: "Book")?.attribute(named: "title"))
        let facets = try await sqlite.facets(FacetRequest(query: RecordQuery(entity: "Book"), attribute: attribute, top: 50))
        var expected: [String: Int] = [:]
        for row in Self.rows { if let title = row.title { expected[title, default: 0] += 1 } }
        #expect(facets.total == Self.rows.count)
        #expect(facets.nulls == Self.rows.filter { $0.title == nil }.count)
        #expect(Dictionary(uniqueKeysWithValues: facets.top.map { (String(describing: $0.value), $0.count) })
                == Dictionary(uniqueKeysWithValues: expected.map { (String(describing: AttributeValue.string($0.key)), $0.value) }))
        #expect(facets.distinct == expected.count && facets.distinctIsExact)
    }

    /// A column with more different values than one pass holds (10,000): SQLite then asks for each part (top,
    /// capped distinct, range, histogram) and still agrees with the Swift counting.
    @Test func aColumnWithManyValuesIsCountedPartByPart() async throws {
        let count = FacetRequest.distinctLimit + 150
        let synthetic = try SyntheticStore(
            entities: [.init(number: 1, name: "Book"), .init(number: 2, name: "Special", parent: 1)],
            tables: ["CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAVAILABLE INTEGER, ZPAGES INTEGER, ZPUBLISHED TIMESTAMP, ZRATING FLOAT, ZTITLE VARCHAR )"],
            modelXML: Self.model
        ) { database in
            try database.execute("BEGIN")
            for key in 1...count {
                // Every pages value differs, a few repeat (the top), some are nil.
                let pages: RawDatabase.Value = key % 97 == 0 ? .null : .integer(key % 500 == 0 ? 7 : Int64(key * 3))
                try database.run("INSERT INTO ZBOOK VALUES (?, 1, 1, NULL, ?, NULL, NULL, ?)",
                                 [.integer(Int64(key)), pages, .text("t\(key % 10_200)")])
            }
            try database.execute("COMMIT")
        }
        let sqlite = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let schema = try await sqlite.schema()
        let memory = InMemoryStore(schema: schema)
        for key in 1...count {
            let pages: AttributeValue = key % 97 == 0 ? .null : .integer(key % 500 == 0 ? 7 : Int64(key * 3))
            _ = try await memory.insert("Book", ["pages": pages, "title": .string("t\(key % 10_200)")])
        }
        for name in ["pages", "title"] {
            let attribute = try #require(schema.entity(named: "Book")?.attribute(named: name))
            let request = FacetRequest(query: RecordQuery(entity: "Book"), attribute: attribute, top: 5, buckets: 8)
            let fromSQL = try await sqlite.facets(request)
            #expect(fromSQL == (try await memory.facets(request)), "\(name)")
            #expect(!fromSQL.distinctIsExact && fromSQL.distinct == FacetRequest.distinctLimit, "\(name)")
        }
    }
}
