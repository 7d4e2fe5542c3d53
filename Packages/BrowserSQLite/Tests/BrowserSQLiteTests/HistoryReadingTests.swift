import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Persistent history read from the store's tables (`HistoryReader`): on the Apple-written stores that have them,
/// checked against the tables read here with plain SQL; and on a store written here in Core Data's layout with
/// what those stores lack (updates with their property bitmap, deletes with tombstone columns, authors and
/// context names, several transactions).
struct HistoryReadingTests {
    static let uuid = "5E1F0000-0000-4000-8000-0000000A11CE"

    static func page(_ store: SQLiteStore, _ query: HistoryQuery) async throws -> HistoryPage {
        guard case .page(let page) = try await store.history(query) else {
            Issue.record("the store reports no history")
            return HistoryPage(transactions: [], hasMore: false)
        }
        return page
    }

    // MARK: Apple-written stores

    @Test(.enabled(if: Fixtures.available)) func theSwiftDataStoresTransactionAsItsTablesHoldIt() async throws {
        let fixture = try OpenedFixture("cartkit/swiftdata/CartKitSwiftData_v1.sqlite")
        let raw = try RawDatabase(path: fixture.directory.path("CartKitSwiftData_v1.sqlite").path)
        let expected = try raw.rows("""
            SELECT t.Z_PK, t.ZTIMESTAMP, b.ZNAME, p.ZNAME FROM ATRANSACTION t
            LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
            """)
        let changes = try raw.rows("SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK FROM ACHANGE ORDER BY Z_PK")
        let page = try await Self.page(fixture.store, HistoryQuery())
        #expect(page.transactions.count == expected.count)
        let transaction = try #require(page.transactions.first)
        #expect(transaction.number == expected[0][0] as? Int64)
        #expect(transaction.bundleID == "com.apple.dt.xctest.tool" && transaction.bundleID == expected[0][2] as? String)
        #expect(transaction.processID == "xctest" && transaction.processID == expected[0][3] as? String)
        let seconds = try #require(expected[0][1] as? Double)
        #expect(transaction.timestamp == Date(timeIntervalSinceReferenceDate: seconds))
        #expect(transaction.author == nil && transaction.contextName == nil)
        #expect(transaction.changeCount == changes.count)
        #expect(transaction.changes.map(\.kind) == [.insert])
        // Entity 3 of this store is CartModel (Z_PRIMARYKEY), and the change names an object the store has.
        let id = try #require(transaction.changes.first?.id)
        #expect(id == ObjectID(storeIdentifier: fixture.store.storeIdentifier, entity: "CartModel", primaryKey: changes[0][2] as! Int64))
        #expect(try await fixture.store.record(id) != nil)
        #expect(!page.hasMore && page.authors.isEmpty && page.contextNames.isEmpty && page.notes.isEmpty)
    }

    @Test(.enabled(if: Fixtures.available)) func aTransactionOf5468ChangesPagesInTheTablesOrder() async throws {
        let fixture = try OpenedFixture("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        let raw = try RawDatabase(path: fixture.directory.path("SampleModel2_V1.sqlite").path)
        let names = Dictionary(uniqueKeysWithValues: try raw.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY").map {
            ($0[0] as! Int64, $0[1] as! String)
        })
        let expected = try raw.rows("SELECT ZENTITY, ZENTITYPK FROM ACHANGE WHERE ZTRANSACTIONID = 1 ORDER BY Z_PK").map {
            "\(names[$0[0] as! Int64]!)/p\($0[1] as! Int64)"
        }
        #expect(expected.count == 5468)
        var read: [String] = []
        var query = HistoryQuery(window: .transaction(1))
        query.changeLimit = HistoryQuery.maximumChangeLimit
        while true {
            let transaction = try #require(try await Self.page(fixture.store, query).transactions.first)
            #expect(transaction.changeCount == expected.count)
            read += transaction.changes.map { "\($0.id.entity)/p\($0.id.primaryKey)" }
            guard !transaction.changes.isEmpty else { break }
            query.changeOffset += transaction.changes.count
        }
        #expect(read == expected)

        // An entity filter counts and lists only that entity's changes; the abstract Writer's covers Author's.
        var pages = HistoryQuery(window: .transaction(1))
        pages.entities = ["Page"]
        pages.changeLimit = 7
        let onlyPages = try #require(try await Self.page(fixture.store, pages).transactions.first)
        #expect(onlyPages.changeCount == expected.filter { $0.hasPrefix("Page/") }.count)
        #expect(onlyPages.changes.map { "\($0.id.entity)/p\($0.id.primaryKey)" } == Array(expected.filter { $0.hasPrefix("Page/") }.prefix(7)))
        let schema = try await fixture.store.schema()
        var writers = HistoryQuery(window: .transaction(1))
        writers.entities = schema.subtree(of: "Writer").sorted()
        #expect(try await Self.page(fixture.store, writers).transactions.first?.changeCount == expected.filter { $0.hasPrefix("Author/") }.count)
    }

