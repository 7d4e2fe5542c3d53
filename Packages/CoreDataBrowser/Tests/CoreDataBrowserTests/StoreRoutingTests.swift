import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// Several stores in one server, over real sockets: `GET /api/stores` lists them, `/api/stores/:store/…` reaches
/// one store's API (escapes in the rest of the path kept), the routes without it mean the first, an unknown store or
/// a store path without a route is a precise 404, a store that cannot be opened affects only itself, and a rescan
/// adds new stores while keeping the open ones.
struct StoreRoutingTests {
    static func store(_ entity: String, _ texts: [String]) async throws -> InMemoryStore {
        let store = InMemoryStore(schema: StoreSchema(entities: [
            EntitySchema(name: entity, attributes: [AttributeSchema(name: "text", type: .string)]),
        ]))
        for text in texts { try await store.insert(entity, ["text": .string(text)]) }
        return store
    }

    struct Unopenable: Error, CustomStringConvertible {
        var description: String { "the file is locked by another process" }
    }

    static func serve(_ stores: [ServedStore], rescan: (@Sendable () async -> [ServedStore])? = nil) throws
        -> (CoreDataBrowserServer, TestClient) {
        let server = CoreDataBrowserServer(stores: stores, options: .forTests(), rescan: rescan)
        let port = try server.start().port
        return (server, TestClient(base: try #require(URL(string: "http://127.0.0.1:\(port)"))))
    }

    @Test func eachStoreIsReachedByItsIDAndTheFirstWithout() async throws {
        let notes = try await Self.store("Note", ["a", "b"])
        let tasks = try await Self.store("Task/Item", ["x"])
        let (server, client) = try Self.serve([
            ServedStore(name: "Notes.sqlite", kind: .file, store: notes),
            ServedStore(name: "Tasks", group: ["iPhone 16", "com.example.tasks"], kind: .memory, store: tasks),
        ])
        defer { server.stop() }

        let list = try await client.get("/api/stores")
        #expect(list.status == 200)
        #expect(list.header("Cache-Control") == "no-store")
        let stores = try #require(try list.object()["stores"] as? [[String: Any]])
        #expect(stores.map { $0["id"] as? String } == ["Notes", "Tasks"])
        #expect(stores.map { $0["entityCount"] as? Int } == [1, 1])
        #expect(stores[1]["group"] as? [String] == ["iPhone 16", "com.example.tasks"])
        #expect(stores[1]["kind"] as? String == "memory")
        #expect(stores[0]["historyTracked"] as? Bool == false)
        #expect(try list.object()["refreshable"] as? Bool == false)

        #expect(try await client.get("/api/entities").array().map { $0["name"] as? String } == ["Note"])
        #expect(try await client.get("/api/stores/Notes/entities").array().map { $0["name"] as? String } == ["Note"])
        #expect(try await client.get("/api/stores/Tasks/entities").array().map { $0["name"] as? String } == ["Task/Item"])
        // The rest of the path keeps its escapes: "Task%2FItem" stays one segment, the entity's name.
        let page = try await client.get("/api/stores/Tasks/entities/Task%2FItem?limit=1")
        #expect(page.status == 200)
        #expect(try page.object()["total"] as? Int == 1)
    }

    @Test func unknownStoresAndBarePathsArePrecise404s() async throws {
        let (server, client) = try Self.serve([ServedStore(name: "One", kind: .memory, store: try await Self.store("Note", []))])
        defer { server.stop() }
        let unknown = try await client.get("/api/stores/Two/entities")
        #expect(unknown.status == 404)
        #expect(try unknown.object()["error"] as? String == "No store \"Two\" on this server; GET /api/stores lists them")
        let bare = try await client.get("/api/stores/One")
        #expect(bare.status == 404)
        #expect(try bare.object()["error"] as? String == "/api/stores/One is a store, not a route: add one, such as /api/stores/One/entities")
        #expect(try await client.get("/api/stores/One/").status == 404)
        let post = try await client.request("/api/stores", method: "POST")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        #expect(try await client.get("/api/stores?refresh=yes").status == 400)
        // The UI's files are served whatever the stores.
        #expect(try await client.get("/lab").status == 200)
    }

    @Test func aStoreThatCannotBeOpenedAffectsOnlyItself() async throws {
        let (server, client) = try Self.serve([
            ServedStore(name: "Good", kind: .memory, store: try await Self.store("Note", ["a"])),
            ServedStore(name: "Locked.sqlite", kind: .file, open: { throw Unopenable() }),
        ])
        defer { server.stop() }
        let broken = try await client.get("/api/stores/Locked/entities")
        #expect(broken.status == 500)
        #expect(try broken.object()["error"] as? String == "The store Locked.sqlite cannot be opened: the file is locked by another process")
        let stores = try #require(try await client.get("/api/stores").object()["stores"] as? [[String: Any]])
        #expect(stores[1]["error"] as? String == "the file is locked by another process")
        #expect(stores[1]["entityCount"] is NSNull)
        #expect(try await client.get("/api/stores/Good/entities").status == 200)
    }

    @Test func repeatedIDsGetSuffixes() async throws {
        let store = try await Self.store("Note", [])
        let (server, client) = try Self.serve([
            ServedStore(name: "Model.sqlite", kind: .memory, store: store),
            ServedStore(name: "Model.sqlite", kind: .memory, store: store),
            ServedStore(name: "Ünïcödé store!", kind: .memory, store: store),
        ])
        defer { server.stop() }
        let stores = try #require(try await client.get("/api/stores").object()["stores"] as? [[String: Any]])
        #expect(stores.map { $0["id"] as? String } == ["Model", "Model-2", "Unicode-store"])
    }

    /// Counts the openings of each store: a rescan keeps an opened store and opens only the new one.
    actor Openings {
        var counts: [String: Int] = [:]
        func opened(_ name: String) { counts[name, default: 0] += 1 }
    }

    @Test func aRescanAddsNewStoresAndKeepsOpenOnes() async throws {
        let openings = Openings()
        let first = try await Self.store("Note", ["a"])
        let second = try await Self.store("Task", ["x"])
        let found = FoundStores<[ServedStore]>([])
        func served(_ name: String, _ store: InMemoryStore) -> ServedStore {
            ServedStore(name: name, kind: .memory, open: { await openings.opened(name); return store })
        }
        found.withLock { $0 = [served("First", first)] }
        let (server, client) = try Self.serve(found.withLock { $0 }, rescan: { found.withLock { $0 } })
        defer { server.stop() }
        #expect(try await client.get("/api/stores").object()["refreshable"] as? Bool == true)
        #expect(try await client.get("/api/stores/First/entities").status == 200)

        found.withLock { $0 = [served("First", first), served("Second", second)] }
        // Without refresh the list stays as it was.
        #expect((try await client.get("/api/stores").object()["stores"] as? [Any])?.count == 1)
        let refreshed = try #require(try await client.get("/api/stores?refresh=1").object()["stores"] as? [[String: Any]])
        #expect(refreshed.map { $0["id"] as? String } == ["First", "Second"])
        #expect(try await client.get("/api/stores/Second/entities").array().map { $0["name"] as? String } == ["Task"])
        #expect(await openings.counts == ["First": 1, "Second": 1])
    }
}

/// What a test's rescan finds, behind a lock.
final class FoundStores<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
