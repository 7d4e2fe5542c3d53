import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// A search page's total is right whichever way it is found: counted, or read off a short page (fewer matches
/// than the limit say the total without a second scan). Each case opens its own store, so no kept count answers.
struct SearchPagesTests {
    @Test("totals of search pages", arguments: [
        (limit: 500, offsetFromEnd: nil as Int?, offset: 0),  // one short first page: total from the page
        (limit: 10, offsetFromEnd: nil, offset: 0),           // a full page: counted
        (limit: 10, offsetFromEnd: 3, offset: 0),             // a short last page: offset + rows
        (limit: 10, offsetFromEnd: -5, offset: 0),            // past the end: an empty page, counted
        (limit: 1, offsetFromEnd: 1, offset: 0),              // the last row exactly: a full page, counted
    ])
    func totals(limit: Int, offsetFromEnd: Int?, offset: Int) async throws {
        let (synthetic, rows) = try SortedPagesTests.makeStore()
        let matching = rows.filter { $0.title.map { TextFolding.contains($0, "APPLE") } ?? false }.map(\.key).sorted()
        #expect(matching.count > 10)
        let start = offsetFromEnd.map { matching.count - $0 } ?? offset
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let entity = try #require(try await store.schema().entity(named: "Item"))
        let query = try RecordQuery.validated(
            RecordQueryParameters(search: "APPLE", searchAttribute: "title", limit: String(limit), offset: String(start)),
            for: entity)
        let page = try await store.page(query)
        #expect(page.total == matching.count)
        let want = start < matching.count ? Array(matching[start..<min(matching.count, start + limit)]) : []
        #expect(page.records.map(\.id.primaryKey) == want)
    }

    @Test func aSearchWithNoMatchIsAnEmptyPageWithTotalZero() async throws {
        let (synthetic, _) = try SortedPagesTests.makeStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let entity = try #require(try await store.schema().entity(named: "Item"))
        for offset in ["0", "20"] {
            let query = try RecordQuery.validated(RecordQueryParameters(search: "no such word", offset: offset), for: entity)
            let page = try await store.page(query)
            #expect(page.total == 0)
            #expect(page.records.isEmpty)
        }
    }
}