    @Test(.enabled(if: Fixtures.available)) func aStoreWithoutHistoryTablesSaysSo() async throws {
        let fixture = try OpenedFixture("cartkit/coredata/CartStorage_v1.sqlite")
        guard case .unavailable(let reason) = try await fixture.store.history(HistoryQuery()) else {
            Issue.record("a store without ATRANSACTION reported a history")
            return
        }
        #expect(reason.contains("no persistent-history tables") && reason.contains("NSPersistentHistoryTrackingKey"))
    }

    // MARK: What the fixtures lack

    /// Item (1) ← Special (2) in ZITEM, Note (3) in ZNOTE; five transactions by two authors in two contexts, with
    /// inserts, updates (property bitmaps: Note's fits its one slot, `text`; Item's is three bytes where its one
    /// slot needs one, as a row written under another model version would be) and deletes (a tombstone column);
    /// one string kept inline (`ZAUTHOR`).
    static func makeStore() throws -> SyntheticStore {
        try SyntheticStore(
            entities: [.init(number: 1, name: "Item"), .init(number: 2, name: "Special", parent: 1), .init(number: 3, name: "Note")],
            tables: [
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEXT VARCHAR )",
                "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
                "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 VARCHAR, ZTOMBSTONE1 BLOB )",
                "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            ],
            modelXML: SyntheticStore.modelXML("""
                <entity name="Item" representedClassName="Item"><attribute name="name" optional="YES" attributeType="String"/></entity>
                <entity name="Special" representedClassName="Special" parentEntity="Item"/>
                <entity name="Note" representedClassName="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
                """),
            uuid: uuid
        ) { database in
            for (key, name) in [(1, "app"), (2, "importer"), (3, "ViewContext"), (4, "BackgroundImport"), (5, "com.example.app")] {
                try database.run("INSERT INTO ATRANSACTIONSTRING VALUES (?, 16003, NULL, ?)", [.integer(Int64(key)), .text(name)])
            }
            // (number, author string, context string, inline author, timestamp)
            let transactions: [(Int64, Int64?, Int64?, String?, Double)] = [
                (1, 1, 3, nil, 100), (2, 2, 4, nil, 200), (3, 1, 3, nil, 300), (4, nil, nil, "inline-author", 400), (5, 2, 4, nil, 500),
            ]
            for (number, author, context, inline, time) in transactions {
                try database.run(
                    "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZCONTEXTNAMETS, ZBUNDLEIDTS, ZAUTHOR, ZTIMESTAMP) VALUES (?, 16002, ?, ?, 5, ?, ?)",
                    [.integer(number), author.map(RawDatabase.Value.integer) ?? .null, context.map(RawDatabase.Value.integer) ?? .null,
                     inline.map(RawDatabase.Value.text) ?? .null, .real(time)])
            }
            // (transaction, type, entity, pk, columns, tombstone text, tombstone blob)
            let changes: [(Int64, Int64, Int64, Int64, [UInt8]?, String?, [UInt8]?)] = [
                (1, 0, 1, 1, nil, nil, nil), (1, 0, 2, 2, nil, nil, nil), (1, 0, 3, 1, nil, nil, nil),
                (2, 1, 1, 1, [0b0000_0101, 0, 0b1000_0000], nil, nil), (2, 0, 1, 3, nil, nil, nil),
                (3, 2, 2, 2, nil, "gone special", [1, 2, 3]),
                (4, 1, 3, 1, [0b1000_0000], nil, nil),
                (5, 2, 1, 3, nil, nil, nil),
            ]
            for (index, change) in changes.enumerated() {
                try database.run(
                    "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS, ZTOMBSTONE0, ZTOMBSTONE1) VALUES (?, 16001, ?, ?, ?, ?, ?, ?, ?)",
                    [.integer(Int64(index + 1)), .integer(change.0), .integer(change.1), .integer(change.2), .integer(change.3),
                     change.4.map(RawDatabase.Value.blob) ?? .null, change.5.map(RawDatabase.Value.text) ?? .null,
                     change.6.map(RawDatabase.Value.blob) ?? .null])
            }
            try database.execute("INSERT INTO ZITEM VALUES (1, 1, 2, 'first'), (3, 1, 1, 'third')")
            try database.execute("INSERT INTO ZNOTE VALUES (1, 3, 2, 'note')")
        }
    }

