import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// A facet stopped at its deadline answers what it counted, marked cut (`FacetCounts.cut`), instead of failing:
/// the facet's statements are stopped after 0, 1, 2, … checks of its interruption (SQLite's progress handler and
/// the check before each part; deterministic for the same file, no clock), and every answer is checked against
/// the whole one: the parts present are equal, the parts missing are the cut's and those after it.
struct FacetDeadlineTests {
    /// More different values than one pass holds, so the facet is counted part by part (list, values, range).
    static func store() throws -> (SyntheticStore, SQLiteStore) {
        let count = FacetRequest.distinctLimit + 500
        let synthetic = try SyntheticStore(
            entities: [.init(number: 1, name: "Book")],
            tables: ["CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGES INTEGER, ZKIND VARCHAR )"],
            modelXML: SyntheticStore.modelXML("""
                <entity name="Book" representedClassName="Book" syncable="YES">
                    <attribute name="kind" optional="YES" attributeType="String"/>
                    <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                </entity>
                """)
        ) { database in
            try database.execute("BEGIN")
            for key in 1...count {
                let pages: RawDatabase.Value = key % 89 == 0 ? .null : .integer(key % 400 == 0 ? 5 : Int64(key * 2))
                try database.run("INSERT INTO ZBOOK VALUES (?, 1, 1, ?, ?)", [.integer(Int64(key)), pages, .text("k\(key % 3)")])
            }
            try database.execute("COMMIT")
        }
        return (synthetic, try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL))
    }

    static let order: [FacetCut?] = [.total, .values, .range, nil]

    @Test func aCutFacetAnswersThePartsItCountedAndTheyAreTheWholeAnswers() async throws {
        let (synthetic, sqlite) = try Self.store()
        _ = synthetic
        let attribute = try #require(try await sqlite.schema().entity(named: "Book")?.attribute(named: "pages"))
        // Filtered, so the list's size is counted in SQL too (a whole entity's count may be kept).
        let request = FacetRequest(query: RecordQuery(entity: "Book", filter: .contains("kind", "k")), attribute: attribute,
                                   top: 5, buckets: 8)
        let whole = try await sqlite.facets(request)
        #expect(whole.cut == nil && whole.histogram != nil && !whole.distinctIsExact)

        var seen: [FacetCut?] = []
        var checks = 0
        while true {
            let answer = try await sqlite.facets(request, stop: QueryInterruption(stoppingAfterChecks: checks))
            if seen.last.map({ $0 != answer.cut }) ?? true { seen.append(answer.cut) }
            switch answer.cut {
            case .total:
                #expect(answer == .cut(before: .total))
            case .values:
                #expect(answer == .cut(before: .values, total: whole.total))
            case .range:
                var expected = whole
                (expected.minimum, expected.maximum, expected.histogram, expected.cut) = (nil, nil, nil, .range)
                #expect(answer == expected)
            case .records:
                Issue.record("SQLite cuts between parts, never between records")
            case nil:
                #expect(answer == whole)
            }
            if answer.cut == nil { break }
            checks += 1
            try #require(checks < 100_000, "the facet never finished")
        }
        // Stopped in every part, in the order they are counted, then not at all.
        #expect(seen == Self.order, "\(seen)")
    }

    @Test func aPassedDeadlineCutsBeforeTheFirstStatement() async throws {
        let (synthetic, sqlite) = try Self.store()
        _ = synthetic
        let attribute = try #require(try await sqlite.schema().entity(named: "Book")?.attribute(named: "kind"))
        let passed = DispatchTime.now().uptimeNanoseconds
        let request = FacetRequest(query: RecordQuery(entity: "Book"), attribute: attribute, deadline: passed)
        #expect(try await sqlite.facets(request) == .cut(before: .total))
        // The request's own budget still ends the request with its error (503), not with a cut facet.
        await #expect(throws: BrowserError.self) {
            try await RequestBudget.$deadline.withValue(passed) {
                _ = try await sqlite.facets(FacetRequest(query: RecordQuery(entity: "Book"), attribute: attribute))
            }
        }
    }

    @Test func theFacetsDeadlineIsTheShorterOfItsOwnAndAShareOfTheRequests() {
        let now: UInt64 = 1_000_000_000_000
        let second: UInt64 = 1_000_000_000
        #expect(FacetRequest.deadline(seconds: 10, within: now + 4 * second, now: now) == now + 3 * second)
        #expect(FacetRequest.deadline(seconds: 1, within: now + 4 * second, now: now) == now + second)
        #expect(FacetRequest.deadline(seconds: nil, within: now + 4 * second, now: now) == now + 3 * second)
        #expect(FacetRequest.deadline(seconds: 2, within: nil, now: now) == now + 2 * second)
        #expect(FacetRequest.deadline(seconds: nil, within: nil, now: now) == nil)
        #expect(FacetRequest.deadline(seconds: 0, within: nil, now: now) == now)
        // No own limit given as infinity: the request's share decides, and nothing traps.
        #expect(FacetRequest.deadline(seconds: .infinity, within: now + 4 * second, now: now) == now + 3 * second)
        #expect((FacetRequest.deadline(seconds: .infinity, within: nil, now: now) ?? 0) > now + 1_000_000 * second)
    }
}
