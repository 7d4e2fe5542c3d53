import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Writes to copies of real Core Data stores (never the fixtures themselves), each confirmed by the store's own
/// reader and by the independent checker against the copy as it was before.
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct StoreWriteFixtureTests {
    let scratch = TemporaryDirectory()

    func open(_ relative: String, model: String) throws -> (SQLiteStore, URL) {
        let url = try scratch.copyStore(relative)
        return (try SQLiteStore.open(storeAt: url, model: Fixtures.url(model), writes: StoreWriteOptions()), url)
    }

    func checked(_ url: URL, model: String, _ write: () async throws -> Void) async throws {
        let before = try WriteCheck.snapshot(url, into: scratch)
        try await write()
        let outcome = try await WriteCheck.run(model: Fixtures.url(model), before: before, store: url)
        #expect(outcome.passed, "\(outcome.output)")
    }

    /// wibosco-revised v3: Post.sections (Cascade) ←→ Section.post (Nullify), a rollback-journal store.
    @Test func movingASectionAndDeletingAPostWithItsSections() async throws {
        let model = "wibosco-revised/CoreDataMigration_Example.xcdatamodeld/CoreDataMigration_Example 3.xcdatamodel/contents"
        let (store, url) = try open("wibosco-revised/CoreDataMigration_Example_3.sqlite",
                                    model: "wibosco-revised/CoreDataMigration_Example.xcdatamodeld")
        #expect(try await store.describe().writeRefusal == nil)
        let uuid = store.storeIdentifier
        // Post.sections is required (not optional in the model): the section moves from a post that has another.
        let posts = try await store.page(RecordQuery(entity: "Post", limit: 50)).records.map(\.id)
        var owner: ObjectID?
        for post in posts where try await store.related(from: post, through: "sections", limit: 50).total >= 2 {
            owner = post
            break
        }
        let source = try #require(owner)
        let section = try #require(try await store.related(from: source, through: "sections", limit: 1).records.first)
        let other = try #require(posts.first { $0 != source })
        let version = try #require(try await store.record(section.id)?.version)
        try await checked(url, model: model) {
            try await store.update(section.id, expecting: version, RecordChanges(
                attributes: ["title": .string("Moved")], relationships: ["post": .toOne(other)]))
        }
        #expect(try await store.related(from: other, through: "sections", limit: 50).records.map(\.id).contains(section.id))

        let sections = try await store.related(from: other, through: "sections", limit: 50).total
        let preview = try await store.deletionEffects(of: other)
        #expect(preview.cascades == [EntityCount(entity: "Section", count: sections)])
        let otherVersion = try #require(try await store.record(other)?.version)
        try await checked(url, model: model) {
            _ = try await store.delete(other, expecting: otherVersion)
        }
        #expect(try await store.record(section.id) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: uuid, entity: "Post", primaryKey: other.primaryKey)) == nil)
    }

    /// Post.sections is required: deleting a post's only section (Section.post is Nullify) would leave it empty,
    /// which Core Data's validation refuses; so is the delete, naming the relationship, and nothing is written.
    @Test func deletingTheOnlySectionOfAPostIsBlockedByItsRequiredSections() async throws {
        let model = "wibosco-revised/CoreDataMigration_Example.xcdatamodeld/CoreDataMigration_Example 3.xcdatamodel/contents"
        let (store, url) = try open("wibosco-revised/CoreDataMigration_Example_3.sqlite",
                                    model: "wibosco-revised/CoreDataMigration_Example.xcdatamodeld")
        var only: ObjectID?
        for post in try await store.page(RecordQuery(entity: "Post", limit: 50)).records.map(\.id) {
            let sections = try await store.related(from: post, through: "sections", limit: 2)
            if sections.total == 1 { only = sections.records[0].id; break }
        }
        let section = try #require(only)
        let preview = try await store.deletionEffects(of: section)
        #expect(preview.blockedBy == [RelationshipEffect(entity: "Post", relationship: "sections", count: 1)])
        let version = try #require(try await store.record(section)?.version)
        try await checked(url, model: model) {
            var caught: BrowserError?
            do { _ = try await store.delete(section, expecting: version) } catch let error as BrowserError { caught = error }
            #expect(caught?.details == .blockedBy(preview.blockedBy))
        }
        #expect(try await store.record(section) != nil)
    }

    /// CoreDataPlus SampleModel v1: Car ← SportCar ← ExpensiveSportCar in one table, Person.cars ←→ Car.owner, a
    /// uniqueness constraint on Car.numberPlate; a WAL store.
    @Test func insertingASubEntityRecordWithAnOwnerAndRefusingADuplicatePlate() async throws {
        let model = "coredataplus/SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel/contents"
        let (store, url) = try open("coredataplus/SampleModel/SampleModel_V1.sqlite", model: "coredataplus/SampleModel/SampleModel.xcdatamodeld")
        #expect(try await store.describe().writeRefusal == nil)
        let person = try #require(try await store.page(RecordQuery(entity: "Person", limit: 1)).records.first?.id)
        let carsBefore = try await store.related(from: person, through: "cars", limit: 500).total
        var created: ObjectID?
        try await checked(url, model: model) {
            created = try await store.insert(into: "ExpensiveSportCar", RecordChanges(
                attributes: ["numberPlate": .string("CDB-0018"), "maker": .string("Test"), "isLimitedEdition": .boolean(true)],
                relationships: ["owner": .toOne(person)]))
        }
        let car = try #require(created)
        #expect(try await store.record(car)?.values["isLimitedEdition"] == .boolean(true))
        #expect(try await store.related(from: person, through: "cars", limit: 500).total == carsBefore + 1)
        #expect(try await store.count(of: "ExpensiveSportCar") == 6)

        var caught: BrowserError?
        do {
            _ = try await store.insert(into: "Car", RecordChanges(attributes: ["numberPlate": .string("CDB-0018")]))
        } catch let error as BrowserError {
            caught = error
        }
        #expect(caught?.kind == .conflict, "\(String(describing: caught))")
    }

    /// CartKit (Core Data, 2026; the model from the store's cache): CDCartItem.modifiers is a to-many without inverse
    /// (`ZCDCARTITEMMODIFIER.Z2MODIFIERS` on the modifiers' rows), CDCartItemModifier.item a to-one without inverse.
    @Test func relationshipsWithoutInverseAndACascadeThroughThem() async throws {
        let model = "cartkit/coredata/CartStorage.xcdatamodeld/CartStorage.xcdatamodel/contents"
        let url = try scratch.copyStore("cartkit/coredata/CartStorage_v1.sqlite")
        let store = try SQLiteStore.open(storeAt: url, writes: StoreWriteOptions())
        #expect(store.modelOrigin.source == .storeCache)
        #expect(try await store.describe().writeRefusal == nil)
        let item = try #require(try await store.page(RecordQuery(entity: "CDCartItem", limit: 1)).records.first?.id)
        let cart = try #require(try await store.page(RecordQuery(entity: "CDCart", limit: 1)).records.first?.id)
        var modifier: ObjectID?
        try await checked(url, model: model) {
            modifier = try await store.insert(into: "CDCartItemModifier", RecordChanges(
                attributes: ["id": .string("m1"), "name": .string("Extra shot"), "priceDeltaAmount": .decimal(Decimal(string: "0.5")!),
                             "priceDeltaCurrencyCode": .string("EUR")],
                relationships: ["item": .toOne(item)]))
        }
        let created = try #require(modifier)
        let version = try #require(try await store.record(item)?.version)
        try await checked(url, model: model) {
            try await store.update(item, expecting: version, RecordChanges(relationships: ["modifiers": .toMany([created])]))
        }
        #expect(try await store.related(from: item, through: "modifiers", limit: 5).records.map(\.id) == [created])
        // The item holds no key of its own: its new version comes from its changed relationship contents.
        #expect(try await store.record(item)?.version == version + 1)

        let preview = try await store.deletionEffects(of: item)
        #expect(preview.cascades == [EntityCount(entity: "CDCartItemModifier", count: 1)])
        #expect(preview.clears == [RelationshipEffect(entity: "CDCart", relationship: "items", count: 1)])
        try await checked(url, model: model) {
            _ = try await store.delete(item, expecting: version + 1)
        }
        #expect(try await store.record(created) == nil)
        #expect(try await store.related(from: cart, through: "items", limit: 5).total == 0)
    }

    /// A compiled model whose version hashes are not the store's is another version of the model (its delete rules
    /// may not be the app's): read with it, but not written. The store's recorded hash for Person is changed here.
    @Test func aCompiledModelOfAnotherVersionIsNotWritten() async throws {
        let url = try scratch.copyStore("coredataplus/SampleModel/SampleModel_V1.sqlite")
        let database = try RawDatabase(path: url.path)
        let plist = try #require(try database.rows("SELECT Z_PLIST FROM Z_METADATA")[0][0] as? [UInt8])
        var metadata = try #require(try PropertyListSerialization.propertyList(from: Data(plist), format: nil) as? [String: Any])
        var hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data])
        hashes["Person"] = Data(repeating: 7, count: 32)
        metadata["NSStoreModelVersionHashes"] = hashes
        let changed = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
        try database.run("UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(Array(changed))])
        let store = try SQLiteStore.open(storeAt: url, model: Fixtures.url("coredataplus/SampleModel/SampleModel.momd"), writes: StoreWriteOptions())
        #expect(try await store.describe().capabilities == .readOnly)
        #expect(store.writeRefusal?.contains("Person's version hash differs") == true, "\(store.writeRefusal ?? "written")")
    }

    /// CoreDataPlus SampleModel2 keeps persistent history and has derived-attribute triggers: not written.
    @Test func aStoreWithHistoryAndTriggersIsRefused() async throws {
        let url = try scratch.copyStore("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        let store = try SQLiteStore.open(storeAt: url, writes: StoreWriteOptions())
        #expect(try await store.describe().capabilities == .readOnly)
        #expect(store.writeRefusal?.contains("persistent history") == true)
    }
}
