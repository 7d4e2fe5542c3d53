import BrowserSQLite
import CoreDataBrowser
import Foundation
import Testing

/// Writes to a copy of a real Core Data store (wibosco-revised v3: Post.sections, required and Cascade ←→
/// Section.post, Nullify) through `CoreDataBrowserServer(storeURL:)` with writes on, over real sockets: the write
/// routes answer with the record as read back, and the store's refusals come back with their statuses and details.
@Suite(.serialized, .enabled(if: StoreFixtures.present, "needs shared/fixtures/coredata"))
struct StoreFileWriteEndToEndTests {
    static let model = "wibosco-revised/CoreDataMigration_Example.xcdatamodeld"

    static func serve() throws -> (CoreDataBrowserServer, TestClient, URL) {
        let store = try StoreFixtures.copy("wibosco-revised/CoreDataMigration_Example_3.sqlite")
        var options = CoreDataBrowserServer.Options.forTests()
        options.readOnly = false
        let server = try CoreDataBrowserServer(storeURL: store, modelURL: StoreFixtures.root.appendingPathComponent(model), options: options)
        let info = try server.start()
        return (server, TestClient(base: try #require(info.urls.first)), store)
    }

    static func json(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    @Test func editsCreatesAndDeletesWithTheStoreRules() async throws {
        let (server, client, store) = try Self.serve()
        defer { server.stop() }
        let health = try await client.get("/api/health").object()
        #expect(health["capabilities"] as? [String] == ["read", "write"])
        #expect(health["readOnly"] as? Bool == false)

        let posts = try #require(try await client.get("/api/entities/Post?limit=50").object()["rows"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        var sectionCounts: [String: Int] = [:]
        for post in posts {
            sectionCounts[post] = try await client.get("/api/object/related?id=\(TestClient.encode(post))&rel=sections").object()["total"] as? Int
        }
        let rich = try #require(posts.first { (sectionCounts[$0] ?? 0) >= 2 })
        let other = try #require(posts.first { $0 != rich })
        let related = try await client.get("/api/object/related?id=\(TestClient.encode(rich))&rel=sections").object()
        let section = try #require((related["rows"] as? [[String: Any]])?.first?["id"] as? String)
        let object = try await client.get("/api/object?id=\(TestClient.encode(section))").object()
        let version = try #require(object["version"] as? Int)

        // An edit: answered with the record as read back, one version on.
        let patched = try await client.request("/api/object?id=\(TestClient.encode(section))", method: "PATCH",
                                               headers: ["Content-Type": "application/json"],
                                               body: try Self.json(["version": version, "attrs": ["title": "Edited"], "relationships": ["post": other]]))
        #expect(patched.status == 200)
        let edited = try patched.object()
        #expect(edited["version"] as? Int == version + 1)
        #expect((edited["attrs"] as? [String: Any])?["title"] as? String == "Edited")

        // The same version again: 409 with both versions; nothing written.
        let stale = try await client.request("/api/object?id=\(TestClient.encode(section))", method: "PATCH",
                                             headers: ["Content-Type": "application/json"],
                                             body: try Self.json(["version": version, "attrs": ["title": "Late"]]))
        #expect(stale.status == 409)
        #expect(try stale.object()["expectedVersion"] as? Int == version)
        #expect(try stale.object()["currentVersion"] as? Int == version + 1)

        // A target that does not exist: 422 naming the relationship.
        let missing = other.replacingOccurrences(of: #"/p\d+$"#, with: "/p99999", options: .regularExpression)
        let bad = try await client.request("/api/object?id=\(TestClient.encode(section))", method: "PATCH",
                                           headers: ["Content-Type": "application/json"],
                                           body: try Self.json(["version": version + 1, "relationships": ["post": missing]]))
        #expect(bad.status == 422)
        let fields = try #require(try bad.object()["fields"] as? [[String: Any]])
        #expect(fields.first?["field"] as? String == "relationships.post")

        // A new record, created with its post.
        let created = try await client.request("/api/entities/Section", method: "POST", headers: ["Content-Type": "application/json"],
                                               body: try Self.json(["attrs": ["title": "New", "index": 3], "relationships": ["post": other]]))
        #expect(created.status == 201)
        let createdID = try #require(try created.object()["id"] as? String)
        #expect(try created.object()["version"] as? Int == 1)

        // Deleting the post cascades to its sections, the new one included.
        let preview = try await client.get("/api/object/delete-preview?id=\(TestClient.encode(other))").object()
        let cascades = try #require(preview["cascades"] as? [[String: Any]])
        #expect(cascades.first?["entity"] as? String == "Section")
        #expect(cascades.first?["count"] as? Int == (sectionCounts[other] ?? 0) + 2)
        let postVersion = try #require(try await client.get("/api/object?id=\(TestClient.encode(other))").object()["version"] as? Int)
        let deleted = try await client.request("/api/object?id=\(TestClient.encode(other))&version=\(postVersion)", method: "DELETE")
        #expect(deleted.status == 200)
        #expect(try await client.get("/api/object?id=\(TestClient.encode(createdID))").status == 404)

        // The backup made before the first write is beside the store.
        let backups = try FileManager.default.contentsOfDirectory(atPath: store.deletingLastPathComponent().path).filter { $0.contains(".cdbrowser-backup-") }
        #expect(backups.count == 1)
    }
}
