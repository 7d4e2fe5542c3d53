import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Cached counts and deep-page checkpoints (`ReadCache`) give the answers plain SQL gives, and are dropped when
/// another process commits (SQLite's `PRAGMA data_version`), in WAL and in rollback-journal stores.
struct ReadCacheTests {
    /// `ItemStore` rows whose keys have gaps; every third row is a Special.
    static func makeStore(rows: Int, walMode: Bool) throws -> (SyntheticStore, [ItemRow]) {
        let contents = (0..<rows).map { index in
            let key = Int64(index * 3 + index % 2 + 1)
            return ItemRow(key: key, title: "row \(key)", special: index % 3 == 0)
        }
        return (try ItemStore.make(contents, walMode: walMode), contents)
    }

    /// Runs SQL in another process (python3's sqlite3 module), as the app writing its store would.
    static func write(_ sql: String, to store: SyntheticStore) throws {
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", "-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=5, isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            for statement in sys.argv[2].split(";"):
                db.execute(statement)
            db.execute("COMMIT")
            """, store.storeURL.path, sql]
        try ProcessLaunch.run(writer)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
    }

    /// A kept total belongs to its SQL, not to its `RecordFilter`: Swift finds `title == "é"` and
    /// `title == "e\u{301}"` equal (canonical equivalence), the store's comparison does not, and each list must
    /// keep its own count. Pages of one record make the store count (and keep) each total.
    @Test func canonicallyEquivalentFiltersKeepTheirOwnTotals() async throws {
        let rows = (1...7).map { ItemRow(key: Int64($0), title: $0 <= 5 ? "\u{E9}" : "e\u{301}", special: false) }
        let synthetic = try ItemStore.make(rows)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL)
        let composed = RecordFilter.equals("title", .string("\u{E9}"))
        let decomposed = RecordFilter.equals("title", .string("e\u{301}"))
        #expect(composed == decomposed)  // why the cache must not be keyed by the filter
        for _ in 0..<2 {
            #expect(try await store.page(RecordQuery(entity: "Item", filter: composed, limit: 1)).total == 5)
            #expect(try await store.page(RecordQuery(entity: "Item", filter: decomposed, limit: 1)).total == 2)
        }
    }

    static func keys(_ page: RecordPage) -> [Int64] {
        page.records.map(\.id.primaryKey)
    }

    /// The page plain `ORDER BY Z_PK LIMIT OFFSET` gives, from the rows themselves.
    static func expected(_ rows: [Int64], offset: Int, limit: Int, descending: Bool) -> [Int64] {
        let ordered = descending ? rows.sorted(by: >) : rows.sorted()
        guard offset < ordered.count else { return [] }
        return Array(ordered[offset..<min(ordered.count, offset + limit)])
    }

    @Test(arguments: [true, false])
    func countsFollowAnotherProcessesCommits(walMode: Bool) async throws {
        let (synthetic, rows) = try Self.makeStore(rows: 50, walMode: walMode)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        #expect(store.accessDescription == "in place (read-only)")
        let specials = rows.filter(\.special).count
        #expect(try await store.count(of: "Item") == 50)
        #expect(try await store.count(of: "Special") == specials)
        #expect(try await store.page(RecordQuery(entity: "Item", limit: 1)).total == 50)

        try Self.write("INSERT INTO ZITEM VALUES (1000, 2, 1, 'new'); INSERT INTO ZITEM VALUES (1001, 1, 1, 'new')", to: synthetic)
        #expect(try await store.count(of: "Item") == 52)
        #expect(try await store.count(of: "Special") == specials + 1)
        #expect(try await store.page(RecordQuery(entity: "Special", limit: 1)).total == specials + 1)

        try Self.write("DELETE FROM ZITEM WHERE Z_PK >= 1000", to: synthetic)
        #expect(try await store.page(RecordQuery(entity: "Item", limit: 1)).total == 50)
        #expect(try await store.count(of: "Special") == specials)
    }

    @Test func deepPagesEqualPlainOffsetsInBothOrders() async throws {
        let (synthetic, rows) = try Self.makeStore(rows: 3_000, walMode: true)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let all = rows.map(\.key)
        let specials = rows.filter(\.special).map(\.key)
        // Deep first, then shallower, then past the end: checkpoints are built on demand and reused.
        let offsets = [2_900, 511, 512, 513, 700, 1_023, 1_024, 1_500, 999, 2_999, 3_000, 3_005, 9_999, 768, 0]
        for (entity, keys) in [("Item", all), ("Special", specials)] {
            for offset in offsets {
                for (order, descending) in [(SortOrder.ascending, false), (.descending, true)] {
                    for limit in [1, 7, 100] {
                        let page = try await store.page(RecordQuery(entity: entity, tieBreak: order, limit: limit, offset: offset))
                        #expect(Self.keys(page) == Self.expected(keys, offset: offset, limit: limit, descending: descending),
                                "\(entity) offset \(offset) \(order) limit \(limit)")
                        #expect(page.total == keys.count)
                    }
                }
            }
        }
    }

    @Test(arguments: [true, false])
    func deepPagesFollowAnotherProcessesCommits(walMode: Bool) async throws {
        let (synthetic, rows) = try Self.makeStore(rows: 2_000, walMode: walMode)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        var keys = rows.map(\.key)
        let deep = RecordQuery(entity: "Item", limit: 10, offset: 1_500)
        #expect(Self.keys(try await store.page(deep)) == Self.expected(keys, offset: 1_500, limit: 10, descending: false))

        // The app deletes early rows and adds new ones: the same offset now starts later.
        try Self.write("DELETE FROM ZITEM WHERE Z_PK < 400; INSERT INTO ZITEM VALUES (9000, 1, 1, 'new')", to: synthetic)
        keys = keys.filter { $0 >= 400 } + [9_000]
        let page = try await store.page(deep)
        #expect(Self.keys(page) == Self.expected(keys, offset: 1_500, limit: 10, descending: false))
        #expect(page.total == keys.count)
        let backwards = try await store.page(RecordQuery(entity: "Item", tieBreak: .descending, limit: 10, offset: 1_000))
        #expect(Self.keys(backwards) == Self.expected(keys, offset: 1_000, limit: 10, descending: true))
    }
}
