import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// A store with an attribute of a type no store can order (SwiftData's composite, seen through a live context):
/// sorting and searching by it are refused with a 400 over HTTP, before any store is asked.
@Suite struct UndefinedAttributeTests {
    @Test func sortingOrSearchingByAnUndefinedAttributeIs400() async throws {
        let schema = StoreSchema(entities: [EntitySchema(name: "Shop", attributes: [
            AttributeSchema(name: "name", type: .string), AttributeSchema(name: "location", type: .undefined),
        ])])
        let store = InMemoryStore(schema: schema, storeIdentifier: "0F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A21")
        _ = try await store.insert("Shop", ["name": .string("Corner")])
        let server = CoreDataBrowserServer(store: store, options: .forTests())
        let info = try server.start()
        defer { server.stop() }
        let client = TestClient(base: try #require(info.urls.first))
        #expect(try await client.get("/api/entities/Shop?sort=name").status == 200)
        let sorted = try await client.get("/api/entities/Shop?sort=location")
        #expect(sorted.status == 400)
        #expect(try sorted.object()["error"] as? String == "Cannot sort Shop by location: its type (Undefined) has no order to sort by")
        #expect(try await client.get("/api/entities/Shop?search=x&searchAttr=location").status == 400)
        #expect(try await client.get("/api/entities/Shop/export?format=csv&sort=location").status == 400)
        #expect(try await client.get("/api/entities/Shop/explain?sort=location").status == 400)
    }
}
