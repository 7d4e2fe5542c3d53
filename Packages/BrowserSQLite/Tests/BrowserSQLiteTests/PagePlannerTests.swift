import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// `PagePlanner`'s routes give the pages SQL's order gives, computed here from the rows: an indexed sort is read
/// through its index (no sort, no kept order), an unindexed one is sorted by SQLite until its order, built in the
/// background after its first request, is kept; a commit before, during or after that build never lets an order
/// serve data it was not built from.
struct PagePlannerTests {
    struct Row {
        var key: Int64
        var title: String?
        var rank: Int64?
    }

    /// 700 rows: titles and ranks with repeats and NULLs. `rank` has a plain index; `title` has only a partial
    /// index and a NOCASE one, neither of which orders every row by its bytes.
    static let rows: [Row] = (1...700).map { key in
        let words = ["pear", "Apple", "éclair", "apple", "zebra", "Mango"]
        return Row(key: Int64(key), title: key % 9 == 0 ? nil : "\(words[key % words.count]) \(key % 13)",
                   rank: key % 10 == 0 ? nil : Int64((key * 7) % 50))
    }

    static func makeStore() throws -> (SyntheticStore, SQLiteStore) {
        let synthetic = try SyntheticStore(
            entities: [.init(number: 1, name: "Item")],
            tables: ["CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZTITLE VARCHAR )",
                     "CREATE INDEX ZITEM_ZRANK ON ZITEM (ZRANK COLLATE BINARY ASC)",
                     "CREATE INDEX ZITEM_PARTIAL ON ZITEM (ZTITLE) WHERE ZRANK > 10",
                     "CREATE INDEX ZITEM_NOCASE ON ZITEM (ZTITLE COLLATE NOCASE)"],
            modelXML: SyntheticStore.modelXML("""
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="rank" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """)
        ) { database in
            try database.execute("BEGIN")
            for row in rows {
                try database.run("INSERT INTO ZITEM VALUES (?, 1, 1, ?, ?)",
                                 [.integer(row.key), row.rank.map { .integer($0) } ?? .null, row.title.map { .text($0) } ?? .null])
            }
            try database.execute("COMMIT")
        }
        return (synthetic, try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL))
    }

    /// SQLite's order from the rows: NULL first, text by UTF-8 bytes, ties by key; all reversed for desc.
    static func expected(_ rows: [Row], by attribute: String, descending: Bool) -> [Int64] {
        func less(_ left: Row, _ right: Row) -> Bool? {
            switch attribute {
            case "rank":
                switch (left.rank, right.rank) {
                case (nil, nil): return nil
                case (nil, _): return true
                case (_, nil): return false
                case let (l?, r?): return l == r ? nil : l < r
                }
            default:
                switch (left.title, right.title) {
                case (nil, nil): return nil
                case (nil, _): return true
                case (_, nil): return false
                case let (l?, r?): return Array(l.utf8) == Array(r.utf8) ? nil : Array(l.utf8).lexicographicallyPrecedes(Array(r.utf8))
                }
            }
        }
        let ascending = rows.sorted { less($0, $1) ?? ($0.key < $1.key) }.map(\.key)
        return descending ? ascending.reversed() : ascending
    }

    static func query(_ attribute: String, descending: Bool, offset: Int, limit: Int = 50) -> RecordQuery {
        let order: BrowserCore.SortOrder = descending ? .descending : .ascending
        return RecordQuery(entity: "Item", sortKeys: [SortKey(attribute: attribute, order: order)], tieBreak: order, limit: limit, offset: offset)
    }

    static func check(_ store: SQLiteStore, rows: [Row], by attribute: String, descending: Bool, offset: Int) async throws {
        let page = try await store.page(query(attribute, descending: descending, offset: offset))
        let all = expected(rows, by: attribute, descending: descending)
        #expect(page.total == rows.count)
        #expect(page.records.map(\.id.primaryKey) == Array(all.dropFirst(offset).prefix(50)),
                "\(attribute) \(descending ? "desc" : "asc") offset \(offset)")
    }

    @Test func theCatalogKnowsWhichIndexesOrderEveryRow() throws {
        let (_, store) = try Self.makeStore()
        let item = try #require(store.mapping.entities["Item"])
        #expect(item.orderedColumns == ["ZRANK"])
        #expect(item.isIndexed("zRank") && !item.isIndexed("ZTITLE"))
    }

    @Test(arguments: [false, true])
    func anIndexedSortWalksItsIndexAndKeepsNoOrder(descending: Bool) async throws {
        let (synthetic, store) = try Self.makeStore()
        defer { withExtendedLifetime(synthetic) {} }
        for offset in [0, 0, 49, 300] {
            try await Self.check(store, rows: Self.rows, by: "rank", descending: descending, offset: offset)
            await store.backgroundWorkFinished()
        }
        let explained = try await store.explain(Self.query("rank", descending: descending, offset: 300))
        #expect(explained.steps.contains { $0.contains("an index orders Item by rank") })
        let page = try #require(explained.statements.first { $0.sql.hasSuffix("LIMIT ? OFFSET ?") })
        #expect(!page.temporarySort && page.indexes.contains { $0.contains("ZITEM_ZRANK") })

        // Deep pages: the first one through the index, which asks for the checkpoints; then from them (nulls
        // first ascending, last descending: a descending page far from the start reaches them).
        let first = try await store.explain(Self.query("rank", descending: descending, offset: 600))
        #expect(first.steps.contains { $0.contains("is now kept in the background") })
        await store.backgroundWorkFinished()
        for offset in [512, 513, 600, 630, 640, 650, 651, 699, 700, 767] {
            let explained = try await store.explain(Self.query("rank", descending: descending, offset: offset))
            #expect(explained.steps.contains { $0.hasPrefix("Page: far from the start of Item in rank order") })
            #expect(explained.statements.allSatisfy { !$0.temporarySort && $0.fullScans.isEmpty })
            try await Self.check(store, rows: Self.rows, by: "rank", descending: descending, offset: offset)
        }
    }

    @Test(arguments: [false, true])
    func anUnindexedSortIsKeptAfterItsFirstRequestWithoutWaitingForIt(descending: Bool) async throws {
        let (synthetic, store) = try Self.makeStore()
        defer { withExtendedLifetime(synthetic) {} }  // its files stay while the order is built
        try await Self.check(store, rows: Self.rows, by: "title", descending: descending, offset: 0)
        await store.backgroundWorkFinished()
        for offset in [0, 120, 651, 699, 700] {
            let explained = try await store.explain(Self.query("title", descending: descending, offset: offset))
            #expect(explained.steps.contains { $0.hasPrefix("Page: the keys of Item in title order are kept in memory (700 keys") },
                    "\(explained.steps)")
            try await Self.check(store, rows: Self.rows, by: "title", descending: descending, offset: offset)
        }
    }

    /// A commit between the request that asks for an order and its build, seen or not yet seen by the store's
    /// connection when the build ends: every later page is the new data's.
    @Test(arguments: [false, true])
    func aCommitDuringTheBuildNeverLetsAnOldOrderServe(seenBeforeTheBuild: Bool) async throws {
        let (synthetic, store) = try Self.makeStore()
        store.keptOrders.pause()
        try await Self.check(store, rows: Self.rows, by: "title", descending: false, offset: 0)
        // A row that sorts first (NULL title) and one that sorts last, and one deleted.
        try ReadCacheTests.write("INSERT INTO ZITEM VALUES (5000, 1, 1, 3, NULL); INSERT INTO ZITEM VALUES (5001, 1, 1, 4, 'zz top'); "
            + "DELETE FROM ZITEM WHERE Z_PK = 2", to: synthetic)
        let updated = Self.rows.filter { $0.key != 2 } + [Row(key: 5000, title: nil, rank: 3), Row(key: 5001, title: "zz top", rank: 4)]
        if seenBeforeTheBuild {
            try await Self.check(store, rows: updated, by: "title", descending: false, offset: 0)
        }
        store.keptOrders.resume()
        await store.backgroundWorkFinished()
        for offset in [0, 650, 651] {
            try await Self.check(store, rows: updated, by: "title", descending: false, offset: offset)
            try await Self.check(store, rows: updated, by: "title", descending: true, offset: offset)
            await store.backgroundWorkFinished()
        }
        #expect(try await store.explain(Self.query("title", descending: false, offset: 0))
            .steps.contains { $0.hasPrefix("Page: the keys of Item in title order are kept in memory (701 keys") })
    }
}
