import BrowserCore
import BrowserMemory
@testable import BrowserSQLite
import Foundation
import Testing

/// Sorting by several keys (`sort=pages:desc,title`): the store file (SQL ORDER BY over every key, then the primary
/// key) and the in-memory store give the order an independent sort of the rows gives, page by page, and a record's
/// position agrees with where it is listed. Rows and stores are `FacetEquivalenceTests`' (repeats, nulls, Unicode).
struct MultiKeySortTests {
    typealias Row = FacetEquivalenceTests.Row

    static func book(_ name: String, _ row: Row) -> AttributeValue {
        switch name {
        case "title": row.title.map { .string($0) } ?? .null
        case "pages": row.pages.map { .integer($0) } ?? .null
        case "rating": row.rating.map { .double($0) } ?? .null
        case "available": row.available.map { .boolean($0) } ?? .null
        default: .null
        }
    }

    /// The rows' keys in the order the keys ask, written here from the rows themselves: nil first ascending, text by
    /// UTF-8 bytes, the primary key in the first key's direction last.
    static func expectedKeys(_ keys: [SortKey], entity: String) -> [Int64] {
        func less(_ a: AttributeValue, _ b: AttributeValue) -> Bool? {
            switch (a, b) {
            case (.null, .null): return nil
            case (.null, _): return true
            case (_, .null): return false
            case (.string(let x), .string(let y)): return x == y ? nil : x.utf8.lexicographicallyPrecedes(y.utf8)
            case (.integer(let x), .integer(let y)): return x == y ? nil : x < y
            case (.double(let x), .double(let y)): return x == y ? nil : x < y
            case (.boolean(let x), .boolean(let y)): return x == y ? nil : !x
            default: return nil
            }
        }
        let rows = FacetEquivalenceTests.rows.filter { entity == "Book" || $0.special }
        let descending = keys.first?.order == .descending
        return rows.sorted { left, right in
            for key in keys {
                if let isLess = less(book(key.attribute, left), book(key.attribute, right)) {
                    return key.order == .ascending ? isLess : !isLess
                }
            }
            return descending ? left.key > right.key : left.key < right.key
        }.map(\.key)
    }

    static let cases: [(entity: String, sort: String)] = [
        ("Book", "pages:desc,title"),
        ("Book", "title,pages:desc"),
        ("Book", "available:desc,rating,title:desc"),
        ("Book", "rating:desc,available"),
        ("Special", "title:desc,pages"),
    ]

    @Test("both stores list the rows in the keys' order", arguments: cases.indices)
    func order(index: Int) async throws {
        let (synthetic, sqlite) = try FacetEquivalenceTests.sqliteStore()
        _ = synthetic
        let schema = try await sqlite.schema()
        let memory = try await FacetEquivalenceTests.memoryStore(schema: schema)
        let item = Self.cases[index]
        let entity = try #require(schema.entity(named: item.entity))
        var query = try RecordQuery.validated(RecordQueryParameters(sort: item.sort, limit: "37"), for: entity)
        let expected = Self.expectedKeys(query.sortKeys, entity: item.entity)
        var fromSQL: [Int64] = []
        var fromMemory: [[String: AttributeValue]] = []
        while query.offset < expected.count {
            fromSQL += try await sqlite.page(query).records.map(\.id.primaryKey)
            fromMemory += try await memory.page(query).records.map(\.values)
            query.offset += query.limit
        }
        #expect(fromSQL == expected, "\(item.sort)")
        // The in-memory store numbers its records itself: compare what they hold, in order.
        let expectedValues = expected.map { key in FacetEquivalenceTests.rows.first { $0.key == key }! }
        for name in ["title", "pages", "rating", "available"] {
            #expect(fromMemory.map { $0[name] ?? .null } == expectedValues.map { Self.book(name, $0) }, "\(item.sort): \(name)")
        }
        // A record's position is where the pages list it.
        for probe in [0, expected.count / 2, expected.count - 1] {
            let id = try #require(try await sqlite.page({ var q = query; q.offset = probe; q.limit = 1; return q }()).records.first?.id)
            #expect(try await sqlite.position(of: id, in: query) == probe)
        }
    }
}
