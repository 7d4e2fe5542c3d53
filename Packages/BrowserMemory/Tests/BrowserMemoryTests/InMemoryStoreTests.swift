import BrowserCore
import BrowserMemory
import Foundation
import Testing

/// The in-memory store's semantics, which every adapter shares (see `BrowserStore`).
struct InMemoryStoreTests {
    static let schema = StoreSchema(entities: [
        EntitySchema(name: "Car", attributes: [AttributeSchema(name: "model", type: .string), AttributeSchema(name: "year", type: .integer16)],
                     relationships: [RelationshipSchema(name: "owner", destination: "Person", isToMany: false, inverse: "cars")]),
        EntitySchema(name: "SportCar", parent: "Car", attributes: [AttributeSchema(name: "model", type: .string), AttributeSchema(name: "year", type: .integer16)],
                     relationships: [RelationshipSchema(name: "owner", destination: "Person", isToMany: false, inverse: "cars")]),
        EntitySchema(name: "Person", attributes: [AttributeSchema(name: "name", type: .string)],
                     relationships: [
                        RelationshipSchema(name: "cars", destination: "Car", isToMany: true, inverse: "owner"),
                        RelationshipSchema(name: "favourites", destination: "Car", isToMany: true, isOrdered: true),
                     ]),
    ])

    func makeStore() async throws -> (InMemoryStore, [ObjectID]) {
        let store = InMemoryStore(schema: Self.schema, storeIdentifier: "S")
        var ids: [ObjectID] = []
        for (model, year) in [("Zeta", 2001), ("alpha", 1999), ("Café Racer", 2010), ("Beta", 1999)] {
            ids.append(try await store.insert("Car", ["model": .string(model), "year": .integer(Int64(year))]))
        }
        ids.append(try await store.insert("SportCar", ["model": .string("CAFE GT"), "year": .null]))
        return (store, ids)
    }

    @Test func primaryKeysAreNumberedPerRootAndSubEntitiesCountUnderTheirParent() async throws {
        let (store, ids) = try await makeStore()
        #expect(ids.map(\.primaryKey) == [1, 2, 3, 4, 5])
        #expect(ids[4].uri == "x-coredata://S/SportCar/p5")
        #expect(try await store.count(of: "Car") == 5)
        #expect(try await store.count(of: "SportCar") == 1)
        let person = try await store.insert("Person", ["name": .string("P")])
        #expect(person.primaryKey == 1)
    }

    @Test func sortPutsNullsFirstComparesStringsByBytesAndBreaksTiesByKey() async throws {
        let (store, _) = try await makeStore()
        let byYear = try await store.page(RecordQuery(entity: "Car", sortKeys: [SortKey(attribute: "year", order: .ascending)]))
        #expect(byYear.records.map(\.id.primaryKey) == [5, 2, 4, 1, 3])
        let byYearDesc = try await store.page(RecordQuery(entity: "Car", sortKeys: [SortKey(attribute: "year", order: .descending)], tieBreak: .descending))
        #expect(byYearDesc.records.map(\.id.primaryKey) == [3, 1, 4, 2, 5])
        let byModel = try await store.page(RecordQuery(entity: "Car", sortKeys: [SortKey(attribute: "model", order: .ascending)]))
        #expect(byModel.records.compactMap { $0.values["model"]?.searchableText } == ["Beta", "CAFE GT", "Café Racer", "Zeta", "alpha"])
    }

    @Test func pagesAreDisjointAndTotalCountsEveryMatch() async throws {
        let (store, _) = try await makeStore()
        let first = try await store.page(RecordQuery(entity: "Car", limit: 2, offset: 0))
        let second = try await store.page(RecordQuery(entity: "Car", limit: 2, offset: 2))
        let third = try await store.page(RecordQuery(entity: "Car", limit: 2, offset: 4))
        #expect(first.total == 5 && second.total == 5 && third.total == 5)
        #expect((first.records + second.records + third.records).map(\.id.primaryKey) == [1, 2, 3, 4, 5])
        #expect(try await store.page(RecordQuery(entity: "Car", limit: 2, offset: 10)).records.isEmpty)
    }

    @Test func searchIgnoresCaseAndDiacritics() async throws {
        let (store, _) = try await makeStore()
        let filter = RecordFilter.contains("model", "cafe")
        let page = try await store.page(RecordQuery(entity: "Car", filter: filter))
        #expect(page.total == 2)
        #expect(page.records.map(\.id.primaryKey) == [3, 5])
        let none = try await store.page(RecordQuery(entity: "Car", filter: .any([])))
        #expect(none.total == 0)
    }

    @Test func relationshipsKeepTheirInverseAndOrderedOnesKeepTheirOrder() async throws {
        let (store, cars) = try await makeStore()
        let person = try await store.insert("Person", ["name": .string("Owner")])
        try await store.relate(cars[2], "owner", person)
        try await store.relate(cars[0], "owner", person)
        try await store.relate(person, "favourites", cars[3])
        try await store.relate(person, "favourites", cars[0])
        let owned = try await store.related(from: person, through: "cars", limit: 20)
        #expect(owned.total == 2)
        #expect(owned.records.map(\.id.primaryKey) == [1, 3])
        let favourites = try await store.related(from: person, through: "favourites", limit: 1)
        #expect(favourites.total == 2)
        #expect(favourites.records.map(\.id.primaryKey) == [4])
        // Moving a car to a new owner removes it from the old owner's to-many.
        let other = try await store.insert("Person", ["name": .string("Other")])
        try await store.relate(cars[0], "owner", other)
        #expect(try await store.related(from: person, through: "cars", limit: 20).records.map(\.id.primaryKey) == [3])
        #expect(try await store.related(from: cars[0], through: "owner", limit: 20).records.map(\.id) == [other])
    }

    @Test func recordsOfAnotherStoreOrEntityAreNotFound() async throws {
        let (store, ids) = try await makeStore()
        #expect(try await store.record(ids[0])?.values["model"] == .string("Zeta"))
        #expect(try await store.record(ObjectID(storeIdentifier: "OTHER", entity: "Car", primaryKey: 1)) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: "S", entity: "SportCar", primaryKey: 1)) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: "S", entity: "Car", primaryKey: 99)) == nil)
    }

    @Test func insertRefusesWhatTheModelDoesNotHave() async throws {
        let store = InMemoryStore(schema: Self.schema)
        await #expect(throws: BrowserError.badRequest("Car has no attribute \"colour\"")) {
            try await store.insert("Car", ["colour": .string("red")])
        }
        await #expect(throws: BrowserError.badRequest("No entity named \"Boat\"")) {
            try await store.insert("Boat")
        }
    }

    @Test func demoLibraryHasThePlannedShape() async throws {
        let store = try await DemoLibrary.makeStore()
        #expect(try await store.count(of: "Author") == 3)
        #expect(try await store.count(of: "Tag") == 5)
        #expect(try await store.count(of: "AudioBook") == 2)
        #expect(try await store.count(of: "Book") == 12 + 2 + DemoLibrary.generatedBookCount)
    }
}
