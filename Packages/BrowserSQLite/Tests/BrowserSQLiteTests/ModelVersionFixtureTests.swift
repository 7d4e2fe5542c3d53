import BrowserCore
import BrowserSQLite
import Foundation
import Testing

/// `/api/model/versions` and `/api/model/diff` (`BrowserService`) on the fixtures with versioned models: which
/// version matches each store and which is current, and what differs between two versions. Expected values are
/// read off the fixtures' `contents` files and SOURCES.md (scripts/ui-tests/test_model_versions.py checks every
/// pair of versions against its own reading of the XML).
struct ModelVersionFixtureTests {
    private func service(_ store: String, model: String) throws -> (BrowserService, OpenedFixture) {
        let fixture = try OpenedFixture(store, model: model)
        return (BrowserService(store: fixture.store), fixture)
    }

    @Test(.enabled(if: Fixtures.available), arguments: ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"])
    func eachJBStoreMatchesExactlyItsOwnVersion(_ version: String) async throws {
        let (service, fixture) = try service("jb-model-versions/Example_\(version).sqlite", model: "jb-model-versions/Model.xcdatamodeld")
        let versions = try await service.modelVersions()
        #expect(versions.available)
        #expect(versions.versions.map(\.name) == ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"])
        #expect(versions.versions.filter(\.matchesStore).map(\.name) == [version])
        #expect(versions.versions.filter(\.used).map(\.name) == [version])
        #expect(versions.versions.filter(\.current).map(\.name) == ["v2.0.0"])
        #expect(versions.versions.first { $0.name == version }?.matchedBy == "tables", "XML versions have no hashes to compare")
        for other in versions.versions where other.name != version {
            #expect(other.mismatch?.contains("missing") == true, "\(other.name): \(other.mismatch ?? "nil")")
        }
        _ = fixture
    }

    @Test(.enabled(if: Fixtures.available)) func aRenamingIdentifierPairsAttributesAcrossOneVersionOnly() async throws {
        let (service, fixture) = try service("jb-model-versions/Example_v1.0.0.sqlite", model: "jb-model-versions/Model.xcdatamodeld")
        let next = try await service.modelDifference(from: "v1.0.0", to: "v1.1.0")
        let entity = try #require(next.entities.first)
        #expect(next.entities.count == 1 && entity.name == "BasicEntity" && entity.change == .changed)
        #expect(entity.attributes.map { "\($0.change) \($0.previousName ?? "-") → \($0.name)" } == ["renamed v1_0_0_name → v1_1_0_name"])
        // Backwards, the later version's identifier still pairs them.
        let back = try await service.modelDifference(from: "v1.1.0", to: "v1.0.0")
        #expect(back.entities.first?.attributes.map { "\($0.change) \($0.previousName ?? "-") → \($0.name)" } == ["renamed v1_1_0_name → v1_0_0_name"])
        // v2.0.0 names v1_2_0_name as its earlier name, not v1_0_0_name: no renaming to follow.
        let far = try await service.modelDifference(from: "v1.0.0", to: "v2.0.0")
        #expect(far.entities.first?.attributes.map { "\($0.change) \($0.name)" } == ["removed v1_0_0_name", "added v2_0_0_name"], "by name")
        #expect(try await service.modelDifference(from: "v1.1.0", to: "v1.1.0").entities.isEmpty)
        _ = fixture
    }

    @Test(.enabled(if: Fixtures.available)) func wiboscoVersionsDifferByRenamingsNewEntitiesAndDeleteRules() async throws {
        let (service, fixture) = try service("wibosco-revised/CoreDataMigration_Example_3.sqlite",
                                             model: "wibosco-revised/CoreDataMigration_Example.xcdatamodeld")
        let versions = try await service.modelVersions()
        #expect(versions.versions.map(\.name) == ["CoreDataMigration_Example", "CoreDataMigration_Example 2",
                                                  "CoreDataMigration_Example 3", "CoreDataMigration_Example 4"],
                "numbered as a person numbers them, not by the files' byte order")
        #expect(versions.versions.filter(\.matchesStore).map(\.name) == ["CoreDataMigration_Example 3"])
        #expect(versions.versions.filter(\.current).map(\.name) == ["CoreDataMigration_Example 4"])

