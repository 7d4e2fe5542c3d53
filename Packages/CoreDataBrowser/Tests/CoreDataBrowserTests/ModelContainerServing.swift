#if canImport(SwiftData)
import CoreDataBrowser
import Foundation
import SwiftData
import Testing

/// What `CoreDataBrowserServer(modelContainer:)` must do with a real SwiftData container, written against
/// `PersistentModel` so that it compiles against the SwiftData stand-in too (scripts/apple-typecheck/run.sh): only
/// the `@Model` class and the test that names it are macOS-only (ModelContainerServingTests.swift), because the
/// `@Model` macro cannot be stood in.
@available(iOS 17, macOS 14, tvOS 17, *)
@MainActor
enum ModelContainerServing {
    /// Makes a container of `type` on a new temporary file, saves a model per title but the last, serves the
    /// container on loopback and reads the titles back over HTTP (`entity`'s list, `attribute` of each row); then
    /// inserts the last one: not visible while unsaved, visible after `save()` with the same server running.
    static func servesSavedModels<Model: PersistentModel>(
        _ type: Model.Type, entity: String, attribute: String, titles: [String], make: (String) -> Model
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelContainer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try ModelContainer(for: type, configurations: ModelConfiguration(url: folder.appendingPathComponent("Shelf.store")))
        let context = ModelContext(container)
        // Saved only when the test says so: autosave would make "not visible before save()" a race.
        context.autosaveEnabled = false
        let saved = Array(titles.dropLast())
        for title in saved { context.insert(make(title)) }
        try context.save()

        let server = try CoreDataBrowserServer(modelContainer: container, options: .forTests())
        let info = try server.start()
        defer { server.stop() }
        let client = TestClient(base: try #require(info.urls.first))
        #expect(try await titlesServed(by: client, entity: entity, attribute: attribute) == saved.sorted())

        let unsaved = try #require(titles.last)
        context.insert(make(unsaved))
        #expect(try await titlesServed(by: client, entity: entity, attribute: attribute) == saved.sorted())
        try context.save()
        #expect(try await titlesServed(by: client, entity: entity, attribute: attribute) == titles.sorted())
    }

    /// A container whose every configuration is in memory has no file to serve: a precise error, not an empty server.
    static func refusesAContainerInMemoryOnly(_ type: any PersistentModel.Type) throws {
        let container = try ModelContainer(for: type, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect {
            _ = try CoreDataBrowserServer(modelContainer: container, options: .forTests())
        } throws: { error in
            guard case .storedInMemoryOnly = error as? CoreDataBrowserServer.ModelContainerError else { return false }
            return true
        }
    }

    private static func titlesServed(by client: TestClient, entity: String, attribute: String) async throws -> [String] {
        let page = try await client.get("/api/entities/\(entity)?limit=500&sort=\(attribute)").object()
        let rows = try #require(page["rows"] as? [[String: Any]])
        return rows.compactMap { ($0["attrs"] as? [String: Any])?[attribute] as? String }
    }
}
#endif
