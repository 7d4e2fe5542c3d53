import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Core Data semantics checked on the real stores: known values, inheritance, renamed entities, every kind of
/// relationship storage, IDs.
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct FixtureSemanticsTests {
    static let sampleModelUUID = "753753D3-A961-4901-AB05-8CC48B1D3853"

    @Test func knownValuesOfSampleModel() async throws {
        let opened = try OpenedFixture("coredataplus/SampleModel/SampleModel_V1.sqlite")
        let person = try #require(try await opened.store.record(ObjectID(storeIdentifier: Self.sampleModelUUID, entity: "Person", primaryKey: 1)))
        #expect(person.values["firstName"] == .string("Victoria"))
        #expect(person.values["lastName"] == .string("Coster"))
        #expect(person.values["id"] == .uuid(UUID(uuidString: "FEFE4176-912D-429F-9C83-662FFF641115")!))
        #expect(person.values["updatedAt"] == .date(Date(timeIntervalSinceReferenceDate: 639503569.638733)))
        #expect(ISO8601Timestamp.string(from: try #require(person.values["updatedAt"].flatMap { if case .date(let d) = $0 { d } else { nil } }))
                == "2021-04-07T15:52:49.639Z")

        let schema = try await opened.store.schema()
        // Transient attributes have no column and are not listed.
        #expect(schema.entity(named: "Car")?.attribute(named: "currentDrivingSpeed") == nil)
        #expect(schema.entity(named: "Person")?.attribute(named: "isDriving") == nil)
        #expect(schema.entity(named: "Car")?.attribute(named: "color")?.type == .transformable)
        #expect(schema.entity(named: "Car")?.attribute(named: "numberPlate")?.isOptional == false)
        // Three-level inheritance in one table; sub-entities inherit attributes and relationships.
        #expect(schema.entity(named: "ExpensiveSportCar")?.parent == "SportCar")
        #expect(schema.entity(named: "SportCar")?.parent == "Car")
        #expect(schema.entity(named: "ExpensiveSportCar")?.attribute(named: "maker") != nil)
        #expect(schema.entity(named: "ExpensiveSportCar")?.relationship(named: "owner")?.inverse == "cars")

        // A fetch of Car includes sub-entity rows, each with its concrete entity and its own attributes.
        let cars = try await opened.store.allRecords("Car")
        #expect(cars.count == 125)
        #expect(Dictionary(grouping: cars, by: \.entity).mapValues(\.count) == ["Car": 115, "SportCar": 5, "ExpensiveSportCar": 5])
        let expensive = try #require(cars.first { $0.entity == "ExpensiveSportCar" })
        #expect(expensive.values["isLimitedEdition"] != nil)
        #expect(cars.first { $0.entity == "Car" }?.values["isLimitedEdition"] == nil)
    }

    @Test func recordReturnsNilForForeignUnknownOrMismatchedIDs() async throws {
        let opened = try OpenedFixture("coredataplus/SampleModel/SampleModel_V1.sqlite")
        let store = opened.store
        // Car p14 is an ExpensiveSportCar.
        #expect(try await store.record(ObjectID(storeIdentifier: Self.sampleModelUUID, entity: "ExpensiveSportCar", primaryKey: 14)) != nil)
        #expect(try await store.record(ObjectID(storeIdentifier: Self.sampleModelUUID, entity: "Car", primaryKey: 14)) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: Self.sampleModelUUID, entity: "SportCar", primaryKey: 14)) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: "00000000-0000-0000-0000-000000000000", entity: "Car", primaryKey: 1)) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: Self.sampleModelUUID, entity: "Spaceship", primaryKey: 1)) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: Self.sampleModelUUID, entity: "Car", primaryKey: 999_999)) == nil)
        #expect(try await store.record(ObjectID(storeIdentifier: Self.sampleModelUUID, entity: "Car", primaryKey: 1)) != nil)
    }

    @Test("renamed entity: Z_PRIMARYKEY still says ExpensiveSportCar, the model says LuxuryCar",
          arguments: [nil, "coredataplus/SampleModel/SampleModel.momd", "coredataplus/SampleModel/SampleModel.xcdatamodeld"])
    func renamedEntity(model: String?) async throws {
        let opened = try OpenedFixture("coredataplus/SampleModel/SampleModel_V2.sqlite", model: model)
        let schema = try await opened.store.schema()
        #expect(schema.entity(named: "ExpensiveSportCar") == nil)
        #expect(schema.entity(named: "LuxuryCar")?.parent == "SportCar")
        #expect(opened.store.mapping.entities["LuxuryCar"]?.number == 3)
        let luxury = try await opened.store.allRecords("LuxuryCar")
        #expect(luxury.count == 5)
        #expect(luxury.allSatisfy { $0.entity == "LuxuryCar" && $0.id.uri.contains("/LuxuryCar/p") })
        let id = try #require(luxury.first?.id)
        #expect(try await opened.store.record(id) == luxury.first)
        #expect(try await opened.store.record(ObjectID(storeIdentifier: id.storeIdentifier, entity: "ExpensiveSportCar", primaryKey: id.primaryKey)) == nil)
    }

    @Test func abstractEntitiesDerivedAttributesAndHistoryTables() async throws {
        let opened = try OpenedFixture("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        let schema = try await opened.store.schema()
        #expect(schema.entity(named: "Writer")?.isAbstract == true)
        // Listed (Core Data fetches an abstract entity as its sub-entities' records), and its list holds Authors.
        #expect(schema.browsableEntities.contains { $0.name == "Writer" })
        let writers = try await opened.store.page(RecordQuery(entity: "Writer"))
        #expect(writers.total == 2 && writers.records.allSatisfy { $0.entity == "Author" })
        #expect(schema.entity(named: "Author")?.parent == "Writer")
        #expect(try await opened.store.count(of: "Writer") == 2)
        // Persistent-history pseudo-entities (16001…) are not entities.
        #expect(Set(schema.entities.map(\.name)) == ["Book", "GraphicNovel", "Feedback", "Page", "Writer", "Author"])
        // Fetched properties are not listed; the derived attribute is an ordinary column.
        #expect(schema.entity(named: "Author")?.attribute(named: "feedbacks") == nil)
        #expect(schema.entity(named: "Author")?.relationship(named: "feedbacks") == nil)
        #expect(schema.entity(named: "Book")?.attribute(named: "pagesCount")?.type == .integer64)

        let uuid = "C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A"
        let book = try #require(try await opened.store.record(ObjectID(storeIdentifier: uuid, entity: "Book", primaryKey: 1)))
        #expect(book.values["title"] == .string("title 2 - author 2"))
        #expect(book.values["price"] == .decimal(Decimal(string: "10.11")!))
        #expect(book.values["cover"] == .binary(byteCount: 277))
        #expect(book.values["uniqueID"] == .uuid(UUID(uuidString: "C4637490-BD7F-4428-B093-63A1720E17D2")!))
        #expect(book.values["pagesCount"] == .integer(99))
        let novel = try #require(try await opened.store.record(ObjectID(storeIdentifier: uuid, entity: "GraphicNovel", primaryKey: 11)))
        #expect(novel.values["price"] == .decimal(Decimal(string: "3.3333333333")!))
        #expect(novel.values["isBlackAndWhite"] == .boolean(true))
        let feedback = try await opened.store.page(RecordQuery(entity: "Feedback", limit: 1)).records[0]
        #expect(feedback.values["rating"] == .double(5.8))
        let author = try #require(try await opened.store.record(ObjectID(storeIdentifier: uuid, entity: "Author", primaryKey: 1)))
        #expect(author.values["age"] == .integer(30))
        #expect(author.values["siteURL"] == .null)
    }

    @Test func toOneIntoAnEntityWithSubEntitiesUsesTheEntityColumn() async throws {
        let opened = try OpenedFixture("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        let page = try #require(opened.store.mapping.entities["Page"]?.relationships["book"])
        #expect(page.storage == .foreignKey(column: "ZBOOK", entityColumn: "Z1_BOOK"))
        let uuid = "C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A"
        // ZPAGE row 1: ZBOOK 34, Z1_BOOK 1 (a Book).
        let book = try await opened.store.related(from: ObjectID(storeIdentifier: uuid, entity: "Page", primaryKey: 1), through: "book", limit: 20)
        #expect(book.total == 1)
        #expect(book.records.map(\.id.uri) == ["x-coredata://\(uuid)/Book/p34"])
        // The graphic novel's pages point at it with Z1_BOOK = 2.
        let pages = try await opened.store.related(from: ObjectID(storeIdentifier: uuid, entity: "GraphicNovel", primaryKey: 11), through: "pages", limit: 20)
        #expect(pages.total == 19)
        for pageRecord in pages.records {
            let back = try await opened.store.related(from: pageRecord.id, through: "book", limit: 1)
            #expect(back.records.map(\.id.uri) == ["x-coredata://\(uuid)/GraphicNovel/p11"])
        }
    }

    @Test func oneToOneHasAForeignKeyOnBothSides() async throws {
        let opened = try OpenedFixture("wibosco-migration/CoreDataMigration_Example_3.sqlite")
        #expect(opened.store.mapping.entities["Post"]?.relationships["color"]?.storage == .foreignKey(column: "ZCOLOR", entityColumn: nil))
        #expect(opened.store.mapping.entities["Color"]?.relationships["post"]?.storage == .foreignKey(column: "ZPOST", entityColumn: nil))
        let schema = try await opened.store.schema()
        #expect(schema.entity(named: "Post")?.relationship(named: "color") == RelationshipSchema(name: "color", destination: "Color", isToMany: false, inverse: "post", deleteRule: .nullify))
        #expect(schema.entity(named: "Color")?.relationship(named: "post") == RelationshipSchema(name: "post", destination: "Post", isToMany: false, inverse: "color", deleteRule: .nullify))
        for post in try await opened.store.page(RecordQuery(entity: "Post", limit: 50)).records {
            let color = try await opened.store.related(from: post.id, through: "color", limit: 5)
            #expect(color.total == 1)
            let back = try await opened.store.related(from: color.records[0].id, through: "post", limit: 5)
            #expect(back.records.map(\.id) == [post.id])
        }
    }

    @Test func oneToManyIsTheInverseForeignKey() async throws {
        let opened = try OpenedFixture("wibosco-revised/CoreDataMigration_Example_3.sqlite")
        #expect(opened.store.mapping.entities["Post"]?.relationships["sections"]?.storage == .targetsReferToSource(column: "ZPOST", orderColumn: nil))
        let schema = try await opened.store.schema()
        #expect(schema.entity(named: "Section")?.attribute(named: "index")?.type == .integer16)
        var total = 0
        for post in try await opened.store.allRecords("Post") {
            total += try await opened.store.related(from: post.id, through: "sections", limit: 20).total
        }
        #expect(total == 14)
    }

    @Test func manyToManyJoinTable() async throws {
        let opened = try OpenedFixture("bnr-coredatastack/TestModel.sqlite")
        #expect(opened.store.mapping.entities["Author"]?.relationships["books"]?.storage
                == .joinTable(table: "Z_1BOOKS", sourceColumn: "Z_1AUTHORS", targetColumn: "Z_2BOOKS", orderColumn: nil, reflexive: false))
        #expect(opened.store.mapping.entities["Book"]?.relationships["authors"]?.storage
                == .joinTable(table: "Z_1BOOKS", sourceColumn: "Z_2BOOKS", targetColumn: "Z_1AUTHORS", orderColumn: nil, reflexive: false))
        let schema = try await opened.store.schema()
        #expect(schema.entity(named: "Author")?.relationship(named: "books") == RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "authors", deleteRule: .nullify))
    }

    @Test func toManyWithoutInverseAndToOneWithoutInverse() async throws {
        let opened = try OpenedFixture("cartkit/coredata/CartStorage_v1.sqlite")
        #expect(opened.store.mapping.entities["CDCartItem"]?.relationships["modifiers"]?.storage == .targetsReferToSource(column: "Z2MODIFIERS", orderColumn: nil))
        #expect(opened.store.mapping.entities["CDCartItemModifier"]?.relationships["item"]?.storage == .foreignKey(column: "ZITEM", entityColumn: nil))
        let schema = try await opened.store.schema()
        #expect(schema.entity(named: "CDCartItem")?.relationship(named: "modifiers") == RelationshipSchema(name: "modifiers", destination: "CDCartItemModifier", isToMany: true, deleteRule: .cascade))
        let item = try await opened.store.allRecords("CDCartItem")[0]
        #expect(item.values["totalPriceAmount"] == .decimal(10))
        #expect(item.values["unitPriceAmount"] == .decimal(5))
        #expect(item.values["quantity"] == .integer(2))
        #expect(try await opened.store.related(from: item.id, through: "modifiers", limit: 20).total == 0)
        #expect(try await opened.store.related(from: item.id, through: "cart", limit: 20).total == 1)

        let swiftData = try OpenedFixture("cartkit/swiftdata/CartKitSwiftData_v1.sqlite")
        #expect(swiftData.store.mapping.entities["CartModel"]?.relationships["items"]?.storage == .targetsReferToSource(column: "Z3ITEMS", orderColumn: nil))
        #expect(swiftData.store.mapping.entities["CartItemModel"]?.relationships["modifiers"]?.storage == .targetsReferToSource(column: "Z1MODIFIERS", orderColumn: nil))
        #expect(try await swiftData.store.schema().entity(named: "CartModel")?.attribute(named: "maxItemCount")?.type == .integer64)
    }

    @Test func restKitWithoutModelCacheIsInferred() async throws {
        let opened = try OpenedFixture("restkit-seed/RKSeedDatabase.sqlite")
        let origin = try #require(try await opened.store.describe().model)
        #expect(origin.source == .inferred)
        #expect(origin.name?.contains("guessed") == true)
        let schema = try await opened.store.schema()
        let tweet = try #require(schema.entity(named: "Tweet"))
        #expect(tweet.attribute(named: "statusid")?.type == .integer64)
        #expect(tweet.attribute(named: "createdat")?.type == .date)
        #expect(tweet.attribute(named: "text")?.type == .string)
        #expect(tweet.relationship(named: "user") == RelationshipSchema(name: "user", destination: "User", isToMany: false, inverse: "tweets"))
        #expect(schema.entity(named: "User")?.relationship(named: "tweets") == RelationshipSchema(name: "tweets", destination: "Tweet", isToMany: true, inverse: "user"))

        let first = try await opened.store.page(RecordQuery(entity: "Tweet", limit: 1)).records[0]
        #expect(first.id.primaryKey == 61)
        #expect(first.values["statusid"] == .integer(37_684_000_310_951_936))
        // Whole seconds stored as INTEGER are still dates.
        #expect(first.values["createdat"] == .date(Date(timeIntervalSinceReferenceDate: 319_512_340)))
        let user = try await opened.store.related(from: first.id, through: "user", limit: 5)
        #expect(user.records.map(\.id.primaryKey) == [7])
        #expect(try await opened.store.related(from: user.records[0].id, through: "tweets", limit: 5).total == 20)
    }

    @Test func restKitsXcode3ModelIsRefusedClearly() throws {
        let directory = TemporaryDirectory()
        let store = try directory.copyStore("restkit-seed/RKSeedDatabase.sqlite")
        let model = Fixtures.url("restkit-seed/RKTwitterCoreData.xcdatamodel")
        #expect {
            try SQLiteStore.open(storeAt: store, model: model)
        } throws: { error in
            guard let error = error as? SQLiteStoreError, case .modelUnreadable = error else { return false }
            return error.description.contains("Xcode 3") && error.description.contains(model.path)
        }
    }

    @Test("BookMigration: transformable NSURL as binary, inferred and with its model", arguments: [nil, "bookmigration/Model.xcdatamodeld"])
    func bookMigration(model: String?) async throws {
        let opened = try OpenedFixture("bookmigration/Model1.sqlite", model: model)
        let attribute = model == nil ? "fileurl" : "fileURL"
        let schema = try await opened.store.schema()
        #expect(schema.entity(named: "Book")?.attribute(named: attribute)?.type == (model == nil ? .binary : .transformable))
        let books = try await opened.store.allRecords("Book")
        #expect(books.map(\.id.primaryKey) == [9, 10, 11, 12])
        #expect(books.map { $0.values[attribute] } == [.binary(byteCount: 152), .binary(byteCount: 149), .binary(byteCount: 158), .binary(byteCount: 155)])
        #expect(books[0].values["title"] == .string("The Trial"))
        let user = try await opened.store.related(from: books[0].id, through: "user", limit: 1)
        #expect(user.records.map(\.id.primaryKey) == [3])
        #expect(try await opened.store.related(from: user.records[0].id, through: "books", limit: 10).total == 4)
    }

    @Test func walOnlyRowsAreVisible() async throws {
        let opened = try OpenedFixture("wibosco-migration/CoreDataMigration_Example_WAL.sqlite")
        #expect(try await opened.store.count(of: "Post") == 84)
        #expect(try await opened.store.count(of: "Color") == 84)
        #expect(try await opened.store.page(RecordQuery(entity: "Post", limit: 500)).records.count == 84)
        #expect(opened.store.accessDescription == "in place (read-only)")
        // The -wal was only read: it is byte-for-byte the fixture's.
        let copy = try Data(contentsOf: URL(fileURLWithPath: opened.store.url.path + "-wal"))
        #expect(copy == (try Data(contentsOf: Fixtures.url("wibosco-migration/CoreDataMigration_Example_WAL.sqlite-wal"))))
        #expect(try Data(contentsOf: opened.store.url) == (try Data(contentsOf: Fixtures.url("wibosco-migration/CoreDataMigration_Example_WAL.sqlite"))))
    }

    @Test func readOnlyFolderIsReadFromAPrivateSnapshot() async throws {
        let directory = TemporaryDirectory()
        let store = try directory.copyStore("wibosco-migration/CoreDataMigration_Example_WAL.sqlite")
        for file in [store.path, store.path + "-wal"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.url.path)
        let opened = try SQLiteStore.open(storeAt: store)
        #expect(opened.accessDescription == "private snapshot")
        #expect(try await opened.count(of: "Post") == 84)
        // Nothing was created beside the store.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                == ["CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration_Example_WAL.sqlite-wal"])
    }

    @Test func searchFoldsCaseAndDiacritics() async throws {
        let opened = try OpenedFixture("coredataplus/SampleModel/SampleModel_V1.sqlite")
        let schema = try await opened.store.schema()
        let car = try #require(schema.entity(named: "Car"))
        let query = try RecordQuery.validated(RecordQueryParameters(search: "fIa", searchAttribute: "maker"), for: car)
        let page = try await opened.store.page(query)
        #expect(page.total == 103)
        #expect(page.records.allSatisfy { $0.values["maker"] == .string("FIAT") })
        // Every String attribute, OR-ed.
        let anywhere = try RecordQuery.validated(RecordQueryParameters(search: "panda"), for: car)
        #expect(try await opened.store.page(anywhere).total > 0)
        let nothing = try RecordQuery.validated(RecordQueryParameters(search: "no such maker"), for: car)
        #expect(try await opened.store.page(nothing) == RecordPage(total: 0, records: []))
    }

    @Test func changeTokenIsStableWithoutWrites() async throws {
        let opened = try OpenedFixture("wibosco-migration/CoreDataMigration_Example_WAL.sqlite")
        let first = try await opened.store.changeToken()
        _ = try await opened.store.count(of: "Post")
        #expect(first != nil)
        #expect(try await opened.store.changeToken() == first)
    }
}
