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

    @Test func aFacetWithWhereCountsTheFilteredRecords() async throws {
        let predicate = "pageCount > 300 AND rating != nil"
        let filter = TestClient.encode(predicate)
        let facet = try await client.get("/api/entities/Book/facets?attr=rating&top=50&where=\(filter)").object()
        // The filtered records, read through the list with the same where=, counted here.
        // Keyed by the value as JSON has it: a number, or the text of a non-finite Double ("NaN").
        func key(_ value: Any?) -> String? {
            if let number = value as? NSNumber { return "\(number.doubleValue)" }
            return value as? String
        }
        var counts: [String: Int] = [:]
        var nulls = 0
        var offset = 0
        var total = 0
        repeat {
            let page = try await client.get("/api/entities/Book?where=\(filter)&limit=500&offset=\(offset)").object()
            total = try #require(page["total"] as? Int)
            let rows = try #require(page["rows"] as? [[String: Any]])
            for row in rows {
                let rating = (row["attrs"] as? [String: Any])?["rating"]
                if let value = key(rating) { counts[value, default: 0] += 1 } else if rating is NSNull { nulls += 1 }
            }
            offset += rows.count
            if rows.isEmpty { break }
        } while offset < total
        let all = try #require(try await client.get("/api/entities/Book?limit=1").object()["total"] as? Int)
        #expect(total > 0 && total < all, "the filter keeps some books, not all")
        #expect(facet["total"] as? Int == total)
        #expect(facet["nulls"] as? Int == nulls && nulls == 0, "rating != nil keeps no nil")
        #expect(counts.values.reduce(0, +) == total)
        let top = try #require(facet["top"] as? [[String: Any]])
        #expect(!top.isEmpty && facet["distinct"] as? Int == counts.count)
        for entry in top {
            let value = try #require(key(entry["value"]))
            #expect(entry["count"] as? Int == counts[value], "rating \(value)")
        }
        // The most frequent values, so nothing left out counts more than the last one shown.
        #expect(counts.values.sorted(by: >).prefix(top.count).map { $0 } == top.compactMap { $0["count"] as? Int })
        #expect(facet["others"] as? Int == total - top.compactMap { $0["count"] as? Int }.reduce(0, +))
        #expect(facet["cut"] is NSNull)
    }

    @Test func aFacetPastItsTimeLimitAnswersTheRecordsItLookedAtMarkedCut() async throws {
        // The demo store counts in Swift: with no time at all it looks at no record, and says so (200, not 503).
        var options = CoreDataBrowserServer.Options.forTests()
        options.facetTimeBudget = 0
        let server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        defer { server.stop() }
        let client = TestClient(base: try #require(try server.start().urls.first))
        let reply = try await client.get("/api/entities/Book/facets?attr=pageCount&where=\(TestClient.encode("pageCount > 100"))")
        #expect(reply.status == 200)
        let facet = try reply.object()
        #expect(facet["cut"] as? String == "records")
        #expect(facet["sampled"] as? Int == 0 && facet["nulls"] as? Int == 0 && (facet["top"] as? [Any])?.isEmpty == true)
        let page = try await client.get("/api/entities/Book?limit=1&where=\(TestClient.encode("pageCount > 100"))").object()
        #expect(facet["total"] as? Int == page["total"] as? Int)
        #expect((facet["notes"] as? [String])?.first?.contains("time limit") == true)
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
    @Test func aStoreFilesFacetPastItsTimeLimitIsCutNotA503() async throws {
        let (server, client) = try Self.serve("wibosco-migration/CoreDataMigration_Example_3.sqlite") { $0.facetTimeBudget = 0 }
        defer { server.stop() }
        let entities = try await client.get("/api/entities").array()
        let entity = try #require(entities.first { ($0["count"] as? Int ?? 0) > 0 })
        let name = try #require(entity["name"] as? String)
        let attribute = try #require((entity["attributes"] as? [[String: Any]])?.first { $0["type"] as? String == "String" }?["name"] as? String)
        let reply = try await client.get("/api/entities/\(name)/facets?attr=\(attribute)&where=\(TestClient.encode("\(attribute) != nil"))")
        #expect(reply.status == 200)
        let facet = try reply.object()
        #expect(facet["cut"] as? String == "total")
        for key in ["total", "nulls", "distinct", "distinctExact", "others", "min", "max", "histogram"] {
            #expect(facet[key] is NSNull, "\(key)")
        }
        #expect((facet["top"] as? [Any])?.isEmpty == true)
        #expect((facet["notes"] as? [String])?.first?.contains("time limit") == true)
        // The same server, the same facet with time: whole.
        let (timely, timelyClient) = try Self.serve("wibosco-migration/CoreDataMigration_Example_3.sqlite")
        defer { timely.stop() }
        let whole = try await timelyClient.get("/api/entities/\(name)/facets?attr=\(attribute)&where=\(TestClient.encode("\(attribute) != nil"))").object()
        #expect(whole["cut"] is NSNull && whole["total"] is Int)
    }

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
