import BrowserCore
import BrowserMemory
import BrowserWebAssets
import CoreDataBrowser
import Foundation
import Testing

/// The plan's curl checks as assertions, against a real server on 127.0.0.1 serving the demo library.
@Suite(.serialized)
final class EndToEndTests {
    let server: CoreDataBrowserServer
    let client: TestClient

    init() async throws {
        server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: .forTests())
        let info = try server.start()
        client = TestClient(base: try #require(info.urls.first))
    }

    deinit { server.stop() }

    @Test func entitiesAreListedByNameWithCountsIncludingSubEntities() async throws {
        let reply = try await client.get("/api/entities")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
        let entities = try reply.array()
        #expect(entities.map { $0["name"] as? String } == ["AudioBook", "Author", "Book", "Tag"])
        #expect(entities.map { $0["count"] as? Int } == [2, 3, 12 + 2 + DemoLibrary.generatedBookCount, 5])
        let book = try #require(entities.first { $0["name"] as? String == "Book" })
        let attributes = try #require(book["attributes"] as? [[String: Any]])
        #expect(attributes.map { $0["name"] as? String } == ["cover", "identifier", "inPrint", "pageCount", "price", "publishedAt", "rating", "summary", "title", "wordCount"])
        #expect(attributes.first { $0["name"] as? String == "pageCount" }?["type"] as? String == "Integer 32")
        let relationships = try #require(book["relationships"] as? [[String: Any]])
        #expect(relationships.map { $0["name"] as? String } == ["author", "tags"])
        #expect(relationships.map { $0["toMany"] as? Bool } == [false, true])
        #expect(entities.first { $0["name"] as? String == "AudioBook" }?["parent"] as? String == "Book")
    }

    @Test func aStoreWithoutHistoryOrUnsavedEditsSaysSoAndBadHistoryParametersAre400() async throws {
        let history = try await client.get("/api/history")
        #expect(history.status == 200)
        let page = try history.object()
        #expect(page["available"] as? Bool == false)
        #expect(page["reason"] as? String == "This store does not keep a history of its changes.")
        #expect((page["transactions"] as? [Any])?.isEmpty == true)
        let pending = try await client.get("/api/pending").object()
        #expect(pending["available"] as? Bool == false)
        #expect((pending["reason"] as? String)?.contains("Only a live context") == true)
        // Parameters are checked before the store is asked, so a store without history still refuses them.
        let bad = try await client.get("/api/history?before=1&after=2")
        #expect(bad.status == 400)
        #expect(try bad.object()["error"] as? String == "Pass at most one of before, after and transaction, got before and after")
        #expect(try await client.get("/api/history?entity=Ghost").status == 404)
        #expect(try await client.get("/history").header("Content-Type") == "text/html; charset=utf-8")
    }

