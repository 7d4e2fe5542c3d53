import BrowserCore
@testable import BrowserSQLite
import CSQLite
import Foundation
import Testing

/// `ScanPartner` reads half of a scan in the request's own snapshot or not at all: a commit between two requests,
/// or one placed between the request's snapshot and the partner's, makes it read nothing and the request's
/// connection read that half in its own snapshot. Pages sorted in two halves are SQLite's pages, in both
/// directions, for an entity and a sub-entity, at every offset the plan allows.
struct ScanPartnerTests {
    /// A search whose total is counted (the page of 1 is full), on a store whose partner splits a few rows.
    static func searchStore(rows: Int) throws -> (SyntheticStore, SQLiteStore) {
        let items = (1...rows).map { (key: Int) -> ItemRow in
            let title = key % 4 == 0 ? "Café \(key)" : "plain \(key)"
            return ItemRow(key: Int64(key), title: title, special: key % 2 == 0)
        }
        let synthetic = try ItemStore.make(items)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let partner = try #require(store.scanPartner)
        partner.minimumRows = 1
        return (synthetic, store)
    }

    static func searchTotal(_ store: SQLiteStore, _ needle: String) async throws -> Int {
        try await store.page(RecordQuery(entity: "Item", search: RecordSearch(text: needle, attributes: ["title"]), limit: 1)).total
    }

    @Test func aCommitBetweenRequestsIsReadOnTheRequestsConnection() async throws {
        let (synthetic, store) = try Self.searchStore(rows: 400)
        let partner = try #require(store.scanPartner)
        #expect(try await Self.searchTotal(store, "cafe") == 100)
        #expect(partner.partCounts() == (1, 0))
        // The app commits: the partner's next part finds another data version and reads nothing; the answer is
        // still the request's snapshot's, which holds the new row.
        let app = try RawDatabase(path: synthetic.storeURL.path)
        try app.execute("INSERT INTO ZITEM VALUES (1000, 1, 1, 'CAFÉ 1000')")
        #expect(try await Self.searchTotal(store, "café") == 101)
        #expect(partner.partCounts() == (1, 1))
        // Nothing committed since the partner's last part: it reads again.
        #expect(try await Self.searchTotal(store, "PLAIN") == 300)
        #expect(partner.partCounts() == (2, 1))
    }

    @Test func aCommitAfterTheRequestsSnapshotBeganIsNotCounted() async throws {
        let (synthetic, store) = try Self.searchStore(rows: 400)
        let partner = try #require(store.scanPartner)
        let app = try RawDatabase(path: synthetic.storeURL.path)
        // Runs on the partner's queue when its part is about to begin: the request's transaction has begun (the
        // part is handed over from inside it), so this commit lands between the two snapshots.
        partner.setBeforeEachPart { try? app.execute("INSERT INTO ZITEM VALUES (2000, 1, 1, 'café 2000')") }
        #expect(try await Self.searchTotal(store, "cafe") == 100)
        partner.setBeforeEachPart(nil)
        #expect(partner.partCounts() == (0, 1))
        #expect(try RawDatabase(path: synthetic.storeURL.path).rows("SELECT COUNT(*) FROM ZITEM WHERE Z_PK = 2000")[0][0] as? Int64 == 1)
        // The next request's snapshot holds the row (a new filter: counts are kept per filter until the data changes).
        #expect(try await Self.searchTotal(store, "café") == 101)
        #expect(partner.partCounts() == (1, 1))
    }

    @Test(arguments: [false, true])
    func pagesSortedInHalvesAreSQLitesPages(descending: Bool) async throws {
        let (synthetic, rows) = try SortedPagesTests.makeStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let partner = try #require(store.scanPartner)
        partner.minimumRows = 1
        // Keep every page a first request: no kept order is built (it would serve the later pages).
        store.keptOrders.pause()
        defer { store.keptOrders.resume() }
        var readInHalves = 0
        for (entity, members) in [("Item", rows), ("Special", rows.filter(\.special))] {
            let all = SortedPagesTests.expected(members, descending: descending)
            for (offset, limit) in [(0, 40), (0, 1), (37, 40), (members.count - 5, 40), (members.count, 10), (members.count + 10, 5),
                                    (PagePlanner.halvesMaximumRows - 10, 10)] {
                let page = try await SortedPagesTests.page(store, entity, descending: descending, offset: offset, limit: limit)
                #expect(page.total == members.count)
                let want = offset < all.count ? Array(all[offset..<min(all.count, offset + limit)]) : []
                #expect(page.records.map(\.id.primaryKey) == want, "\(entity) offset \(offset) limit \(limit)")
                readInHalves += 1
            }
            // Past the deepest page sorted in halves, SQLite sorts the whole table on one connection.
            let past = try await SortedPagesTests.page(store, entity, descending: descending, offset: PagePlanner.halvesMaximumRows, limit: 1)
            #expect(past.records.isEmpty && past.total == members.count)
        }
        #expect(partner.partCounts() == (readInHalves, 0))
        let explained = try await store.explain(RecordQuery(entity: "Item", sortKeys: [SortKey(attribute: "title", order: .ascending)], limit: 10))
        #expect(explained.steps.contains { $0.hasPrefix("Page: SQLite sorts each half of Item's primary keys at the same time") })
        // Explained, both halves run on the request's connection, so both statements are shown.
        #expect(explained.statements.filter { $0.sql.contains("\"Z_PK\" <= ?") }.count == 1)
        #expect(explained.statements.filter { $0.sql.contains("\"Z_PK\" > ?") }.count == 1)
    }

