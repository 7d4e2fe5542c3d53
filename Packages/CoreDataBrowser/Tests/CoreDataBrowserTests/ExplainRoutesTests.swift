import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// `GET /api/entities/:name/explain` over real HTTP: on the in-memory demo (no SQL to show, said so), on a real
/// Core Data store file (the page's SQL with its values and plan), and its refusals.
extension EndToEndTests {
    @Test func theDemoStoreSaysItHasNoQueryToShow() async throws {
        let reply = try await client.get("/api/entities/Book/explain?sort=title&limit=10")
        #expect(reply.status == 200)
        let explained = try reply.object()
        #expect(explained["engine"] as? String == "InMemoryStore")
        #expect((explained["steps"] as? [String])?.first?.hasPrefix("This store filters, sorts and pages its records in its own code") == true)
        #expect((explained["statements"] as? [Any])?.isEmpty == true)
        #expect(explained["total"] as? Int == 12 + 2 + DemoLibrary.generatedBookCount)
    }

    @Test func aSearchNamingARecordIsExplainedAsSuch() async throws {
        let explained = try await client.get("/api/entities/Book/explain?search=p3").object()
        #expect((explained["steps"] as? [String])?.first?.hasPrefix("The search names a record by its ID (p3)") == true)
        #expect(explained["total"] as? Int == 1)
    }

    @Test(arguments: [
        ("/api/entities/Book/explain?sort=nope", 400, "Cannot sort Book by \"nope\": it is not an attribute of Book"),
        ("/api/entities/Book/explain?limit=0", 400, "limit must be a positive integer, got \"0\""),
        ("/api/entities/Nope/explain", 404, "No entity named \"Nope\""),
    ])
    func badExplainsAreRefusedPrecisely(path: String, status: Int, message: String) async throws {
        let reply = try await client.get(path)
        #expect(reply.status == status)
        #expect(try reply.object()["error"] as? String == message)
    }
}

extension StoreFileEndToEndTests {
    @Test func aStoreFilesPageIsExplainedWithItsSQLAndPlan() async throws {
        let (server, client) = try Self.serve("wibosco-migration/CoreDataMigration_Example_3.sqlite")
        defer { server.stop() }
        let explained = try await client.get("/api/entities/Post/explain?sort=date&order=desc&limit=5&offset=10").object()
        #expect((explained["engine"] as? String)?.hasPrefix("SQLite 3.") == true)
        #expect(explained["total"] as? Int == 7995)
        let statements = try #require(explained["statements"] as? [[String: Any]])
        // The entity's count runs first (the page's total, which the planner reads); then the page.
        let page = try #require(statements.first { ($0["sql"] as? String)?.hasSuffix("LIMIT ? OFFSET ?") == true })
        #expect((page["sql"] as? String)?.hasSuffix("ORDER BY \"ZPOST\".\"ZDATE\" DESC, \"ZPOST\".\"Z_PK\" DESC LIMIT ? OFFSET ?") == true)
        #expect(page["arguments"] as? [String] == ["5", "10"])
        #expect(page["rows"] as? Int == 5)
        #expect((page["plan"] as? [String])?.isEmpty == false)
    }
}
