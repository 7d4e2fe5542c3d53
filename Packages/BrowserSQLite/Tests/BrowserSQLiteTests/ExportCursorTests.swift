import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// What an export reads (`SQLiteStore.cursor`): exactly the records of the list, page after page, with each
/// relationship as `related()` reads it (its own SQL per storage kind), from one snapshot held on a connection
/// of its own.
enum ExportCursorCheck {
    /// Reads the cursor to its end and compares it with the pages of the same query and, for the first
    /// `relatedChecks` records, with `related()` of every relationship.
    static func expectCursorMatchesPages(_ store: SQLiteStore, _ query: RecordQuery, batchSize: Int,
                                         relatedChecks: Int = 300, _ label: String) async throws {
        let schema = try await store.schema()
        let entity = try #require(schema.entity(named: query.entity))
        var pages: [StoredRecord] = []
        var paged = query
        paged.limit = 500
        paged.offset = 0
        while true {
            let page = try await store.page(paged)
            pages += page.records
            paged.offset += paged.limit
            if paged.offset >= page.total { break }
        }

        let cursor = try await store.cursor(query, relationships: entity.relationships, batchSize: batchSize)
        var exported: [ExportedRecord] = []
        while let batch = try await cursor.next() {
            #expect(batch.count <= batchSize && batch.count > 0, "\(label): a batch of \(batch.count)")
            exported += batch.records
        }
        #expect(try await cursor.next() == nil, "\(label): the cursor stays at its end")
        #expect(exported.map(\.record) == pages, "\(label): the records of the list, in its order")

        for item in exported.prefix(relatedChecks) {
            for relationship in entity.relationships {
                let related = try await store.related(from: item.record.id, through: relationship.name, limit: 1)
                let expected: RelatedValue = relationship.isToMany
                    ? .toMany(count: related.total) : .toOne(related.records.first)
                #expect(item.relationships[relationship.name] == expected,
                        "\(label): \(item.record.id.shortForm).\(relationship.name)")
            }
        }
    }
}

@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct ExportCursorFixtureTests {
    @Test("an export holds the list's records and what their relationships hold", arguments: FixtureStore.all)
    func cursorMatchesPagesAndRelated(fixture: FixtureStore) async throws {
        let opened = try OpenedFixture(fixture.path)
        let schema = try await opened.store.schema()
        for entity in schema.browsableEntities {
            let count = try await opened.store.count(of: entity.name)
            // Small batches where a store is small, so batch boundaries fall inside every list.
            let batchSize = count <= 100 ? 7 : 1_000
            try await ExportCursorCheck.expectCursorMatchesPages(
                opened.store, RecordQuery(entity: entity.name), batchSize: batchSize, "\(fixture) \(entity.name)")
            if let sortable = entity.attributes.first(where: { $0.type.isSortable && $0.type != .boolean }) {
                let query = RecordQuery(entity: entity.name, sortKeys: [SortKey(attribute: sortable.name, order: .descending)],
                                        tieBreak: .descending)
                try await ExportCursorCheck.expectCursorMatchesPages(
                    opened.store, query, batchSize: batchSize, relatedChecks: 20, "\(fixture) \(entity.name) by \(sortable.name) desc")
            }
        }
    }
}

struct ExportCursorSyntheticTests {
    @Test func subEntitiesExportTheirOwnRecordsAndAParentExportsThemAll() async throws {
        let synthetic = try SyntheticRelationshipTests.makeInheritanceStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        for entity in ["Media", "Book", "Film", "Ebook"] {
            try await ExportCursorCheck.expectCursorMatchesPages(store, RecordQuery(entity: entity), batchSize: 2, entity)
        }
        // A search of Film.title reads ZTITLE1, as its pages do.
        let search = RecordQuery(entity: "Film", filter: RecordFilter.contains("title", "ebook"))
        try await ExportCursorCheck.expectCursorMatchesPages(store, search, batchSize: 2, "Film searched")
    }