    /// The partner's last reading of the data version must precede the request's snapshot: a second scan in one
    /// read transaction (its reading was taken after the first part, inside the transaction) and a transaction not
    /// begun by `StoreConnection.read` (no start instant) are read on the request's connection, with the same answer.
    @Test func aScanWhoseSnapshotIsNotProvenIsReadByTheRequestsConnection() throws {
        let synthetic = try ItemStore.make((1...2_000).map { ItemRow(key: Int64($0), title: $0 % 5 == 0 ? "café" : "tea", special: false) })
        let partner = try ScanPartner(path: synthetic.storeURL.path, prepare: FoldedContainsFunction.register)
        partner.minimumRows = 1
        let connection = try SQLiteConnection(path: synthetic.storeURL.path, readOnly: true)
        try FoldedContainsFunction.register(on: connection)
        let counting = SearchCounting(column: "ZTITLE", foldedNeedle: Array("cafe".utf8))
        func count() throws -> Int {
            try counting.count(table: "\"ZITEM\"", condition: nil, arguments: [], in: connection, partner: partner)
        }
        connection.readTransactionStart = DispatchTime.now().uptimeNanoseconds
        try connection.execute("BEGIN")
        #expect(try count() == 400)
        #expect(partner.partCounts() == (1, 0))
        #expect(try count() == 400)
        #expect(partner.partCounts() == (1, 1))
        try connection.execute("COMMIT")
        connection.readTransactionStart = nil
        try connection.execute("BEGIN")
        #expect(try count() == 400)
        #expect(partner.partCounts() == (1, 2))
        try connection.execute("COMMIT")
    }

    /// A new search's page and total from one read of the column, in two halves and on one connection: the
    /// matching rows in primary-key order (or reversed), for a common word and a rare one, at several offsets.
    @Test(arguments: [false, true])
    func searchPagesReadInOneScanAreTheMatchingRowsInKeyOrder(descending: Bool) async throws {
        let (synthetic, rows) = try SortedPagesTests.makeStore()
        let order: BrowserCore.SortOrder = descending ? .descending : .ascending
        for minimumRows in [1, Int.max] {
            for needle in ["CAFE", "éclair 3", "zebra 6", "no such title"] {
                for (offset, limit) in [(0, 10), (7, 25), (40, 100), (0, 1)] {
                    // A store each: a kept total would send later pages down the paging route instead.
                    let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
                    try #require(store.scanPartner).minimumRows = minimumRows
                    let matching = rows.filter { $0.title.map { TextFolding.contains($0, needle) } ?? false }.map(\.key).sorted()
                    let all = descending ? Array(matching.reversed()) : matching
                    let page = try await store.page(RecordQuery(entity: "Item", search: RecordSearch(text: needle, attributes: ["title"]), tieBreak: order,
                                                                limit: limit, offset: offset))
                    #expect(page.total == matching.count, "\(needle) from \(minimumRows)")
                    #expect(page.records.map(\.id.primaryKey) == Array(all.dropFirst(offset).prefix(limit)),
                            "\(needle) offset \(offset) limit \(limit) from \(minimumRows)")
                    #expect(try #require(store.scanPartner).partCounts().read == (minimumRows == 1 ? 1 : 0))
                }
            }
        }
    }

    @Test func aStoppedRequestStopsItsPartnersPartToo() throws {
        let synthetic = try ItemStore.make((1...20_000).map { ItemRow(key: Int64($0), title: "café \($0)", special: false) })
        // The partner opens (and reads its data version) before the request's transaction begins, as in a store.
        let partner = try ScanPartner(path: synthetic.storeURL.path, prepare: FoldedContainsFunction.register)
        partner.minimumRows = 1
        let connection = try SQLiteConnection(path: synthetic.storeURL.path, readOnly: true)
        try FoldedContainsFunction.register(on: connection)
        let counting = SearchCounting(column: "ZTITLE", foldedNeedle: Array("cafe".utf8))
        // Every progress check of both connections counts down one shared stop: the second check, in whichever
        // half, stops the request, and the error reaches the caller after both halves ended.
        connection.interruption = QueryInterruption(stoppingAfterChecks: 1)
        // As `StoreConnection.read` does: the instant before the snapshot, which the partner's reading must precede.
        connection.readTransactionStart = DispatchTime.now().uptimeNanoseconds
        try connection.execute("BEGIN")
        #expect {
            try counting.count(table: "\"ZITEM\"", condition: nil, arguments: [], in: connection, partner: partner)
        } throws: { ($0 as? SQLiteError)?.primaryCode == SQLITE_INTERRUPT }
        try connection.execute("ROLLBACK")
        // Nothing was left running or stopped: the next request's halves are both read.
        connection.interruption = nil
        let before = partner.partCounts().read
        connection.readTransactionStart = DispatchTime.now().uptimeNanoseconds
        try connection.execute("BEGIN")
        #expect(try counting.count(table: "\"ZITEM\"", condition: nil, arguments: [], in: connection, partner: partner) == 20_000)
        try connection.execute("COMMIT")
        #expect(partner.partCounts().read == before + 1)
    }
}
