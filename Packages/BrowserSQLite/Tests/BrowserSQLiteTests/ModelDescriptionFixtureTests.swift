import BrowserCore
import BrowserMemory
import BrowserSQLite
import Foundation
import Testing

/// `GET /api/model` (`BrowserService.model()`) on real stores, read from each source of a model: a named
/// `.xcdatamodeld` (XML), a compiled `.momd`, the store's own model cache, and the tables alone. Expected values
/// are the fixtures' `contents` XML, `VersionInfo.plist`, the cache dumps made by shared/tools/dump_model.py and
/// the model sources shipped with them (SOURCES.md).
struct ModelDescriptionFixtureTests {
    private func model(_ store: String, model: String? = nil) async throws -> (ModelDTO, OpenedFixture) {
        let fixture = try OpenedFixture(store, model: model)
        return (try await BrowserService(store: fixture.store).model(), fixture)
    }

    private func entity(_ dto: ModelDTO, _ name: String) throws -> ModelEntityDTO {
        try #require(dto.entities.first { $0.name == name }, "no entity \(name)")
    }

    @Test(.enabled(if: Fixtures.available)) func aNamedXMLModelGivesItsIndexesConstraintsDefaultsAndRules() async throws {
        let (dto, fixture) = try await model("coredataplus/SampleModel/SampleModel_V2.sqlite",
                                             model: "coredataplus/SampleModel/SampleModel.xcdatamodeld")
        #expect(dto.source == ModelOrigin(source: .file, name: "SampleModel2",
                                          path: Fixtures.url("coredataplus/SampleModel/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel").path))
        #expect(dto.versionIdentifiers == ["2"])
        #expect(dto.entities.map(\.name) == ["Car", "LuxuryCar", "Person", "SportCar"])

        let car = try entity(dto, "Car")
        #expect(car.className == "Car")
        #expect(car.subentities == ["SportCar"])
        #expect(car.count == 125)
        #expect(car.fetchIndexes == [ModelFetchIndex(name: "byMakerAndNumberPlate", elements: [
            .init(property: "maker"), .init(property: "numberPlate")])])
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        let maker = try #require(car.attributes.first { $0.attribute.name == "maker" })
        #expect(maker.fetchIndexes == ["byMakerAndNumberPlate"])
        #expect(maker.unique == false)
        let plate = try #require(car.attributes.first { $0.attribute.name == "numberPlate" })
        #expect(plate.fetchIndexes == [])
        #expect(plate.unique == true)
        #expect(plate.attribute.isOptional == false)
        let owner = try #require(car.relationships.first { $0.relationship.name == "owner" }?.relationship)
        #expect(owner == ModelRelationship(name: "owner", destination: "Person", inverse: "cars", isToMany: false,
                                           isOptional: true, minCount: 0, maxCount: 1, deleteRule: .nullify))

        let luxury = try entity(dto, "LuxuryCar")
        #expect(luxury.parent == "SportCar")
        #expect(luxury.renamingIdentifier == "ExpensiveSportCar")
        #expect(luxury.attributes.map(\.attribute) == [ModelAttribute(
            name: "isLimitedEdition", type: "Boolean", isOptional: true, defaultValue: "NO")])
        let person = try entity(dto, "Person")
        #expect(person.uniquenessConstraints == [["firstName", "lastName"]])
        #expect(person.attributes.allSatisfy { $0.unique == false }, "a two-attribute constraint makes neither unique alone")
        let cars = try #require(person.relationships.first?.relationship)
        #expect(cars.isToMany && cars.maxCount == nil && cars.deleteRule == .nullify)

        // The XML has no hashes: said, not invented; the store's own are given.
        #expect(dto.unknown["entity.versionHash"]?.contains("XML") == true)
        #expect(dto.entities.allSatisfy { $0.versionHash == nil && $0.matchesStore == nil })
        #expect(dto.storeVersionHashes?.keys.sorted() == ["Car", "LuxuryCar", "Person", "SportCar"])
        _ = fixture
    }

    @Test(.enabled(if: Fixtures.available)) func aCompiledMomdGivesVersionHashesThatMatchTheStore() async throws {
        let (dto, fixture) = try await model("coredataplus/SampleModel/SampleModel_V2.sqlite",
                                             model: "coredataplus/SampleModel/SampleModel.momd")
        #expect(dto.source?.name == "SampleModel2")
        #expect(dto.unknown["entity.versionHash"] == nil)
        for entity in dto.entities {
            #expect(entity.versionHash != nil, "\(entity.name) has VersionInfo.plist's hash")
            #expect(entity.versionHash == dto.storeVersionHashes?[entity.name])
            #expect(entity.matchesStore == true)
        }
        let car = try entity(dto, "Car")
        #expect(car.fetchIndexes?.map(\.name) == ["byMakerAndNumberPlate"])
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        #expect(try entity(dto, "LuxuryCar").renamingIdentifier == "ExpensiveSportCar")
        // A compiled model repeats every name as its renaming identifier; only a real renaming is reported.
        #expect(try entity(dto, "Car").renamingIdentifier == nil)
        #expect(try entity(dto, "LuxuryCar").attributes.first?.attribute.defaultValue == "NO")
        _ = fixture
    }

    @Test(.enabled(if: Fixtures.available)) func theStoresCachedModelGivesConfigurationsBoundsDerivationsAndCounts() async throws {
        let (dto, fixture) = try await model("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        #expect(dto.source?.source == .storeCache)
        #expect(dto.configurations == [ModelConfiguration(
            name: "SampleConfigurationV1", entities: ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"])])
        let writer = try entity(dto, "Writer")
        #expect(writer.isAbstract && writer.subentities == ["Author"] && writer.count == 2)
        let book = try entity(dto, "Book")
        #expect(book.count == 52)
        #expect(book.uniquenessConstraints == [["uniqueID"]])
        let title = try #require(book.attributes.first { $0.attribute.name == "title" }?.attribute)
        // SampleModel2+V1.swift: "Title must have a length between 3 and 50 chars."
        #expect(title.minimum == "3" && title.maximum == "50")
        let cover = try #require(book.attributes.first { $0.attribute.name == "cover" }?.attribute)
        #expect(cover.valueTransformerName == "CoverTransformer")
        #expect(cover.defaultValue == "<CoreDataPlus_Tests.Cover>")
        // SampleModel2+V1.swift: NSDerivedAttributeDescription with derivationExpression "pages.@count".
        #expect(book.attributes.first { $0.attribute.name == "pagesCount" }?.attribute.derivation == "pages.@count")
        let pages = try #require(book.relationships.first { $0.relationship.name == "pages" }?.relationship)
        #expect(pages.minCount == 1 && pages.maxCount == 10_000 && pages.deleteRule == .cascade && pages.isOptional == false)
        let books = try #require(try entity(dto, "Author").relationships.first?.relationship)
        #expect(books.maxCount == nil, "NSMaxCount -1 is unbounded")
        #expect(try entity(dto, "GraphicNovel").attributes.map(\.attribute.name) == ["isBlackAndWhite"],
                "a sub-entity lists only what it adds (the cache repeats inherited properties)")
        #expect(try entity(dto, "GraphicNovel").attributes.first?.attribute.defaultValue == "NO")
        #expect(dto.unknown.keys.sorted() == ["entity.versionHash"])
        _ = fixture
    }

    @Test(.enabled(if: Fixtures.available)) func aModelInferredFromTablesSaysWhatItCannotKnow() async throws {
        let (dto, fixture) = try await model("restkit-seed/RKSeedDatabase.sqlite")
        #expect(dto.source?.source == .inferred)
        for field in ["attribute.optional", "attribute.defaultValue", "relationship.deleteRule", "relationship.maxCount",
                      "entity.fetchIndexes", "entity.className", "configurations"] {
            #expect(dto.unknown[field] != nil, "\(field) is said to be unknown")
        }
        #expect(dto.configurations == nil)
        let tweet = try entity(dto, "Tweet")
        #expect(tweet.count == 20)
        #expect(tweet.fetchIndexes == nil && tweet.uniquenessConstraints == nil && tweet.className == nil)
        #expect(tweet.attributes.allSatisfy { $0.attribute.isOptional == nil && $0.fetchIndexes == nil && $0.unique == nil })
        #expect(tweet.relationships.allSatisfy { $0.relationship.deleteRule == nil && $0.relationship.maxCount == nil })
        _ = fixture
    }

    @Test func theDemoModelIsDescribedByItsSchemaAndSaysTheRestIsUnknown() async throws {
        let dto = try await BrowserService(store: try await DemoLibrary.makeStore()).model()
        let audioBook = try entity(dto, "AudioBook")
        #expect(audioBook.parent == "Book")
        #expect(audioBook.attributes.map(\.attribute.name) == ["durationMinutes", "narrator"], "only what it adds to Book")
        #expect(audioBook.relationships.isEmpty)
        #expect(try entity(dto, "Book").subentities == ["AudioBook"])
        #expect(dto.unknown["attribute.defaultValue"] != nil && dto.unknown["relationship.deleteRule"] != nil)
        #expect(try entity(dto, "Book").attributes.allSatisfy { $0.attribute.defaultValue == nil })
    }
}
