import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Lists restricted to a relationship (`RecordQuery.scope`) and record positions (`position(of:in:)`), checked on
/// every fixture against independent readings: the scoped page against `related()` (its own SQL per storage
/// kind), and each position against the record's index in the full list read page by page.
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct ScopedListTests {
    @Test("a scoped list holds exactly what related() reaches, in its order", arguments: FixtureStore.all)
    func scopedListsMatchRelated(fixture: FixtureStore) async throws {
        let opened = try OpenedFixture(fixture.path)
        let schema = try await opened.store.schema()
        for entity in schema.browsableEntities where !entity.isAbstract {
            for row in try await opened.store.page(RecordQuery(entity: entity.name, limit: 3)).records {
                for relationship in entity.relationships {
                    let related = try await opened.store.related(from: row.id, through: relationship.name, limit: 500)
                    let scope = RelationshipScope(source: row.id, relationship: relationship.name, isOrdered: relationship.isOrdered)
                    let page = try await opened.store.page(RecordQuery(entity: relationship.destination, scope: scope, limit: 500))
                    #expect(page.total == related.total, "\(entity.name).\(relationship.name) of \(row.id.shortForm)")
                    #expect(page.records.map(\.id) == related.records.map(\.id), "\(entity.name).\(relationship.name)")
                    for (index, record) in page.records.enumerated().prefix(20) {
                        let query = RecordQuery(entity: relationship.destination, scope: scope)
                        #expect(try await opened.store.position(of: record.id, in: query) == index)
                    }
                }
            }
        }
    }

    @Test("positions equal the index in the full list, for every sort and direction", arguments: FixtureStore.all)
    func positionsMatchTheList(fixture: FixtureStore) async throws {
        let opened = try OpenedFixture(fixture.path)
        let schema = try await opened.store.schema()
        for entity in schema.browsableEntities where try await opened.store.count(of: entity.name) <= 500 {
            let sorts: [String?] = [nil] + entity.attributes.filter { $0.type != .binary && $0.type != .transformable }.map(\.name)
            for sort in sorts {
                for order in [SortOrder.ascending, .descending] {
                    let query = RecordQuery(entity: entity.name, sortKeys: sort.map { [SortKey(attribute: $0, order: order)] } ?? [],
                                            tieBreak: order, limit: 500)
                    let list = try await opened.store.page(query).records
                    for index in Swift.stride(from: 0, to: list.count, by: max(1, list.count / 7)) {
                        let position = try await opened.store.position(of: list[index].id, in: query)
                        #expect(position == index, "\(entity.name) by \(sort ?? "key") \(order): \(list[index].id.shortForm)")
                    }
                }
            }
        }
    }
}

/// The same on layouts the fixtures lack: an ordered many-to-many (order keys in the join table), nulls in a
/// sorted column, a search within a scope, and records outside a list.
struct SyntheticScopedListTests {
    @Test("an ordered relationship lists in its order, reversed descending, by attribute when sorted",
          arguments: ["Z_1SONGS", "Z_2PLAYLISTS"])
    func orderedScope(joinTable: String) async throws {
        let synthetic = try SyntheticRelationshipTests.makePlaylistStore(joinTable: joinTable)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let uuid = SyntheticRelationshipTests.uuid
        let roadTrip = ObjectID(storeIdentifier: uuid, entity: "Playlist", primaryKey: 1)
        let scope = RelationshipScope(source: roadTrip, relationship: "songs", isOrdered: true)
        func keys(_ query: RecordQuery) async throws -> [Int64] { try await store.page(query).records.map(\.id.primaryKey) }

        #expect(try await keys(RecordQuery(entity: "Song", scope: scope)) == [4, 1, 3])
        #expect(try await keys(RecordQuery(entity: "Song", scope: scope, tieBreak: .descending)) == [3, 1, 4])
        #expect(try await keys(RecordQuery(entity: "Song", scope: scope, sortKeys: [SortKey(attribute: "title", order: .ascending)])) == [1, 3, 4])
        #expect(try await keys(RecordQuery(entity: "Song", scope: scope, limit: 1, offset: 1)) == [1])
        let searched = RecordQuery(entity: "Song", filter: RecordFilter.contains("title", "ha"), scope: scope)
        let page = try await store.page(searched)
        #expect(page.total == 2 && page.records.map(\.id.primaryKey) == [1, 3])

        func song(_ key: Int64) -> ObjectID { ObjectID(storeIdentifier: uuid, entity: "Song", primaryKey: key) }
        #expect(try await store.position(of: song(3), in: RecordQuery(entity: "Song", scope: scope)) == 2)
        #expect(try await store.position(of: song(3), in: RecordQuery(entity: "Song", scope: scope, tieBreak: .descending)) == 0)
        // Bravo is not on the road trip; Alpha is not in the search's results of the quiet list.
        #expect(try await store.position(of: song(2), in: RecordQuery(entity: "Song", scope: scope)) == nil)
        #expect(try await store.position(of: song(2), in: RecordQuery(entity: "Song")) == 1)
        // An ID of another store is in no list.
        #expect(try await store.position(of: ObjectID(storeIdentifier: "other", entity: "Song", primaryKey: 1), in: RecordQuery(entity: "Song")) == nil)
    }

    @Test func positionsWithNullsFirstAscendingAndLastDescending() async throws {
        let synthetic = try SyntheticRelationshipTests.makeInheritanceStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        // Media's `title` is null for the plain media (p1) and the films (their title is ZTITLE1).
        for order in [SortOrder.ascending, .descending] {
            let query = RecordQuery(entity: "Media", sortKeys: [SortKey(attribute: "name", order: order)], tieBreak: order)
            let list = try await store.page(query).records
            for (index, record) in list.enumerated() {
                #expect(try await store.position(of: record.id, in: query) == index)
            }
            let byTitle = RecordQuery(entity: "Book", sortKeys: [SortKey(attribute: "title", order: order)], tieBreak: order)
            let books = try await store.page(byTitle).records
            for (index, record) in books.enumerated() {
                #expect(try await store.position(of: record.id, in: byTitle) == index)
            }
        }
        // A Film is not in the list of Books.
        let film = ObjectID(storeIdentifier: SyntheticRelationshipTests.uuid, entity: "Film", primaryKey: 3)
        #expect(try await store.position(of: film, in: RecordQuery(entity: "Book")) == nil)
        #expect(try await store.position(of: film, in: RecordQuery(entity: "Media")) == 2)
    }
}