    @Test func windowsFiltersAndChangesOfAWrittenHistory() async throws {
        let synthetic = try Self.makeStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)

        // Newest first, two at a time, paging back with `before`.
        var query = HistoryQuery(limit: 2)
        var numbers: [Int64] = []
        while true {
            let page = try await Self.page(store, query)
            numbers += page.transactions.map(\.number)
            guard page.hasMore, let last = page.transactions.last else { break }
            query.window = .newestFirst(before: last.number)
        }
        #expect(numbers == [5, 4, 3, 2, 1])
        // Oldest first after a known transaction.
        #expect(try await Self.page(store, HistoryQuery(window: .oldestFirst(after: 3), limit: 10)).transactions.map(\.number) == [4, 5])
        #expect(try await Self.page(store, HistoryQuery(window: .oldestFirst(after: 5))).transactions.isEmpty)

        let all = try await Self.page(store, HistoryQuery(limit: 10))
        #expect(all.authors == ["app", "importer", "inline-author"])
        #expect(all.contextNames == ["BackgroundImport", "ViewContext"])
        #expect(all.notes == [HistoryReader.bitsNote])
        let byNumber = Dictionary(uniqueKeysWithValues: all.transactions.map { ($0.number, $0) })
        #expect(byNumber[1]?.author == "app" && byNumber[1]?.contextName == "ViewContext" && byNumber[1]?.bundleID == "com.example.app")
        #expect(byNumber[4]?.author == "inline-author" && byNumber[4]?.contextName == nil)
        #expect(byNumber[2]?.timestamp == Date(timeIntervalSinceReferenceDate: 200))
        // Changes name their concrete entity. A bitmap that fits the entity's slots gives names; one that does not
        // (its length) gives its set bits, the first byte's high bit being bit 0, and the note says why.
        #expect(byNumber[1]?.changes.map(\.id.entity) == ["Item", "Special", "Note"])
        let update = try #require(byNumber[2]?.changes.first)
        #expect(update.kind == .update && update.changedPropertyBits == [5, 7, 16] && update.changedProperties == nil)
        let named = try #require(byNumber[4]?.changes.first)
        #expect(named.changedProperties == ["text"] && named.changedPropertyBits == nil)
        // The rule itself: a sub-entity's slots are its parent's; a bit past the last slot is not decoded either.
        let slots = try #require(store.historyReader?.slots)
        #expect(slots.slots(of: "Special") == ["name"] && slots.slots(of: "Note") == ["text"])
        #expect(slots.changedProperties([0x80], entity: "Special") == ["name"])
        #expect(slots.changedProperties([0x40], entity: "Note") == nil)
        #expect(slots.changedProperties([0x80, 0], entity: "Note") == nil)
        #expect(slots.changedProperties([0x80], entity: "Ghost") == nil)
        #expect(byNumber[2]?.changes.last?.changedPropertyBits == nil)
        let delete = try #require(byNumber[3]?.changes.first)
        #expect(delete.kind == .delete && delete.id.entity == "Special")
        #expect(delete.tombstone == ["ZTOMBSTONE0": .string("gone special"), "ZTOMBSTONE1": .binary(byteCount: 3)])
        #expect(byNumber[5]?.changes.first?.tombstone == nil)