    @Test func searchNarrowsCaseAndDiacriticInsensitively() async throws {
        let all = try await client.get("/api/entities/Book?limit=500").object()
        let narrowed = try await client.get("/api/entities/Book?search=the&limit=500").object()
        let total = try #require(all["total"] as? Int)
        let matches = try #require(narrowed["total"] as? Int)
        #expect(matches > 0 && matches < total)
        for row in try #require(narrowed["rows"] as? [[String: Any]]) {
            let attrs = try #require(row["attrs"] as? [String: Any])
            let text = [attrs["title"], attrs["summary"], attrs["narrator"]].compactMap { $0 as? String }.joined(separator: " ")
            #expect(TextFolding.contains(text, "the"), "\(text) does not contain \"the\"")
        }
        let accented = try await client.get("/api/entities/Book?searchAttr=title&search=" + TestClient.encode("CAFÉ")).object()
        let plain = try await client.get("/api/entities/Book?searchAttr=title&search=cafe").object()
        #expect(accented["total"] as? Int == 1)
        #expect((accented["rows"] as? [[String: Any]])?.first?["summary"] as? String == "The Café Catalogue")
        #expect(plain["total"] as? Int == 1)
        let plus = try await client.get("/api/entities/Book?searchAttr=title&search=the+long").object()
        #expect((plus["rows"] as? [[String: Any]])?.map { $0["summary"] as? String } == ["The Long Road"])
    }

    @Test func sortByPageCountDescendingOrdersRowsWithTheKeyAsTieBreaker() async throws {
        // Every book, in pages of 500 (the cap).
        func allRows(_ query: String) async throws -> (rows: [[String: Any]], total: Int?) {
            var rows: [[String: Any]] = []
            var total: Int?
            repeat {
                let page = try await client.get("/api/entities/Book?\(query)&limit=500&offset=\(rows.count)").object()
                total = page["total"] as? Int
                let more = try #require(page["rows"] as? [[String: Any]])
                if more.isEmpty { break }
                rows += more
            } while rows.count < (total ?? 0)
            return (rows, total)
        }
        let (rows, total) = try await allRows("sort=pageCount&order=desc")
        let counts = rows.compactMap { ($0["attrs"] as? [String: Any])?["pageCount"] as? Int }
        #expect(counts.count == rows.count && counts.count == total)
        #expect(counts == counts.sorted(by: >))
        let all = try await allRows("order=asc").rows.compactMap { ($0["attrs"] as? [String: Any])?["pageCount"] as? Int }
        #expect(counts.first == all.max())
        // Equal page counts keep primary-key order (descending, like the sort).
        let keys = rows.map { ($0["attrs"] as? [String: Any])?["pageCount"] as? Int ?? -1 }
        let ids = rows.compactMap { ($0["id"] as? String).flatMap { try? ObjectID(uri: $0).primaryKey } }
        #expect(ids.count == rows.count)
        for index in 1..<rows.count where keys[index] == keys[index - 1] {
            #expect(ids[index] < ids[index - 1])
        }
    }

    @Test func pagesAreDisjointAndJoinUpToTheLargerPage() async throws {
        func ids(_ query: String) async throws -> [String] {
            try #require(try await client.get("/api/entities/Book?" + query).object()["rows"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        }
        let first = try await ids("sort=title&limit=50&offset=0")
        let second = try await ids("sort=title&limit=50&offset=50")
        let both = try await ids("sort=title&limit=100&offset=0")
        #expect(first.count == 50 && second.count == 50)
        #expect(Set(first).isDisjoint(with: second))
        #expect(first + second == both)
        let page = try await client.get("/api/entities/Book?limit=5000").object()
        #expect(page["limit"] as? Int == 500)
        #expect((page["rows"] as? [Any])?.count == 500) // capped: the demo has more books than that
    }

    @Test func aBookShowsItsAuthorAndTagsAndTheAuthorListsItsBooks() async throws {
        let bookID = "x-coredata://\(DemoLibrary.storeIdentifier)/Book/p6"
        let book = try await client.get("/api/object?id=" + TestClient.encode(bookID)).object()
        #expect(book["id"] as? String == bookID)
        #expect(book["entity"] as? String == "Book")
        #expect(book["summary"] as? String == "Kindred")
        let attrs = try #require(book["attrs"] as? [String: Any])
        #expect(attrs["wordCount"] as? String == "9007199254740993")
        #expect(attrs["price"] as? String == "15.25")
        let cover = try #require(attrs["cover"] as? [String: Any])
        #expect(cover["type"] as? String == "binary")
        #expect(cover["bytes"] as? Int == 10_508)  // a 48×72 RGB PNG, pixels in stored deflate blocks
        let relationships = try #require(book["relationships"] as? [[String: Any]])
        #expect(relationships.map { $0["name"] as? String } == ["author", "tags"])
        let author = try #require(relationships[0]["items"] as? [[String: Any]])
        #expect(relationships[0]["count"] as? Int == 1)
        #expect(author.map { $0["summary"] as? String } == ["Octavia Butler"])
        #expect((relationships[1]["items"] as? [[String: Any]])?.map { $0["summary"] as? String } == ["science", "fiction"])

        let authorID = try #require(author.first?["id"] as? String)
        let authorObject = try await client.get("/api/object?id=" + TestClient.encode(authorID)).object()
        let books = try #require((authorObject["relationships"] as? [[String: Any]])?.first)
        #expect(books["name"] as? String == "books")
        #expect((books["count"] as? Int ?? 0) > 20)
        #expect((books["items"] as? [Any])?.count == 20)
        #expect((books["items"] as? [[String: Any]])?.contains { $0["id"] as? String == bookID } == true)
    }

    @Test func exportIsTheObjectAsAnAttachment() async throws {
        let id = TestClient.encode("x-coredata://\(DemoLibrary.storeIdentifier)/Book/p1")
        let export = try await client.get("/api/object/export?id=" + id)
        let object = try await client.get("/api/object?id=" + id)
        #expect(export.status == 200)
        #expect(export.header("Content-Disposition") == #"attachment; filename="Book-p1.json"; filename*=UTF-8''Book-p1.json"#)
        #expect(export.header("Cache-Control") == "no-store")
        #expect(export.body == object.body)
    }

    static let errors: [(String, Int, String)] = [
        ("/api/entities/Nope", 404, #"No entity named "Nope""#),
        ("/api/entities/Book?limit=0", 400, #"limit must be a positive integer, got "0""#),
        ("/api/entities/Book?offset=-3", 400, #"offset must be a non-negative integer, got "-3""#),
        ("/api/entities/Book?sort=author", 400, #"Cannot sort Book by "author": it is not an attribute of Book"#),
        ("/api/entities/Book?order=sideways", 400, #"order must be "asc" or "desc", got "sideways""#),
        ("/api/entities/Book?search=x&searchAttr=pageCount", 400, "Cannot search Book.pageCount: it is a Integer 32 attribute, not a String"),
        ("/api/object", 400, "Missing id: pass ?id=<x-coredata URI> (URL-encoded)"),
        ("/api/object?id=Book%2Fp1", 400, #"Malformed id "Book/p1": expected x-coredata://<store>/<Entity>/p<number>"#),
        ("/api/object?id=x-coredata%3A%2F%2F\(DemoLibrary.storeIdentifier)%2FBook%2Fp99999", 404, "No record x-coredata://\(DemoLibrary.storeIdentifier)/Book/p99999"),
        ("/api/object?id=x-coredata%3A%2F%2FOTHER-STORE%2FBook%2Fp1", 404, "No record x-coredata://OTHER-STORE/Book/p1"),
        ("/api/object?id=x-coredata%3A%2F%2F\(DemoLibrary.storeIdentifier)%2FGhost%2Fp1", 404, #"No record x-coredata://\#(DemoLibrary.storeIdentifier)/Ghost/p1: the model has no entity "Ghost""#),
        ("/api/object?id=x-coredata%3A%2F%2F\(DemoLibrary.storeIdentifier)%2FAudioBook%2Fp1", 404, "No record x-coredata://\(DemoLibrary.storeIdentifier)/AudioBook/p1"),
        ("/api/nothing", 404, "No route for /api/nothing"),
    ]

    @Test("client mistakes get a JSON error with the right status", arguments: errors)
    func errorsAreJSON(path: String, status: Int, message: String) async throws {
        let reply = try await client.get(path)
        #expect(reply.status == status)
        #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
        #expect(try reply.object() as? [String: String] == ["error": message])
    }

    @Test("write methods are 405 with Allow while read-only", arguments: ["DELETE", "POST", "PUT", "PATCH"])
    func writesAreRefused(method: String) async throws {
        let reply = try await client.request("/api/object?id=x", method: method)
        #expect(reply.status == 405)
        #expect(reply.header("Allow") == "GET, HEAD")
        #expect((try reply.object()["error"] as? String)?.isEmpty == false)
    }

    @Test func headSendsGetsHeadersWithoutTheBody() async throws {
        let get = try await client.get("/api/entities")
        let head = try await client.request("/api/entities", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count))
    }

    @Test func staticFilesAreTheBytesOfWebWithTheirContentTypes() async throws {
        let expected: [(String, String, String)] = [
            ("/", "index.html", "text/html; charset=utf-8"),
            ("/pages/inspector/inspector.css", "pages/inspector/inspector.css", "text/css; charset=utf-8"),
            ("/pages/inspector/inspector.js", "pages/inspector/inspector.js", "text/javascript; charset=utf-8"),
            // A module in a subfolder of web/ is served under its path.
            ("/shared/api.js", "shared/api.js", "text/javascript; charset=utf-8"),
        ]
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("web")
        for (path, file, contentType) in expected {
            let reply = try await client.get(path)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.header("Content-Type") == contentType, "\(path)")
            #expect(reply.body == (try Data(contentsOf: web.appendingPathComponent(file))), "\(path) differs from web/\(file)")
        }
    }

    @Test func healthSaysReadOnly() async throws {
        let health = try await client.get("/api/health").object()
        #expect(health["ok"] as? Bool == true)
        #expect(health["readOnly"] as? Bool == true)
        #expect(health["capabilities"] as? [String] == ["read"])
    }
}
