import BrowserSQLite
import CoreDataBrowser
import Foundation
import Testing

/// The Core Data fixtures in shared/fixtures/coredata (SOURCES.md), found from this file's path, always opened
/// on copies: opening a store, even read-only, may write its `-shm`.
enum StoreFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/coredata")

    /// As `Fixtures.available` in BrowserSQLiteTests: absent fixtures skip these tests, unless
    /// `REQUIRE_FIXTURES=1` (`.ci/run`), which makes them run and fail.
    static let present: Bool = {
        let present = FileManager.default.fileExists(atPath: root.appendingPathComponent("SOURCES.md").path)
        if present { return true }
        if ProcessInfo.processInfo.environment["REQUIRE_FIXTURES"] == "1" {
            print("REQUIRE_FIXTURES=1 and no fixtures at \(root.path): the store-file end-to-end tests run, and fail")
            return true
        }
        print("Skipping store-file end-to-end tests: no fixtures at \(root.path) (REQUIRE_FIXTURES=1 makes this a failure)")
        return false
    }()

    /// Copies a fixture (with its `-wal`/`-shm`) into a fresh temporary folder, writable like an app's store.
    static func copy(_ relative: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreFileEndToEnd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = root.appendingPathComponent(relative)
        let target = folder.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: target.path + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path + suffix)
        }
        return target
    }
}