        // Author, context and entity filters (an entity's sub-entities included).
        var byAuthor = HistoryQuery(limit: 10)
        byAuthor.author = "importer"
        #expect(try await Self.page(store, byAuthor).transactions.map(\.number) == [5, 2])
        byAuthor.author = "inline-author"
        #expect(try await Self.page(store, byAuthor).transactions.map(\.number) == [4])
        var byContext = HistoryQuery(limit: 10)
        byContext.contextName = "ViewContext"
        #expect(try await Self.page(store, byContext).transactions.map(\.number) == [3, 1])
        var notes = HistoryQuery(limit: 10)
        notes.entities = ["Note"]
        let notePage = try await Self.page(store, notes)
        #expect(notePage.transactions.map(\.number) == [4, 1])
        #expect(notePage.transactions.map(\.changeCount) == [1, 1])
        var items = HistoryQuery(limit: 10)
        items.entities = try await store.schema().subtree(of: "Item").sorted()
        #expect(try await Self.page(store, items).transactions.map { $0.changes.count } == [1, 1, 2, 2])
        var specials = HistoryQuery(limit: 10)
        specials.entities = ["Special"]
        #expect(try await Self.page(store, specials).transactions.map(\.number) == [3, 1])

        // One transaction, its changes paged.
        var one = HistoryQuery(window: .transaction(1))
        one.changeOffset = 1
        one.changeLimit = 1
        let paged = try #require(try await Self.page(store, one).transactions.first)
        #expect(paged.changeCount == 3 && paged.changes.map(\.id.entity) == ["Special"])
        #expect(try await Self.page(store, HistoryQuery(window: .transaction(9))).transactions.isEmpty)
    }

    @Test func theServiceValidatesTheParameters() async throws {
        let synthetic = try Self.makeStore()
        let service = BrowserService(store: try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL))
        func failure(_ parameters: [String: String]) async -> BrowserError? {
            do {
                _ = try await service.history(parameters: HistoryQueryParameters { parameters[$0] })
                return nil
            } catch {
                return error
            }
        }
        #expect(await failure(["before": "2", "after": "1"])?.message == "Pass at most one of before, after and transaction, got before and after")
        #expect(await failure(["before": "-1"])?.message == "before must be a transaction number (a non-negative integer), got \"-1\"")
        #expect(await failure(["limit": "0"])?.statusCode == 400)
        #expect(await failure(["changeOffset": "x"])?.statusCode == 400)
        #expect(await failure(["entity": "Ghost"])?.statusCode == 404)
        #expect(await failure(["transaction": "42"])?.message == "No transaction 42 in the store's history")

        let newest = try await service.history(parameters: HistoryQueryParameters { ["limit": "2"][$0] })
        #expect(newest.available && newest.transactions.map(\.id) == [5, 4] && newest.older == 4 && newest.newer == 5)
        let oldest = try await service.history(parameters: HistoryQueryParameters { ["before": "2"][$0] })
        #expect(oldest.transactions.map(\.id) == [1] && oldest.older == nil)
        let following = try await service.history(parameters: HistoryQueryParameters { ["after": "5"][$0] })
        #expect(following.transactions.isEmpty && following.newer == 5)
        let capped = try await service.history(parameters: HistoryQueryParameters { ["limit": "100000", "changeLimit": "100000"][$0] })
        #expect(capped.transactions.count == 5)
        #expect(capped.transactions.first?.changes.first?.id == "x-coredata://\(Self.uuid)/Item/p3")

        // Records are named as lists name them, when they are still in the store: Special p2 is not, and a deleted
        // object is never looked up (Item p3 of transaction 5).
        func changes(of transaction: Int) async throws -> [HistoryChangeDTO] {
            try await service.history(parameters: HistoryQueryParameters { ["transaction": String(transaction)][$0] })
                .transactions.first?.changes ?? []
        }
        #expect(try await changes(of: 1).map(\.summary) == ["first", nil, "note"])
        let updates = try await changes(of: 2)
        #expect(updates.map(\.summary) == ["first", "third"] && updates[0].changedBits == [5, 7, 16] && updates[0].changed == nil)
        let named = try await changes(of: 4)
        #expect(named.map(\.summary) == ["note"] && named[0].changed == ["text"] && named[0].changedBits == nil)
        #expect(try await changes(of: 5).map(\.summary) == [nil])
    }
}