    /// Rows whose `Z_ENT` names an entity of another table (Label, 5) or none the model knows (9): read as a page
    /// reads them (as a Label, with what its attributes find; as the exported entity), whichever batch they fall
    /// in. A Label row adds a slot to a batch already begun, which must keep the earlier rows' values in place.
    @Test(arguments: [1, 2, 3, 10])
    func rowsNamingAnotherEntityExportAsTheirPagesRead(batchSize: Int) async throws {
        let synthetic = try SyntheticStore(
            entities: [.init(number: 1, name: "Media"), .init(number: 2, name: "Book", parent: 1),
                       .init(number: 3, name: "Film", parent: 1), .init(number: 4, name: "Ebook", parent: 2),
                       .init(number: 5, name: "Label")],
            tables: ["CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMINUTES INTEGER, ZFORMAT VARCHAR, ZNAME VARCHAR, ZTITLE VARCHAR, ZTITLE1 VARCHAR )",
                     "CREATE TABLE ZLABEL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR, ZNAME VARCHAR )"],
            modelXML: SyntheticRelationshipTests.inheritanceModel.replacingOccurrences(of: "</model>", with: """
                <entity name="Label" representedClassName="Label" syncable="YES">
                    <attribute name="text" optional="YES" attributeType="String"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                </model>
                """),
            uuid: SyntheticRelationshipTests.uuid
        ) { database in
            let insert = "INSERT INTO ZMEDIA (Z_PK, Z_ENT, Z_OPT, ZNAME, ZTITLE, ZTITLE1, ZMINUTES) VALUES (?, ?, 1, ?, ?, ?, ?)"
            try database.run(insert, [.integer(1), .integer(3), .text("a film"), .null, .text("Film Title"), .integer(121)])
            try database.run(insert, [.integer(2), .integer(5), .text("a stray label"), .text("t"), .text("t1"), .integer(7)])
            try database.run(insert, [.integer(3), .integer(9), .text("unknown kind"), .text("Book?"), .null, .null])
            try database.run(insert, [.integer(4), .integer(2), .text("a book"), .text("Book Title"), .null, .null])
            try database.run(insert, [.integer(5), .null, .text("no kind"), .null, .null, .integer(3)])
        }
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        try #require(store.mapping.entities["Label"]?.table == "ZLABEL")
        try await ExportCursorCheck.expectCursorMatchesPages(store, RecordQuery(entity: "Media"), batchSize: batchSize,
                                                             "Media with stray rows, batches of \(batchSize)")
    }

    @Test("an ordered many-to-many counts through its join table and exports in its order when scoped",
          arguments: ["Z_1SONGS", "Z_2PLAYLISTS"])
    func joinTables(joinTable: String) async throws {
        let synthetic = try SyntheticRelationshipTests.makePlaylistStore(joinTable: joinTable)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        try await ExportCursorCheck.expectCursorMatchesPages(store, RecordQuery(entity: "Playlist"), batchSize: 1, "Playlist")
        try await ExportCursorCheck.expectCursorMatchesPages(store, RecordQuery(entity: "Song"), batchSize: 3, "Song")
        let roadTrip = ObjectID(storeIdentifier: SyntheticRelationshipTests.uuid, entity: "Playlist", primaryKey: 1)
        let scoped = RecordQuery(entity: "Song", scope: RelationshipScope(source: roadTrip, relationship: "songs", isOrdered: true))
        try await ExportCursorCheck.expectCursorMatchesPages(store, scoped, batchSize: 2, "Road trip's songs")
    }

