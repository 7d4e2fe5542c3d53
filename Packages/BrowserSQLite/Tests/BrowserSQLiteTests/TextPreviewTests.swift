import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Long text in a store file: lists, facets and related items read it cut in SQL (`TextPreviewSQL`), with its
/// whole length; the detail reads it whole; search and sort still see the whole value.
struct TextPreviewTests {
    static let model = SyntheticStore.modelXML("""
        <entity name="Folder" representedClassName="Folder" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="Note" representedClassName="Note" syncable="YES">
            <attribute name="body" optional="YES" attributeType="String"/>
            <attribute name="link" optional="YES" attributeType="URI"/>
            <attribute name="size" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
        </entity>
        """)

    /// 20,012 bytes: "é" (2 bytes) then ASCII, so a cut at an odd byte count falls inside a character.
    static let long = "é" + String(repeating: "abcdefghij", count: 1_999) + "needle-at-the-end" + "xyz"
    static let longLink = "https://example.com/" + String(repeating: "p", count: 9_000)

    static func makeStore() throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Folder"), .init(number: 2, name: "Note")],
            tables: ["CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                     "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZSIZE INTEGER, ZTITLE VARCHAR, ZBODY VARCHAR, ZLINK VARCHAR )"],
            modelXML: model
        ) { database in
            try database.run("INSERT INTO ZFOLDER VALUES (1, 1, 1, 'Inbox')", [])
            let insert = "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZFOLDER, ZSIZE, ZTITLE, ZBODY, ZLINK) VALUES (?, 2, 1, 1, ?, ?, ?, ?)"
            try database.run(insert, [.integer(1), .integer(1), .text(long), .text(long), .text(longLink)])
            try database.run(insert, [.integer(2), .integer(2), .text("short"), .text("short body"), .null])
            // Not text in a String column: still reported as a mismatch, not cut.
            try database.run(insert, [.integer(3), .integer(3), .text("blob"), .blob(Array(repeating: 7, count: 5_000)), .null])
            // Invalid UTF-8 in the kept start of a long text.
            try database.run(insert, [.integer(4), .integer(4), .text("bad"), .textBytes([0x61, 0xFF] + Array(repeating: 0x62, count: 5_000)), .null])
            try database.run(insert, [.integer(5), .integer(5), .text("copy"), .text(long), .null])
        }
    }

    static func open(_ synthetic: SyntheticStore) throws -> SQLiteStore {
        try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
    }

    @Test func aPageReadsTextCutInSQLWithItsLengthInBytes() async throws {
        let synthetic = try Self.makeStore()
        let store = try Self.open(synthetic)
        var query = RecordQuery(entity: "Note")
        query.valuePreviewBytes = 11
        let page = try await store.page(query)
        let values = Dictionary(uniqueKeysWithValues: page.records.map { ($0.id.primaryKey, $0.values) })
        // 11 bytes fall inside no character here: "é" is 2 bytes, then 9 ASCII letters.
        #expect(values[1]?["body"] == .truncatedText(prefix: "éabcdefghi", byteCount: Self.long.utf8.count))
        #expect(values[1]?["link"] == .truncatedText(prefix: "https://exa", byteCount: Self.longLink.utf8.count))
        #expect(values[2]?["body"] == .string("short body"))
        #expect(values[2]?["link"] == .null)
        #expect(values[3]?["body"] == .undecodable("expected text, found BLOB (5000 bytes)"))
        #expect(values[4]?["body"] == .undecodable("invalid UTF-8 in text of 5002 bytes"))
        #expect(values[1]?["size"] == .integer(1))

        // A cut inside the two bytes of "é" keeps nothing of it.
        query.valuePreviewBytes = 1
        #expect(try await store.page(query).records.first?.values["body"] == .truncatedText(prefix: "", byteCount: Self.long.utf8.count))
    }

    @Test func everyPageRouteCutsAndTheDetailIsWhole() async throws {
        let synthetic = try Self.makeStore()
        let store = try Self.open(synthetic)
        let expected = AttributeValue.truncatedText(prefix: ValuePreview.prefix(of: Self.long, bytes: 100), byteCount: Self.long.utf8.count)
        // Sorted by the long column (keys first, then the rows by key) and searched for text past the cut.
        for parameters in [RecordQueryParameters(sort: "body", order: "desc"),
                           RecordQueryParameters(search: "needle-at-the-end", searchAttribute: "body"),
                           RecordQueryParameters(offset: "0")] {
            var query = try RecordQuery.validated(parameters, for: try #require(try await store.schema().entity(named: "Note")))
            query.valuePreviewBytes = 100
            let page = try await store.page(query)
            let long = page.records.filter { [1, 5].contains($0.id.primaryKey) }
            #expect(long.count == 2, "\(parameters)")
            #expect(long.allSatisfy { $0.values["body"] == expected }, "\(parameters)")
        }
        // Descending by the whole value: the BLOB (after all text in SQLite's order), the two long copies (tied,
        // then by key, descending), "short body", then "a\u{FFFD}bbb…" (pk 4).
        var sorted = try RecordQuery.validated(RecordQueryParameters(sort: "body", order: "desc"),
                                               for: try #require(try await store.schema().entity(named: "Note")))
        sorted.valuePreviewBytes = 100
        #expect(try await store.page(sorted).records.map(\.id.primaryKey) == [3, 5, 1, 2, 4])

        let id = ObjectID(storeIdentifier: synthetic.uuid, entity: "Note", primaryKey: 1)
        #expect(try await store.record(id)?.values["body"] == .string(Self.long))
    }

    @Test func relatedItemsAndFacetsCarryCutText() async throws {
        let synthetic = try Self.makeStore()
        let store = try Self.open(synthetic)
        let folder = ObjectID(storeIdentifier: synthetic.uuid, entity: "Folder", primaryKey: 1)
        let related = try await store.related(from: folder, through: "notes", limit: 20)
        #expect(related.records.first { $0.id.primaryKey == 1 }?.values["body"]
                == .truncatedText(prefix: ValuePreview.prefix(of: Self.long, bytes: ValuePreview.summaryBytes), byteCount: Self.long.utf8.count))

        let body = try #require(try await store.schema().entity(named: "Note")?.attribute(named: "body"))
        let facets = try await store.facets(FacetRequest(query: RecordQuery(entity: "Note"), attribute: body))
        // Grouped by the whole value (the two long copies are one value counted twice), sent cut.
        let cut = AttributeValue.truncatedText(prefix: ValuePreview.prefix(of: Self.long, bytes: ValuePreview.maximumBytes),
                                               byteCount: Self.long.utf8.count)
        #expect(facets.top.first == FacetValueCount(value: cut, count: 2))
        #expect(facets.distinct == 4)
        #expect(facets.top.contains(FacetValueCount(value: .string("short body"), count: 1)))
        // A BLOB in the String column and a long text with invalid UTF-8 in its kept start: what a list shows for them.
        #expect(facets.top.contains(FacetValueCount(value: .undecodable("expected text, found BLOB (5000 bytes)"), count: 1)))
        #expect(facets.top.contains(FacetValueCount(value: .undecodable("invalid UTF-8 in text of 5002 bytes"), count: 1)))
    }

    @Test func theServiceSendsThePreviewLengthAndACutSummary() async throws {
        let synthetic = try Self.makeStore()
        let service = BrowserService(store: try Self.open(synthetic))
        let page = try await service.records(of: "Note", parameters: RecordQueryParameters())
        // One page budget shared among 100 rows and 3 text attributes (title, body, link).
        let bytes = ValuePreview.bytes(rows: 100, textAttributes: 3)
        #expect(page.valuePreviewBytes == bytes)
        let first = try #require(page.rows.first)
        #expect(first.attrs["body"] == .truncatedText(prefix: ValuePreview.prefix(of: Self.long, bytes: bytes), byteCount: Self.long.utf8.count))
        #expect(first.summary == ValuePreview.prefix(of: Self.long, bytes: min(bytes, RecordSummary.maximumBytes)) + "…")

        let detail = try await service.object(id: first.id)
        #expect(detail.attrs["body"] == .string(Self.long))
        #expect(detail.summary.utf8.count <= RecordSummary.maximumBytes + "…".utf8.count)
    }
}
