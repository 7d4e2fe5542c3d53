import BrowserCore
import BrowserMemory
import CoreDataBrowser
import Foundation
import Testing

/// `/api/model`, `/api/model/versions`, `/api/model/diff` and the `/model` page over a real socket, on the end-to-end
/// suite's server of the demo library (a model built in code: no versions, and what its schema does not carry is
/// said to be unknown).
/// The fixture stores' models and versions are tested in BrowserSQLite (ModelDescriptionFixtureTests,
/// ModelVersionFixtureTests) and in the browser (scripts/ui-tests/test_model*.py).
extension EndToEndTests {
    @Test func theModelListsEachEntityWithWhatItDeclaresItsCountAndWhatIsUnknown() async throws {
        let reply = try await client.get("/api/model")
        #expect(reply.status == 200)
        #expect(reply.header("Cache-Control") == "no-store")
        let model = try reply.object()
        let entities = try #require(model["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["AudioBook", "Author", "Book", "Tag"])
        let book = try #require(entities.first { $0["name"] as? String == "Book" })
        #expect(book["subentities"] as? [String] == ["AudioBook"])
        #expect(book["count"] as? Int == 12 + 2 + DemoLibrary.generatedBookCount)
        // Keys a source cannot fill are present, null, and explained.
        #expect(book.keys.contains("className") && book["className"] is NSNull)
        let unknown = try #require(model["unknown"] as? [String: String])
        #expect(unknown["entity.className"] != nil && unknown["attribute.defaultValue"] != nil)
        let audio = try #require(entities.first { $0["name"] as? String == "AudioBook" })
        #expect((audio["attributes"] as? [[String: Any]])?.map { $0["name"] as? String } == ["durationMinutes", "narrator"])
    }

    @Test func aModelWithoutVersionsSaysSoAndDiffsAreRefused() async throws {
        let versions = try await client.get("/api/model/versions").object()
        #expect(versions["available"] as? Bool == false)
        #expect((versions["reason"] as? String)?.contains("versioned model file") == true)
        #expect(try await client.get("/api/model/diff").status == 400)
        #expect(try await client.get("/api/model/diff?from=a&to=b").status == 404)
        #expect(try await client.get("/api/model?version=v1").status == 404)
    }

    @Test func theModelPageIsServedWithThePolicy() async throws {
        let page = try await client.get("/model")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        for file in ["/pages/model/model.js", "/pages/model/layout.js", "/pages/model/drawing.js", "/pages/model/details.js",
                     "/pages/model/export.js", "/pages/model/versions.js", "/pages/model/model.css"] {
            #expect(try await client.get(file).status == 200, "\(file)")
        }
    }
}
