import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// `GET /api/entities/:name/facets` over real HTTP on the demo library: counts that add up, the list's filter
/// applied, the histogram of a number, and precise refusals.
extension EndToEndTests {
    @Test func aFacetCountsTheListsValues() async throws {
        let reply = try await client.get("/api/entities/Book/facets?attr=inPrint")
        #expect(reply.status == 200)
        #expect(reply.header("Cache-Control") == "no-store")
        let facet = try reply.object()
        let total = try #require(facet["total"] as? Int)
        #expect(total == 12 + 2 + DemoLibrary.generatedBookCount)
        let top = try #require(facet["top"] as? [[String: Any]])
        #expect(Set(top.compactMap { $0["value"] as? Bool }) == [true, false])
        #expect(top.compactMap { $0["count"] as? Int }.reduce(0, +) + (facet["nulls"] as? Int ?? -1) == total)
        #expect(facet["distinct"] as? Int == 2 && facet["distinctExact"] as? Bool == true)
        #expect(facet["histogram"] is NSNull && facet["min"] is NSNull)
    }

    @Test func aNumberFacetHasItsRangeAndHistogramAndFollowsTheSearch() async throws {
        let all = try await client.get("/api/entities/Book/facets?attr=pageCount&buckets=5").object()
        let buckets = try #require(all["histogram"] as? [[String: Any]])
        #expect(buckets.count <= 5 && !buckets.isEmpty)
        #expect(buckets.compactMap { $0["count"] as? Int }.reduce(0, +) == (all["total"] as? Int ?? 0) - (all["nulls"] as? Int ?? 0))
        #expect(buckets.first?["from"] as? Int == all["min"] as? Int)

        let searched = try await client.get("/api/entities/Book/facets?attr=pageCount&search=zola").object()
        let page = try await client.get("/api/entities/Book?search=zola&limit=1").object()
        #expect(searched["total"] as? Int == page["total"] as? Int)
    }

    @Test(arguments: [
        ("/api/entities/Book/facets", 400, "attr is required: the attribute whose values to count"),
        ("/api/entities/Book/facets?attr=nope", 400, "Cannot count Book.nope: it is not an attribute of Book"),
        ("/api/entities/Book/facets?attr=cover", 400, "Cannot count the values of Book.cover: a Binary attribute holds opaque data; facets count String, number, date, Boolean, UUID and URI attributes"),
        ("/api/entities/Book/facets?attr=title&top=0", 400, "top must be a whole number from 1 to 50, got \"0\""),
        ("/api/entities/Book/facets?attr=title&top=51", 400, "top must be a whole number from 1 to 50, got \"51\""),
        ("/api/entities/Book/facets?attr=pageCount&buckets=x", 400, "buckets must be a whole number from 1 to 100, got \"x\""),
        ("/api/entities/Nope/facets?attr=title", 404, "No entity named \"Nope\""),
    ])
    func badFacetsAreRefusedPrecisely(path: String, status: Int, message: String) async throws {
        let reply = try await client.get(path)
        #expect(reply.status == status)
        #expect(try reply.object()["error"] as? String == message)
    }
}

extension StoreFileEndToEndTests {
    @Test func aStoreFilesFacetIsCountedInSQL() async throws {
        let (server, client) = try Self.serve("wibosco-migration/CoreDataMigration_Example_3.sqlite")
        defer { server.stop() }
        let entities = try await client.get("/api/entities").array()
        let entity = try #require(entities.first { ($0["count"] as? Int ?? 0) > 0 })
        let name = try #require(entity["name"] as? String)
        let attribute = try #require((entity["attributes"] as? [[String: Any]])?.first { $0["type"] as? String == "String" }?["name"] as? String)
        let facet = try await client.get("/api/entities/\(name)/facets?attr=\(attribute)").object()
        #expect(facet["total"] as? Int == entity["count"] as? Int)
        let counted = (facet["top"] as? [[String: Any]] ?? []).compactMap { $0["count"] as? Int }.reduce(0, +)
        #expect(counted + (facet["others"] as? Int ?? -1) + (facet["nulls"] as? Int ?? -1) == entity["count"] as? Int)
    }
}
