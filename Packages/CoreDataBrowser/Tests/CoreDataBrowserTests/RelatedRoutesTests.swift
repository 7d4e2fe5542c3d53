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
