import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Updates' `ACHANGE.ZCOLUMNS` bitmaps named (`ChangedPropertySlots`, format doc §11.1) on a store written by
/// Apple Notes: every update row against `history-updates.json`, which an independent reading (Python, from the
/// model the store caches) decoded beside the store.
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct HistoryBitmapFixtureTests {
    static let folder = "apple-notes-13"

    struct Expected: Decodable {
        struct Row: Decodable {
            var change: Int64
            var transaction: Int64
            var entity: String
            var record: Int64
            var columns: String
            var updated: [String]
        }

        var rows: [Row]
        var slots: [String: [String]]
    }

    static func expected() throws -> Expected {
        let data = try Data(contentsOf: Fixtures.url("\(folder)/history-updates.json"))
        return try JSONDecoder().decode(Expected.self, from: data)
    }

    @Test func everyEntityWithUpdatesHasTheSlotsOfTheIndependentReading() throws {
        let fixture = try OpenedFixture("\(Self.folder)/NoteStore.sqlite")
        let slots = try #require(fixture.store.historyReader?.slots, "the store's model is cached, so bitmaps are decoded")
        for (entity, expected) in try Self.expected().slots.sorted(by: { $0.key < $1.key }) {
            #expect(slots.slots(of: entity) == expected, "\(entity)")
        }
    }

    @Test func everyUpdateRowNamesThePropertiesItChanged() async throws {
        let fixture = try OpenedFixture("\(Self.folder)/NoteStore.sqlite")
        let expected = try Self.expected()
        #expect(expected.rows.count == 100)
        var query = HistoryQuery(window: .oldestFirst(after: 0), limit: HistoryQuery.maximumLimit)
        query.changeLimit = HistoryQuery.maximumChangeLimit
        let page = try await HistoryReadingTests.page(fixture.store, query)
        #expect(!page.hasMore && page.transactions.allSatisfy { $0.changes.count == $0.changeCount })
        var read: [String: HistoryChange] = [:]
        for transaction in page.transactions {
            for change in transaction.changes where change.kind == .update {
                read["\(transaction.number) \(change.id.entity)/p\(change.id.primaryKey)"] = change
            }
        }
        #expect(read.count == expected.rows.count)
        for row in expected.rows {
            let change = read["\(row.transaction) \(row.entity)/p\(row.record)"]
            #expect(change?.changedProperties == row.updated, "change \(row.change) of \(row.entity), bitmap \(row.columns)")
            #expect(change?.changedPropertyBits == nil)
        }
        #expect(page.notes.isEmpty, "every bitmap fits, so no note about bit positions")
    }
}
