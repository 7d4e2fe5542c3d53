import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// `related=all` exports stream their items page by page; the bytes must be exactly those of the whole document.
@Suite struct StreamedExportTests {
    @Test func aStreamedExportIsByteForByteTheWholeDocument() async throws {
        // An author with more books than one export page holds (RecordQuery.maximumLimit), and one with none.
        let store = InMemoryStore(schema: DemoLibrary.schema, storeIdentifier: "5E7F1C2A-0B8E-4F0E-9A51-3E7D2C1B9A55")
        let prolific = try await store.insert("Author", ["name": .string("Prolific \"Quoted\" Writer")])
        let idle = try await store.insert("Author", ["name": .string("Idle")])
        let tag = try await store.insert("Tag", ["name": .string("bulk")])
        for number in 1...(RecordQuery.maximumLimit * 2 + 37) {
            let book = try await store.insert("Book", ["title": .string("Book \(number) / é"), "pageCount": .integer(Int64(number))])
            try await store.relate(book, "author", prolific)
            if number % 3 == 0 { try await store.relate(book, "tags", tag) }
        }
        let server = CoreDataBrowserServer(store: store, options: .forTests())
        let info = try server.start()
        defer { server.stop() }
        let client = TestClient(base: try #require(info.urls.first))
        let service = BrowserService(store: store)
        for id in [prolific, idle, tag] {
            let reply = try await client.get("/api/object/export?id=\(TestClient.encode(id.uri))&related=all")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Length") == nil)  // chunked: produced while sent
            #expect(reply.header("Content-Disposition")?.contains("\(id.entity)-\(id.shortForm).json") == true)
            let whole = try BrowserJSON.encode(try await service.object(id: id.uri, allRelated: true))
            #expect(reply.body == whole, "\(id.uri)")
        }
        let parsed = try #require(try JSONSerialization.jsonObject(
            with: try await client.get("/api/object/export?id=\(TestClient.encode(prolific.uri))&related=all").body) as? [String: Any])
        let books = try #require((parsed["relationships"] as? [[String: Any]])?.first { $0["name"] as? String == "books" })
        #expect((books["items"] as? [Any])?.count == RecordQuery.maximumLimit * 2 + 37)
        #expect(books["included"] as? Int == books["count"] as? Int)
    }
}
