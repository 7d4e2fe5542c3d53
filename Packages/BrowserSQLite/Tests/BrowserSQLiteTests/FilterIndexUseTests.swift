import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Exact comparisons reach SQLite as plain comparisons of the column, so an index on it serves them:
/// SQLite's own plan (`SQLiteStore.explain`) for the page names the index and no scan of the table. On the
/// equivalence harness's synthetic store, whose Book table has indexes on pageCount, title and author. (A bare
/// `pageCount > n` is left out: for a page in key order SQLite may rightly prefer walking the keys to a range.)
struct FilterIndexUseTests {
    static func comparison(_ path: [String], _ op: FilterOperator, _ operand: FilterOperand) -> RecordFilter {
        .comparison(FilterComparison(FilterKeyPath(path), op, operand))
    }

    static let cases: [(filter: RecordFilter, index: String)] = [
        (comparison(["pageCount"], .equals, .value(.integer(300))), "Z_Book_byPageCount"),
        (comparison(["pageCount"], .between, .range(.integer(10), .integer(20))), "Z_Book_byPageCount"),
        (comparison(["pageCount"], .in, .list([.integer(1), .integer(300)])), "Z_Book_byPageCount"),
        (.not(comparison(["pageCount"], .notEquals, .value(.integer(300)))), "Z_Book_byPageCount"),
        (comparison(["title"], .equals, .value(.string("Kim"))), "Z_Book_byTitle"),
        (comparison(["title"], .beginsWith, .value(.string("Caf"))), "Z_Book_byTitle"),
        (comparison(["author"], .equals, .object("x-coredata://5E1F0C2A-9B3D-4E7A-8C61-0D2B4F6A8E10/Author/p3")), "ZBOOK_ZAUTHOR_INDEX"),
        (.all([.contains("title", "caf"), comparison(["pageCount"], .equals, .value(.integer(300)))]), "Z_Book_byPageCount"),
    ]

    @Test func exactComparisonsUseTheColumnsIndex() async throws {
        let directory = TemporaryDirectory()
        try await PredicateCases.runPython(["synthetic_store.py", "--out", directory.url.path])
        let store = try SQLiteStore.open(storeAt: directory.path("Synthetic.sqlite"), model: directory.path("Model.xcdatamodel"))
        for (filter, index) in Self.cases {
            let explained = try await store.explain(RecordQuery(entity: "Book", filter: filter, limit: 10))
            let page = try #require(explained.statements.first)
            #expect(page.indexes.contains { $0.contains(index) }, "\(filter): \(page.plan)")
            #expect(!page.fullScans.contains("ZBOOK"), "\(filter): \(page.plan)")
        }
    }
}
