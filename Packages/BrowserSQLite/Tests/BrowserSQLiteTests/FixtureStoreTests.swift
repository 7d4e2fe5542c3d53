import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct FixtureStoreTests {
    @Test("every fixture opens with no configuration and has SOURCES.md's counts", arguments: FixtureStore.all)
    func opensWithZeroConfiguration(fixture: FixtureStore) async throws {
        let opened = try OpenedFixture(fixture.path)
        let description = try await opened.store.describe()
        #expect(description.summary == opened.store.url.standardizedFileURL.path)
        #expect(description.model?.source == fixture.zeroConfigSource)
        #expect(description.capabilities == .readOnly)
        #expect(try await opened.store.counts() == fixture.counts)
        // The store's own model explains every column of its tables.
        if fixture.zeroConfigSource == .storeCache {
            #expect(opened.store.mapping.report == MappingReport())
        }
    }

    @Test("every fixture opens with each model shipped with it, picking the matching version", arguments: FixtureStore.withModels)
    func opensWithItsModel(modelCase: ModelCase) async throws {
        let opened = try OpenedFixture(modelCase.store.path, model: modelCase.model)
        let origin = try #require(try await opened.store.describe().model)
        #expect(origin.source == .file)
        #expect(origin.name == modelCase.version)
        #expect(try await opened.store.counts() == modelCase.store.counts)
        #expect(!opened.store.mapping.report.hasProblems)
    }

    @Test("the named model gives the same schema as the store's cache", arguments: FixtureStore.withModels.filter {
        $0.store.zeroConfigSource == .storeCache
    })
    func namedModelAgreesWithCache(modelCase: ModelCase) async throws {
        let cached = try OpenedFixture(modelCase.store.path)
        let named = try OpenedFixture(modelCase.store.path, model: modelCase.model)
        let cachedSchema = try await cached.store.schema()
        let namedSchema = try await named.store.schema()
        #expect(Set(cachedSchema.entities.map(\.name)) == Set(namedSchema.entities.map(\.name)))
        for entity in cachedSchema.entities {
            let other = try #require(namedSchema.entity(named: entity.name))
            #expect(Set(entity.attributes.map(\.name)) == Set(other.attributes.map(\.name)), "\(entity.name)")
            #expect(Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0.type) })
                    == Dictionary(uniqueKeysWithValues: other.attributes.map { ($0.name, $0.type) }), "\(entity.name)")
            #expect(Set(entity.relationships) == Set(other.relationships), "\(entity.name)")
            #expect(entity.parent == other.parent && entity.isAbstract == other.isAbstract)
        }
        // The same rows with the same values.
        for entity in cachedSchema.browsableEntities {
            let first = try await cached.store.page(RecordQuery(entity: entity.name, limit: 20)).records
            let second = try await named.store.page(RecordQuery(entity: entity.name, limit: 20)).records
            #expect(first == second, "\(entity.name)")
        }
    }

    @Test("IDs of page rows round-trip through record(_:)", arguments: FixtureStore.all)
    func idsRoundTrip(fixture: FixtureStore) async throws {
        let opened = try OpenedFixture(fixture.path)
        for entity in try await opened.store.schema().browsableEntities {
            for row in try await opened.store.page(RecordQuery(entity: entity.name, limit: 5)).records {
                let fetched = try await opened.store.record(row.id)
                #expect(fetched == row)
                #expect(try await opened.store.record(ObjectID(uri: row.id.uri)) == row)
            }
        }
    }

    @Test("relationships resolve in both directions", arguments: FixtureStore.all)
    func relationshipsResolveBothWays(fixture: FixtureStore) async throws {
        let opened = try OpenedFixture(fixture.path)
        let schema = try await opened.store.schema()
        for entity in schema.browsableEntities {
            for row in try await opened.store.page(RecordQuery(entity: entity.name, limit: 3)).records {
                for relationship in entity.relationships {
                    let related = try await opened.store.related(from: row.id, through: relationship.name, limit: 5)
                    #expect(relationship.isToMany || related.total <= 1)
                    #expect(related.records.count == min(related.total, 5))
                    for target in related.records {
                        #expect(schema.subtree(of: relationship.destination).contains(target.entity))
                        // The same record, its text cut as related items carry it (`ValuePreview.summaryBytes`).
                        let whole = try #require(try await opened.store.record(target.id))
                        #expect(StoredRecord(id: whole.id, values: ValuePreview.cut(whole.values, toBytes: ValuePreview.summaryBytes)) == target)
                        guard let inverse = relationship.inverse else { continue }
                        let back = try await opened.store.related(from: target.id, through: inverse, limit: 500)
                        #expect(back.records.contains { $0.id == row.id }, "\(entity.name).\(relationship.name) ↔ \(inverse)")
                    }
                }
            }
        }
    }

    @Test func sortingAndPagingCoverEveryRowOnce() async throws {
        let opened = try OpenedFixture("wibosco-migration/CoreDataMigration_Example_3.sqlite")
        for order in [SortOrder.ascending, .descending] {
            var seen: [Int64] = []
            var previous: String?
            var offset = 0
            while true {
                let query = RecordQuery(entity: "Color", sortKeys: [SortKey(attribute: "hex", order: order)], tieBreak: order,
                                        limit: 500, offset: offset)
                let page = try await opened.store.page(query)
                #expect(page.total == 7995)
                guard !page.records.isEmpty else { break }
                for record in page.records {
                    guard case .string(let hex) = record.values["hex"] else { Issue.record("hex missing"); continue }
                    if let previous {
                        #expect(order == .ascending ? Array(previous.utf8).lexicographicallyPrecedes(Array(hex.utf8)) || previous == hex
                                                    : Array(hex.utf8).lexicographicallyPrecedes(Array(previous.utf8)) || previous == hex)
                    }
                    previous = hex
                    seen.append(record.id.primaryKey)
                }
                offset += page.records.count
            }
            #expect(seen.count == 7995)
            #expect(Set(seen).count == 7995)
        }
    }

    @Test func primaryKeyOrderWithoutSort() async throws {
        let opened = try OpenedFixture("wibosco-revised/CoreDataMigration_Example_3.sqlite")
        let ascending = try await opened.store.page(RecordQuery(entity: "Section")).records.map(\.id.primaryKey)
        let descending = try await opened.store.page(RecordQuery(entity: "Section", tieBreak: .descending)).records.map(\.id.primaryKey)
        #expect(ascending == ascending.sorted())
        #expect(descending == ascending.reversed())
        #expect(ascending.count == 14)
    }
}
