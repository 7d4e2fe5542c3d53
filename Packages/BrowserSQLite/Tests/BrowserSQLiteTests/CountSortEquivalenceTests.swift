import BrowserCore
import BrowserMemory
@testable import BrowserSQLite
import Foundation
import Testing

/// Pages sorted by a to-many relationship's count (`tags.@count`, `books.@count`) read from the file (a correlated
/// `COUNT(*)` in SQL) equal those of the in-memory store holding the same records (`MemoryMirror`, counts of its
/// links), and both equal the order recomputed here from the join table and foreign keys with plain SQL: counts
/// with many ties (broken by the primary key in the key's direction) and records with no related record at all.
struct CountSortEquivalenceTests {
    /// The benchmark generator's library (Book.tags many-to-many, Author.books by foreign key, the AudioBook
    /// sub-entity), with some tag links removed so that books and tags with a count of 0 exist.
    static func library(in directory: TemporaryDirectory) async throws -> (SQLiteStore, RawDatabase) {
        let storeURL = directory.path("library.sqlite")
        try await PredicateCases.runPython(["../../../../scripts/bench/generate_store.py", "--books", "400", "--quiet", "--out", storeURL.path])
        let raw = try RawDatabase(path: storeURL.path)
        try raw.execute("DELETE FROM Z_2TAGS WHERE Z_2BOOKS % 9 = 0 OR Z_4TAGS % 10 = 0")
        return (try SQLiteStore.open(storeAt: storeURL, model: directory.path("Library.xcdatamodeld")), raw)
    }

    /// Every key of `table`'s rows with its count of `counted` rows grouping on `owner`, in the order a count sort
    /// gives: by count, then by key, both in `order`.
    static func expectedOrder(table: String, owners ownerSQL: String, order: BrowserCore.SortOrder, in raw: RawDatabase) throws -> [Int64] {
        var counts: [Int64: Int64] = [:]
        for row in try raw.rows("SELECT Z_PK FROM \(table)") { counts[row[0] as! Int64] = 0 }
        for row in try raw.rows(ownerSQL) { counts[row[0] as! Int64] = row[1] as? Int64 }
        return counts.sorted { left, right in
            let a = (left.value, left.key), b = (right.value, right.key)
            return order == .ascending ? a < b : a > b
        }.map(\.key)
    }

    /// Every page of `query` (limit 37, so pages split runs of equal counts), as the primary keys of its records.
    static func allKeys(_ query: RecordQuery, in store: any BrowserStore, toFile: [ObjectID: ObjectID]? = nil) async throws -> [Int64] {
        var query = query
        query.limit = 37
        var keys: [Int64] = []
        while true {
            let page = try await store.page(query)
            keys += page.records.map { (toFile?[$0.id] ?? $0.id).primaryKey }
            guard page.records.count == query.limit else { break }
            query.offset += query.limit
        }
        return keys
    }

    @Test func fileAndMemoryPagesSortedByCountsAgreeWithRecomputedCounts() async throws {
        let directory = TemporaryDirectory()
        let (file, raw) = try await Self.library(in: directory)
        let mirror = try await MemoryMirror.of(file)
        let schema = try await file.schema()
        let cases: [(entity: String, sort: String, table: String, owners: String)] = [
            ("Book", "tags.@count", "ZBOOK", "SELECT Z_2BOOKS, COUNT(*) FROM Z_2TAGS GROUP BY Z_2BOOKS"),
            ("Tag", "books.@count", "ZTAG", "SELECT Z_4TAGS, COUNT(*) FROM Z_2TAGS GROUP BY Z_4TAGS"),
            ("Author", "books.@count", "ZAUTHOR", "SELECT ZAUTHOR, COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL GROUP BY ZAUTHOR"),
        ]
        for (entity, sort, table, owners) in cases {
            for order in [BrowserCore.SortOrder.descending, .ascending] {
                let query = try RecordQuery.validated(
                    RecordQueryParameters(sort: "\(sort):\(order.rawValue)"), for: #require(schema.entity(named: entity)))
                let expected = try Self.expectedOrder(table: table, owners: owners, order: order, in: raw)
                let fromFile = try await Self.allKeys(query, in: file)
                let fromMemory = try await Self.allKeys(query, in: mirror.memory, toFile: mirror.toFile)
                #expect(fromFile == expected, "\(entity) sorted by \(sort):\(order.rawValue), file")
                #expect(fromMemory == expected, "\(entity) sorted by \(sort):\(order.rawValue), memory")
            }
        }
        // The store is not vacuous for these sorts: ties, and records with nothing related.
        let bookCounts = try raw.rows("SELECT (SELECT COUNT(*) FROM Z_2TAGS WHERE Z_2BOOKS = ZBOOK.Z_PK) AS n, COUNT(*) FROM ZBOOK GROUP BY n")
        #expect(bookCounts.contains { $0[0] as? Int64 == 0 && ($0[1] as? Int64 ?? 0) > 1 })
        #expect(bookCounts.count >= 4)
        let emptyTags = try raw.rows("SELECT COUNT(*) FROM ZTAG WHERE Z_PK NOT IN (SELECT Z_4TAGS FROM Z_2TAGS)")
        #expect((emptyTags.first?[0] as? Int64 ?? 0) > 1)
    }

    /// A count key mixed with attributes, filtered and scoped: the same pages from both stores, and a record's
    /// position in the list is its index in the pages.
    @Test func mixedKeysFiltersAndPositionsAgree() async throws {
        let directory = TemporaryDirectory()
        let (file, _) = try await Self.library(in: directory)
        let mirror = try await MemoryMirror.of(file)
        let book = try #require(try await file.schema().entity(named: "Book"))
        for parameters in [
            RecordQueryParameters(sort: "tags.@count:desc,title"),
            RecordQueryParameters(sort: "rating,tags.@count:asc"),
            RecordQueryParameters(sort: "tags.@count", order: "desc", predicateText: "pageCount > 200"),
        ] {
            let query = try RecordQuery.validated(parameters, for: book)
            var memoryQuery = query
            memoryQuery.filter = query.filter.map(mirror.mapped)
            let fromFile = try await Self.allKeys(query, in: file)
            let fromMemory = try await Self.allKeys(memoryQuery, in: mirror.memory, toFile: mirror.toFile)
            #expect(!fromFile.isEmpty)
            #expect(fromFile == fromMemory, "\(parameters)")
            let page = try await file.page(query)
            for (index, record) in page.records.enumerated().prefix(5) {
                #expect(try await file.position(of: record.id, in: query) == index)
            }
        }
    }

    @Test func explainNamesTheCountSort() async throws {
        let directory = TemporaryDirectory()
        let (file, _) = try await Self.library(in: directory)
        let book = try #require(try await file.schema().entity(named: "Book"))
        let query = try RecordQuery.validated(RecordQueryParameters(sort: "tags.@count:desc"), for: book)
        let explained = try await file.explain(query)
        #expect(explained.steps.contains { $0.contains("tags.@count") }, "\(explained.steps)")
    }
}