    /// Person(1) with `friends` (a many-to-many that is its own inverse: join table Z_1FRIENDS with columns
    /// REFLEXIVE and Z_1FRIENDS, a pair stored once whichever side it was made from) and `mentor` (a to-one
    /// without inverse: column ZMENTOR).
    static func makePeopleStore() throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Person")],
            tables: [
                "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZMENTOR INTEGER )",
                "CREATE TABLE Z_1FRIENDS ( REFLEXIVE INTEGER, Z_1FRIENDS INTEGER, PRIMARY KEY (REFLEXIVE, Z_1FRIENDS) )",
            ],
            modelXML: SyntheticStore.modelXML("""
                <entity name="Person" representedClassName="Person" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
                    <relationship name="mentor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
                </entity>
                """)
        ) { database in
            for (key, name, mentor) in [(1, "Ada", nil), (2, "Grace", 1), (3, "Alan", 1), (4, "Edsger", 3), (5, "Hermit", 9)] as [(Int64, String, Int64?)] {
                try database.run("INSERT INTO ZPERSON VALUES (?, 1, 1, ?, ?)", [.integer(key), .text(name), mentor.map { .integer($0) } ?? .null])
            }
            // Ada–Grace, Ada–Alan (stored from Alan's side), Grace–Edsger.
            for (left, right) in [(1, 2), (3, 1), (2, 4)] as [(Int64, Int64)] {
                try database.run("INSERT INTO Z_1FRIENDS VALUES (?, ?)", [.integer(left), .integer(right)])
            }
        }
    }

    @Test func aRelationshipThatIsItsOwnInverseCountsPairsStoredFromEitherSide() async throws {
        let synthetic = try Self.makePeopleStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        guard case .joinTable(_, _, _, _, true)? = store.mapping.entities["Person"]?.relationships["friends"]?.storage else {
            Issue.record("friends should map to a reflexive join table")
            return
        }
        try await ExportCursorCheck.expectCursorMatchesPages(store, RecordQuery(entity: "Person"), batchSize: 2, "Person")
        let cursor = try await store.cursor(RecordQuery(entity: "Person"),
                                            relationships: try #require(try await store.schema().entity(named: "Person")).relationships,
                                            batchSize: 10)
        let people = try #require(try await cursor.next()).records
        #expect(people.map { $0.relationships["friends"] } == [.toMany(count: 2), .toMany(count: 2), .toMany(count: 1),
                                                                 .toMany(count: 1), .toMany(count: 0)])
        // Hermit's mentor (key 9) does not exist: no record, not an invented one.
        #expect(people.map { $0.relationships["mentor"].flatMap { value -> Int64? in
            if case .toOne(let record?) = value { return record.id.primaryKey } else { return nil }
        } } == [nil, 1, 1, 3, nil])
    }

    @Test func anExportIsOneSnapshotWhileTheAppWritesAndTheStoreKeepsAnswering() async throws {
        let synthetic = try ItemStore.make((1...2_500).map { ItemRow(key: Int64($0), title: "item \($0)", special: false) },
                                           walMode: true)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL)
        let cursor = try await store.cursor(RecordQuery(entity: "Item"), relationships: [], batchSize: 1_000)
        let firstBatch = try #require(try await cursor.next())
        var keys = firstBatch.primaryKeys

        // The app adds rows and deletes one the export has not reached yet.
        let writer = try RawDatabase(path: synthetic.storeURL.path)
        try writer.execute("BEGIN")
        for key in 2_501...2_600 { try writer.run("INSERT INTO ZITEM VALUES (?, 1, 1, 'new')", [.integer(Int64(key))]) }
        try writer.execute("DELETE FROM ZITEM WHERE Z_PK = 2000")
        try writer.execute("COMMIT")

        // The store's own connection sees the change at once; the export does not.
        #expect(try await store.count(of: "Item") == 2_599)
        while let batch = try await cursor.next() { keys += batch.primaryKeys }
        #expect(keys == Array(1...2_500))
    }

    @Test func anExportOfARollbackJournalStoreNeverHoldsTheAppsWritesBack() async throws {
        let synthetic = try ItemStore.make((1...50).map { ItemRow(key: Int64($0), title: "item \($0)", special: false) },
                                           walMode: false)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL)
        let cursor = try await store.cursor(RecordQuery(entity: "Item"), relationships: [], batchSize: 10)
        let first = try #require(try await cursor.next())
        #expect(first.count == 10)
        // A read transaction on the original would hold a shared lock and make this commit fail with
        // SQLITE_BUSY (the writer waits 100 ms); the export reads its own copy, so the app saves.
        let writer = try RawDatabase(path: synthetic.storeURL.path)
        try writer.execute("INSERT INTO ZITEM VALUES (51, 1, 1, 'saved while exporting')")
        var rest = 0
        while let batch = try await cursor.next() { rest += batch.count }
        #expect(10 + rest == 50)
        #expect(try await store.count(of: "Item") == 51)
    }
}
