import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Pages sorted by an attribute give the same rows whether SQLite sorts them (first request) or they come from
/// the kept order (`SortedKeys`, built in the background after it), in both directions, for an entity and a
/// sub-entity; the kept order and the kept search counts follow another process's commits.
struct SortedPagesTests {
    /// 300 rows: titles with duplicates, NULLs, mixed case and accents (BINARY order puts "É" after "z");
    /// every third row is a Special (a sub-entity, same table).
    static func makeStore() throws -> (SyntheticStore, [ItemRow]) {
        let words = ["apple", "Apple", "Éclair", "zebra", "mango", "café", "Cafe", "banana"]
        let rows = (0..<300).map { (index: Int) -> ItemRow in
            let title: String? = index % 11 == 0 ? nil : "\(words[index % words.count]) \(index % 7)"
            return ItemRow(key: Int64(index * 2 + 1), title: title, special: index % 3 == 0)
        }
        return (try ItemStore.make(rows), rows)
    }

    /// SQLite's order, computed here: NULL first, then titles by UTF-8 bytes, ties by key; reversed for desc.
    static func expected(_ rows: [ItemRow], descending: Bool) -> [Int64] {
        let ascending = rows.sorted { left, right in
            switch (left.title, right.title) {
            case (nil, nil): return left.key < right.key
            case (nil, _): return true
            case (_, nil): return false
            case let (l?, r?):
                return Array(l.utf8) == Array(r.utf8) ? left.key < right.key : Array(l.utf8).lexicographicallyPrecedes(Array(r.utf8))
            }
        }.map(\.key)
        return descending ? ascending.reversed() : ascending
    }

    static func page(_ store: SQLiteStore, _ entity: String, descending: Bool, offset: Int, limit: Int) async throws -> RecordPage {
        let order: BrowserCore.SortOrder = descending ? .descending : .ascending
        return try await store.page(RecordQuery(entity: entity, sortKeys: [SortKey(attribute: "title", order: order)],
                                                tieBreak: order, limit: limit, offset: offset))
    }

    @Test(arguments: [false, true])
    func keptOrderGivesSQLitesPages(descending: Bool) async throws {
        let (synthetic, rows) = try Self.makeStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        for (entity, members) in [("Item", rows), ("Special", rows.filter(\.special))] {
            let all = Self.expected(members, descending: descending)
            // The first request is sorted by SQLite; later ones come from the kept order. Both must agree with
            // the independent order above, page after page, including a short last page and past the end.
            for (request, offset) in [0, 0, 37, 100, members.count - 5, members.count, members.count + 10].enumerated() {
                if request == 1 { await store.backgroundWorkFinished() }
                let page = try await Self.page(store, entity, descending: descending, offset: offset, limit: 40)
                #expect(page.total == members.count)
                let want = offset < all.count ? Array(all[offset..<min(all.count, offset + 40)]) : []
                #expect(page.records.map(\.id.primaryKey) == want, "\(entity) offset \(offset)")
                let specials = Set(rows.filter(\.special).map(\.key))
                #expect(page.records.allSatisfy { record in
                    record.id.entity == (specials.contains(record.id.primaryKey) ? "Special" : "Item")
                })
            }
        }
    }

    @Test func keptOrderAndSearchCountsFollowAnotherProcessesCommits() async throws {
        let (synthetic, rows) = try Self.makeStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        for _ in 0..<3 {
            _ = try await Self.page(store, "Item", descending: false, offset: 0, limit: 10)
            await store.backgroundWorkFinished()
        }
        #expect(try await store.explain(RecordQuery(entity: "Item", sortKeys: [SortKey(attribute: "title", order: .ascending)], limit: 10))
            .steps.contains { $0.hasPrefix("Page: the keys of Item in title order are kept in memory") })
        let entity = try #require(try await store.schema().entity(named: "Item"))
        let search = try RecordQuery.validated(RecordQueryParameters(search: "CAFE", searchAttribute: "title"), for: entity)
        let matches = rows.filter { $0.title.map { TextFolding.contains($0, "cafe") } ?? false }.count
        #expect(try await store.page(search).total == matches)
        #expect(try await store.page(search).total == matches)

        // The app inserts a row that sorts first (NULL) and one that matches the search.
        try ReadCacheTests.write("INSERT INTO ZITEM VALUES (10000, 1, 1, NULL); INSERT INTO ZITEM VALUES (10001, 1, 1, 'Café crème')", to: synthetic)
        let after = try await Self.page(store, "Item", descending: false, offset: 0, limit: 400)
        #expect(after.total == rows.count + 2)
        let updated = rows + [ItemRow(key: 10000, title: nil, special: false), ItemRow(key: 10001, title: "Café crème", special: false)]
        #expect(after.records.map(\.id.primaryKey) == Self.expected(updated, descending: false))
        #expect(try await store.page(search).total == matches + 1)
    }
}
