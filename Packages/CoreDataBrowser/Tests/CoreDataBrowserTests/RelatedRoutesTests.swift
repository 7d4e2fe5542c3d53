import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// `/api/object/related`, `/api/entities/:name/position`, `relatedTo`/`via` and `related=all`, over real HTTP
/// against the same demo server as the other end-to-end tests.
extension EndToEndTests {
    func encodedID(_ entity: String, _ key: Int64) -> String {
        TestClient.encode(ObjectID(storeIdentifier: DemoLibrary.storeIdentifier, entity: entity, primaryKey: key).uri)
    }

    @Test func relatedRecordsArePagedToTheEnd() async throws {
        let first = try await client.get("/api/object/related?id=\(encodedID("Author", 2))&rel=books&limit=100").object()
        let total = try #require(first["total"] as? Int)
        #expect(total > 100)
        let last = try await client.get("/api/object/related?id=\(encodedID("Author", 2))&rel=books&limit=100&offset=\(total / 100 * 100)").object()
        #expect((last["rows"] as? [[String: Any]])?.count == total % 100)
        let listed = try await client.get("/api/entities/Book?relatedTo=\(encodedID("Author", 2))&via=books&limit=100").object()
        #expect(listed["total"] as? Int == total)
    }

    @Test func positionsAndTheirErrors() async throws {
        let reply = try await client.get("/api/entities/Book/position?id=\(encodedID("Book", 300))&limit=100")
        #expect(reply.status == 200)
        let position = try reply.object()
        #expect(position["offset"] as? Int == 299 && position["pageOffset"] as? Int == 200)
        #expect(try await client.get("/api/entities/Book/position").status == 400)
        #expect(try await client.get("/api/entities/Tag/position?id=\(encodedID("Book", 3))").status == 404)
        #expect(try await client.get("/api/object/related?id=\(encodedID("Author", 2))&rel=nope").status == 404)
        #expect(try await client.get("/api/object/related?id=\(encodedID("Author", 2))").status == 400)
    }

    @Test func exportsCanHoldEveryRelatedRecord() async throws {
        let preview = try await client.get("/api/object/export?id=\(encodedID("Author", 2))").object()
        let books = try #require((preview["relationships"] as? [[String: Any]])?.first { $0["name"] as? String == "books" })
        #expect(books["included"] as? Int == 20 && (books["count"] as? Int ?? 0) > 20)
        let full = try await client.get("/api/object/export?id=\(encodedID("Author", 2))&related=all").object()
        let all = try #require((full["relationships"] as? [[String: Any]])?.first { $0["name"] as? String == "books" })
        #expect(all["included"] as? Int == all["count"] as? Int)
        #expect(try await client.get("/api/object/export?id=\(encodedID("Author", 2))&related=some").status == 400)
    }
}

/// Security: store data never lands in a browser's cache; the UI runs under a Content-Security-Policy; export
/// file names survive any entity name.
extension EndToEndTests {
    @Test(arguments: ["/api/health", "/api/entities", "/api/entities/Book?limit=2", "/api/entities/Nope",
                      "/api/entities/Book?limit=-1", "/api/object?id=x", "/api/nothing-here"])
    func everyAPIAnswerIsNoStore(path: String) async throws {
        let reply = try await client.get(path)
        #expect(reply.header("Cache-Control") == "no-store", "\(path) answered \(reply.status)")
    }

    @Test(arguments: ["/", "/lab", "/pages/inspector/inspector.js", "/pages/lab/lab.css"])
    func theUIRunsUnderAContentSecurityPolicy(path: String) async throws {
        let reply = try await client.get(path)
        let policy = try #require(reply.header("Content-Security-Policy"))
        #expect(policy.contains("default-src 'self'") && policy.contains("script-src 'self'")
                && policy.contains("object-src 'none'") && policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("'unsafe-eval'") && !(policy.split(separator: ";").first { $0.contains("script-src") }?.contains("unsafe-inline") ?? true))
    }
}

@Suite struct AttachmentNameTests {
    @Test(arguments: [
        ("Book-p1.json", #"attachment; filename="Book-p1.json"; filename*=UTF-8''Book-p1.json"#),
        ("Café-p2.json", #"attachment; filename="Caf_-p2.json"; filename*=UTF-8''Caf%C3%A9-p2.json"#),
        (#"a"b\c;d e.json"#, #"attachment; filename="a_b_c;d e.json"; filename*=UTF-8''a%22b%5Cc%3Bd%20e.json"#),
    ])
    func fileNamesAreQuotedAndEncoded(name: String, header: String) {
        #expect(BrowserRoutes.attachment(filename: name) == header)
    }
}

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