        let one = try await service.modelDifference(from: "CoreDataMigration_Example", to: "CoreDataMigration_Example 2")
        #expect(one.entities.first?.attributes.map { "\($0.change) \($0.previousName ?? "-") → \($0.name)" } == ["renamed color → hexColor"])

        let two = try await service.modelDifference(from: "CoreDataMigration_Example 2", to: "CoreDataMigration_Example 3")
        #expect(two.entities.map { "\($0.change) \($0.name)" } == ["changed Post", "added Section"])
        let post = try #require(two.entities.first)
        #expect(post.attributes.map { "\($0.change) \($0.name)" } == ["removed content"])
        #expect(post.relationships.map { "\($0.change) \($0.name)" } == ["added sections"])

        let three = try await service.modelDifference(from: "CoreDataMigration_Example 3", to: "CoreDataMigration_Example 4")
        let changed = try #require(three.entities.first)
        #expect(three.entities.count == 1 && changed.name == "Post")
        #expect(changed.attributes.map { "\($0.change) \($0.name)" } == ["added softDeleted"])
        #expect(changed.relationships.map(\.name) == ["sections"])
        #expect(changed.relationships.first?.fields == [ModelDifference.Field(field: "deleteRule", from: "Cascade", to: "Nullify")])
        _ = fixture
    }

    @Test(.enabled(if: Fixtures.available)) func aCompiledMomdIsMatchedByVersionHashesAndItsRenamedEntityPaired() async throws {
        let (service, fixture) = try service("coredataplus/SampleModel/SampleModel_V2.sqlite", model: "coredataplus/SampleModel/SampleModel.momd")
        let versions = try await service.modelVersions()
        let matching = versions.versions.filter(\.matchesStore)
        #expect(matching.map(\.name) == ["SampleModel2"])
        #expect(matching.first?.matchedBy == "versionHashes" && matching.first?.used == true)
        for other in versions.versions where other.name != "SampleModel2" {
            #expect(other.mismatch?.hasPrefix("its version hashes differ from the store's for") == true)
        }
        let difference = try await service.modelDifference(from: "SampleModel", to: "SampleModel2")
        let luxury = try #require(difference.entities.first { $0.name == "LuxuryCar" })
        #expect(luxury.change == .renamed && luxury.previousName == "ExpensiveSportCar")
        _ = fixture
    }

    @Test(.enabled(if: Fixtures.available)) func aStoreWithoutAVersionedModelSaysSoAndDiffsAre404() async throws {
        let fixture = try OpenedFixture("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        let service = BrowserService(store: fixture.store)
        let versions = try await service.modelVersions()
        #expect(!versions.available && versions.reason?.contains("--model") == true)
        await #expect(throws: BrowserError.self) { try await service.modelDifference(from: "a", to: "b") }
        do {
            _ = try await service.modelDifference(from: "a", to: "b")
        } catch {
            #expect(error.statusCode == 404)
        }
        do {
            _ = try await service.modelDifference(from: "a", to: nil)
        } catch {
            #expect(error.statusCode == 400)
        }
    }

    @Test(.enabled(if: Fixtures.available)) func oneVersionOfTheModelIsServedWholeOnRequest() async throws {
        let (service, fixture) = try service("jb-model-versions/Example_v1.2.0.sqlite", model: "jb-model-versions/Model.xcdatamodeld")
        let model = try await service.model(version: "v1.0.0")
        #expect(model.source?.name == "v1.0.0")
        #expect(model.entities.first?.attributes.map(\.attribute.name) == ["v1_0_0_name"])
        #expect(model.entities.first?.count == 1)
        #expect(try await service.model().entities.first?.attributes.map(\.attribute.name) == ["v1_2_0_name"])
        _ = fixture
    }
}