/// A real Core Data store and a real SwiftData store served through `CoreDataBrowserServer(storeURL:)` over real
/// sockets: the JSON API works on Apple-written files, IDs round-trip through `/api/object`, and relationships
/// can be followed.
@Suite(.serialized, .enabled(if: StoreFixtures.present, "needs shared/fixtures/coredata"))
struct StoreFileEndToEndTests {
    static func serve(_ relative: String, model: String? = nil,
                      _ configure: (inout CoreDataBrowserServer.Options) -> Void = { _ in }) throws -> (CoreDataBrowserServer, TestClient) {
        var options = CoreDataBrowserServer.Options.forTests()
        configure(&options)
        let server = try CoreDataBrowserServer(storeURL: try StoreFixtures.copy(relative),
                                               modelURL: model.map { StoreFixtures.root.appendingPathComponent($0) },
                                               options: options)
        let info = try server.start()
        return (server, TestClient(base: try #require(info.urls.first)))
    }

    @Test func coreDataStoreIsBrowsableAndIDsRoundTrip() async throws {
        let (server, client) = try Self.serve("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        defer { server.stop() }

        let health = try await client.get("/api/health").object()
        #expect((health["model"] as? [String: Any])?["source"] as? String == "store-cache")
        #expect(health["readOnly"] as? Bool == true)

        let entities = try await client.get("/api/entities").array()
        let counts = Dictionary(uniqueKeysWithValues: entities.map { ($0["name"] as! String, $0["count"] as! Int) })
        // Writer is abstract (listed, its count is its sub-entity Author's); Book's count includes its sub-entity
        // GraphicNovel; history is no entity.
        #expect(counts == ["Author": 2, "Book": 52, "Feedback": 444, "GraphicNovel": 1, "Page": 4970, "Writer": 2])
        #expect(entities.first { $0["name"] as? String == "Writer" }?["abstract"] as? Bool == true)

        let page = try await client.get("/api/entities/Page?limit=3&sort=number&order=desc").object()
        #expect(page["total"] as? Int == 4970)
        let rows = try #require(page["rows"] as? [[String: Any]])
        #expect(rows.count == 3)
        let id = try #require(rows.first?["id"] as? String)
        #expect(id.hasPrefix("x-coredata://C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A/Page/p"))

        let object = try await client.get("/api/object?id=\(TestClient.encode(id))").object()
        #expect(object["id"] as? String == id)
        let relationships = try #require(object["relationships"] as? [[String: Any]])
        let book = try #require(relationships.first { $0["name"] as? String == "book" })
        #expect(book["toMany"] as? Bool == false)
        let bookID = try #require((book["items"] as? [[String: Any]])?.first?["id"] as? String)

        // Follow it: the book lists this page among its pages.
        let bookObject = try await client.get("/api/object?id=\(TestClient.encode(bookID))").object()
        let pages = try #require((bookObject["relationships"] as? [[String: Any]])?.first { $0["name"] as? String == "pages" })
        #expect((pages["count"] as? Int ?? 0) > 0)

        // Unknown names and IDs of another store are client errors, not 500s.
        #expect(try await client.get("/api/entities/Nope").status == 404)
        #expect(try await client.get("/api/entities/Page?sort=nope").status == 400)
        let foreign = "x-coredata://00000000-0000-0000-0000-000000000000/Page/p1"
        #expect(try await client.get("/api/object?id=\(TestClient.encode(foreign))").status == 404)
    }

    /// SampleModel2's covers are Transformable with the app's own `CoverTransformer` (a Swift class archiving a
    /// `Cover`): the schema and the content answer both name the transformer, and the bytes are its keyed archive.
    @Test func aCustomTransformerIsNamedWithItsBytes() async throws {
        let (server, client) = try Self.serve("coredataplus/SampleModel2/SampleModel2_V2.sqlite")
        defer { server.stop() }
        let entities = try await client.get("/api/entities").array()
        func attribute(_ entity: String, _ name: String) -> [String: Any]? {
            (entities.first { $0["name"] as? String == entity }?["attributes"] as? [[String: Any]])?
                .first { $0["name"] as? String == name }
        }
        #expect(attribute("Book", "frontCover")?["transformer"] as? String == "CoverTransformer")
        #expect(attribute("GraphicNovel", "frontCover")?["transformer"] as? String == "CoverTransformer")
        #expect(attribute("Page", "content")?["transformer"] as? String == "ContentTransformer")
        // Only Transformable attributes have the key.
        #expect(attribute("Book", "title").map { $0.keys.contains("transformer") } == false)

        let id = "x-coredata://4B0F5331-DE87-4D61-9947-8A976CCEB627/Book/p1"
        let content = try await client.get("/api/object/content?id=\(TestClient.encode(id))&attr=frontCover").object()
        #expect(content["transformer"] as? String == "CoverTransformer")
        #expect(content["kind"] as? String == "keyedArchive")
        #expect(content["archivedClass"] as? String == "CoreDataPlus_Tests.Cover")
        #expect(content["summary"] as? String == "keyed archive (CoreDataPlus_Tests.Cover) · 277 B")
        #expect((content["problems"] as? [String])?.isEmpty == true)
    }

    @Test func swiftDataStoreShowsItsModelNames() async throws {
        let (server, client) = try Self.serve("cartkit/swiftdata/CartKitSwiftData_v1.sqlite")
        defer { server.stop() }
        let entities = try await client.get("/api/entities").array()
        let counts = Dictionary(uniqueKeysWithValues: entities.map { ($0["name"] as! String, $0["count"] as! Int) })
        #expect(counts == ["CartItemModel": 0, "CartItemModifierModel": 0, "CartModel": 1])
        let carts = try await client.get("/api/entities/CartModel").object()
        let row = try #require((carts["rows"] as? [[String: Any]])?.first)
        let id = try #require(row["id"] as? String)
        #expect(try await client.get("/api/object?id=\(TestClient.encode(id))").status == 200)
    }

    /// `Options.requestTimeBudget` reaches the store: a budget already spent when the request reaches the
    /// store's queue stops it with a 503 that says why, and the server goes on answering other requests.
    @Test func aRequestPastItsTimeBudgetGets503() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.requestTimeBudget = 0
        let server = try CoreDataBrowserServer(
            storeURL: try StoreFixtures.copy("coredataplus/SampleModel2/SampleModel2_V1.sqlite"), options: options)
        let info = try server.start()
        defer { server.stop() }
        let client = TestClient(base: try #require(info.urls.first))
        let reply = try await client.get("/api/entities")
        #expect(reply.status == 503)
        #expect(String(decoding: reply.body, as: UTF8.self).contains("time budget"))
        #expect(try await client.get("/api/health").status == 200)
    }

    @Test func badStoreFileIsATypedError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("StoreFileEndToEnd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("notes.sqlite")
        try Data("hello".utf8).write(to: url)
        #expect(throws: SQLiteStoreError.self) { try CoreDataBrowserServer(storeURL: url) }
    }
}
