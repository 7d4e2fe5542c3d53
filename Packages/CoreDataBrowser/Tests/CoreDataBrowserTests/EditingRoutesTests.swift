import BrowserCore
import BrowserMemory
import CoreDataBrowser
import Foundation
import Testing

/// Writes over real HTTP (docs/API.md "Editing") on a fresh demo library per test: the routes exist only with writes
/// on; each write is checked against the model (422 per field), names the version it read (409 otherwise), keeps
/// both sides of every relationship and answers the record as it is afterwards; a delete follows the delete rules;
/// every refusal writes nothing.
struct EditingRoutesTests {
    static let store = DemoLibrary.storeIdentifier
    static func id(_ entity: String, _ key: Int) -> String { "x-coredata://\(store)/\(entity)/p\(key)" }

    /// A server on a new demo library, with writes on unless `writable` is false.
    static func serve(writable: Bool = true, _ configure: (inout CoreDataBrowserServer.Options) -> Void = { _ in }) async throws
        -> (CoreDataBrowserServer, TestClient) {
        var options = CoreDataBrowserServer.Options.forTests()
        options.readOnly = !writable
        configure(&options)
        let server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        let port = try server.start().port
        return (server, TestClient(base: try #require(URL(string: "http://127.0.0.1:\(port)"))))
    }

    static let json = ["Content-Type": "application/json"]

    static func patch(_ client: TestClient, _ id: String, _ body: String, headers: [String: String] = json) async throws -> TestClient.Reply {
        try await client.request("/api/object?id=" + TestClient.encode(id), method: "PATCH", headers: headers, body: Data(body.utf8))
    }

    static func object(_ client: TestClient, _ id: String) async throws -> [String: Any] {
        try await client.get("/api/object?id=" + TestClient.encode(id)).object()
    }

    static func relationship(_ object: [String: Any], _ name: String) throws -> [String: Any] {
        try #require((object["relationships"] as? [[String: Any]])?.first { $0["name"] as? String == name })
    }

    static func itemIDs(_ object: [String: Any], _ name: String) throws -> [String] {
        try (relationship(object, name)["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func fields(_ reply: TestClient.Reply) throws -> [String: String] {
        let problems = try #require(try reply.object()["fields"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: problems.map { ($0["field"] as? String ?? "", $0["message"] as? String ?? "") })
    }

    @Test func aReadOnlyServerHasNoWriteRoutes() async throws {
        let (server, client) = try await Self.serve(writable: false)
        defer { server.stop() }
        let health = try await client.get("/api/health").object()
        #expect(health["readOnly"] as? Bool == true)
        #expect(health["capabilities"] as? [String] == ["read"])
        let book = Self.id("Book", 1)
        let patched = try await Self.patch(client, book, #"{"attrs": {"title": "X"}, "version": 1}"#)
        #expect(patched.status == 405)
        #expect(patched.header("Allow") == "GET, HEAD")
        #expect(try await client.request("/api/object?id=" + TestClient.encode(book) + "&version=1", method: "DELETE").status == 405)
        #expect(try await client.request("/api/entities/Tag", method: "POST", headers: Self.json, body: Data(#"{"attrs": {"name": "x"}}"#.utf8)).status == 405)
        #expect(try await client.get("/api/object/delete-preview?id=" + TestClient.encode(book)).status == 404)
        #expect(try await Self.object(client, book)["version"] == nil, "no version is shown where nothing can be written")
    }

    @Test func anUpdateAnswersTheRecordAfterwardsWithItsNextVersion() async throws {
        let (server, client) = try await Self.serve()
        defer { server.stop() }
        let health = try await client.get("/api/health").object()
        #expect(health["readOnly"] as? Bool == false)
        #expect(health["capabilities"] as? [String] == ["read", "write"])
        let book = Self.id("Book", 1)
        let before = try await Self.object(client, book)
        #expect(before["version"] as? Int == 1)

        let reply = try await Self.patch(client, book, #"{"attrs": {"title": "Renamed", "pageCount": 321, "summary": null, "publishedAt": "2020-03-01"}, "version": 1}"#)
        #expect(reply.status == 200)
        let after = try reply.object()
        #expect(after["version"] as? Int == 2)
        let attrs = try #require(after["attrs"] as? [String: Any])
        #expect(attrs["title"] as? String == "Renamed")
        #expect(attrs["pageCount"] as? Int == 321)
        #expect(attrs["summary"] is NSNull)
        #expect(attrs["publishedAt"] as? String == "2020-03-01T00:00:00Z")
        // The list reads the same store.
        let listed = try await client.get("/api/entities/Book?search=Renamed").object()
        #expect(listed["total"] as? Int == 1)

        // The version read before is stale now: 409 with both versions, and nothing written.
        let stale = try await Self.patch(client, book, #"{"attrs": {"title": "Lost"}, "version": 1}"#)
        #expect(stale.status == 409)
        #expect(try stale.object()["expectedVersion"] as? Int == 1)
        #expect(try stale.object()["currentVersion"] as? Int == 2)
        #expect((try await Self.object(client, book)["attrs"] as? [String: Any])?["title"] as? String == "Renamed")
    }

    @Test func settingAToOneMovesTheRecordBetweenInverseToManys() async throws {
        let (server, client) = try await Self.serve()
        defer { server.stop() }
        let book = Self.id("Book", 1)
        let oldAuthor = try #require(try Self.itemIDs(try await Self.object(client, book), "author").first)
        let newAuthor = [Self.id("Author", 1), Self.id("Author", 2), Self.id("Author", 3)].first { $0 != oldAuthor }!
        let oldCount = try Self.relationship(try await Self.object(client, oldAuthor), "books")["count"] as? Int
        let newCount = try Self.relationship(try await Self.object(client, newAuthor), "books")["count"] as? Int

        let reply = try await Self.patch(client, book, #"{"relationships": {"author": "\#(newAuthor)"}, "version": 1}"#)
        #expect(reply.status == 200)
        #expect(try Self.itemIDs(try reply.object(), "author") == [newAuthor])
        let oldAfter = try await Self.object(client, oldAuthor)
        let newAfter = try await Self.object(client, newAuthor)
        #expect(try Self.relationship(oldAfter, "books")["count"] as? Int == oldCount.map { $0 - 1 })
        #expect(try Self.relationship(newAfter, "books")["count"] as? Int == newCount.map { $0 + 1 })
        // Both authors' relationships changed, so each has a new version; so has the book.
        #expect(oldAfter["version"] as? Int == 2)
        #expect(newAfter["version"] as? Int == 2)
        #expect(try reply.object()["version"] as? Int == 2)

        // Clearing it empties the inverse side too.
        let cleared = try await Self.patch(client, book, #"{"relationships": {"author": null}, "version": 2}"#)
        #expect(cleared.status == 200)
        #expect(try Self.relationship(try cleared.object(), "author")["count"] as? Int == 0)
        #expect(try Self.relationship(try await Self.object(client, newAuthor), "books")["count"] as? Int == newCount)
    }

    @Test func aToManyIsReplacedWholeAndItsInversesFollow() async throws {
        let (server, client) = try await Self.serve()
        defer { server.stop() }
        let book = Self.id("Book", 2)
        let tags = [Self.id("Tag", 4), Self.id("Tag", 5)]
        let tagCounts = try await tags.asyncMap { try Self.relationship(try await Self.object(client, $0), "books")["count"] as? Int ?? -1 }
        let oldTags = try Self.itemIDs(try await Self.object(client, book), "tags")
        let reply = try await Self.patch(client, book, #"{"relationships": {"tags": ["\#(tags[0])", "\#(tags[1])"]}, "version": 1}"#)
        #expect(reply.status == 200)
        #expect(try Self.itemIDs(try reply.object(), "tags").sorted() == tags.sorted())
        for (tag, count) in zip(tags, tagCounts) where !oldTags.contains(tag) {
            let after = try await Self.object(client, tag)
            #expect(try Self.relationship(after, "books")["count"] as? Int == count + 1)
            #expect(try Self.itemIDs(after, "books").contains(book))
        }
        for tag in oldTags where !tags.contains(tag) {
            #expect(try !Self.itemIDs(try await Self.object(client, tag), "books").contains(book))
        }
    }

    @Test func everyRefusedFieldIsNamedAndNothingIsWritten() async throws {
        let (server, client) = try await Self.serve()
        defer { server.stop() }
        let audio = try #require(try await client.get("/api/entities/AudioBook?limit=1").object()["rows"] as? [[String: Any]]).first?["id"] as? String
        let audioBook = try #require(audio)
        let body = #"""
            {"attrs": {"title": null, "pageCount": "many", "durationMinutes": 40000, "shelf": 3, "cover": "AAAA", "identifier": "not-a-uuid"},
             "relationships": {"tags": "\#(Self.id("Tag", 1))", "author": "\#(Self.id("Tag", 1))", "readers": []},
             "version": 1}
            """#
        let reply = try await Self.patch(client, audioBook, body)
        #expect(reply.status == 422)
        let fields = try Self.fields(reply)
        #expect(Set(fields.keys) == ["attrs.title", "attrs.pageCount", "attrs.durationMinutes", "attrs.shelf", "attrs.cover",
                                     "attrs.identifier", "relationships.tags", "relationships.author", "relationships.readers"])
        #expect(fields["attrs.title"] == "required: the model does not let it be nil")
        #expect(fields["attrs.durationMinutes"] == "40000 does not fit an Integer 16 (-32768 to 32767)")
        #expect(fields["attrs.shelf"] == "AudioBook has no attribute \"shelf\"")
        #expect(fields["attrs.cover"] == "Binary values cannot be edited here, only cleared with null")
        #expect(fields["relationships.tags"] == "a to-many relationship takes an array of object IDs ([] empties it)")
        #expect(fields["relationships.author"]?.contains("is a Tag; author holds Author records") == true)
        #expect(try await Self.object(client, audioBook)["version"] as? Int == 1)

        // A target of the right entity that the store does not have: the store's own 422, nothing written.
        let missing = try await Self.patch(client, audioBook,
            #"{"attrs": {"title": "Changed"}, "relationships": {"author": "\#(Self.id("Author", 999))"}, "version": 1}"#)
        #expect(missing.status == 422)
        #expect(try Self.fields(missing)["relationships.author"] == "no record \(Self.id("Author", 999)) in this store")
        let unchanged = try await Self.object(client, audioBook)
        #expect(unchanged["version"] as? Int == 1)
        #expect((unchanged["attrs"] as? [String: Any])?["title"] as? String != "Changed")
    }

    @Test func malformedWritesAreRefusedBeforeValidation() async throws {
        let (server, client) = try await Self.serve()
        defer { server.stop() }
        let book = Self.id("Book", 1)
        let cases: [(String, [String: String], Int, String)] = [
            (#"{"attrs": {"title": "x"}}"#, Self.json, 400, "Missing \"version\""),
            (#"{"version": 1}"#, Self.json, 400, "The body changes nothing"),
            (#"{"attrs": {"title": "x"}, "version": 1, "extra": true}"#, Self.json, 400, "unknown key"),
            (#"{"attrs": {"title": ["x"]}, "version": 1}"#, Self.json, 400, "attrs.title"),
            ("{not json", Self.json, 400, "Body:"),
            ("", Self.json, 400, "Body: empty"),
            (#"{"attrs": {"title": "x"}, "version": 1}"#, ["Content-Type": "text/plain"], 415, "Content-Type: application/json"),
        ]
        for (body, headers, status, message) in cases {
            let reply = try await Self.patch(client, book, body, headers: headers)
            #expect(reply.status == status, "\(body)")
            #expect((try reply.object()["error"] as? String)?.contains(message) == true, "\(body): \(String(decoding: reply.body, as: UTF8.self))")
        }
        let large = #"{"attrs": {"summary": ""# + String(repeating: "x", count: 1024 * 1024) + #""}, "version": 1}"#
        #expect(try await Self.patch(client, book, large).status == 413)
        #expect(try await Self.patch(client, Self.id("Ghost", 1), #"{"attrs": {"x": 1}, "version": 1}"#).status == 404)
        #expect(try await Self.patch(client, Self.id("Book", 9999), #"{"attrs": {"title": "x"}, "version": 1}"#).status == 404)
        #expect(try await client.request("/api/object?id=" + TestClient.encode(book), method: "DELETE").status == 400)
        #expect(try await client.request("/api/object?id=" + TestClient.encode(book) + "&version=one", method: "DELETE").status == 400)
        #expect(try await Self.object(client, book)["version"] as? Int == 1)
    }

    @Test func aNewRecordGetsTheNextKeyAndItsRelationshipsBothWays() async throws {
        let (server, client) = try await Self.serve()
        defer { server.stop() }
        let author = Self.id("Author", 2)
        let booksBefore = try Self.relationship(try await Self.object(client, author), "books")["count"] as? Int ?? -1
        let tagBooksBefore = try Self.relationship(try await Self.object(client, Self.id("Tag", 1)), "books")["count"] as? Int ?? -1
        let body = #"""
            {"attrs": {"title": "Fresh", "pageCount": 10, "identifier": "5B8E7A6C-0D2F-4E3B-9C1A-7F6E5D4C3B2A", "inPrint": true},
             "relationships": {"author": "\#(author)", "tags": ["\#(Self.id("Tag", 1))"]}}
            """#
        let reply = try await client.request("/api/entities/Book", method: "POST", headers: Self.json, body: Data(body.utf8))
        #expect(reply.status == 201)
        let created = try reply.object()
        let total = 12 + 2 + DemoLibrary.generatedBookCount
        #expect(created["id"] as? String == Self.id("Book", total + 1))
        #expect(created["version"] as? Int == 1)
        #expect((created["attrs"] as? [String: Any])?["title"] as? String == "Fresh")
        #expect(try Self.itemIDs(created, "author") == [author])
        #expect(try Self.relationship(try await Self.object(client, author), "books")["count"] as? Int == booksBefore + 1)
        #expect(try Self.relationship(try await Self.object(client, Self.id("Tag", 1)), "books")["count"] as? Int == tagBooksBefore + 1)

        // Required attributes without defaults are named, all at once; an abstract or unknown entity is refused.
        let incomplete = try await client.request("/api/entities/AudioBook", method: "POST", headers: Self.json, body: Data(#"{"attrs": {"title": "Half"}}"#.utf8))
        #expect(incomplete.status == 422)
        #expect(Set(try Self.fields(incomplete).keys) == ["attrs.pageCount", "attrs.identifier", "attrs.inPrint", "attrs.durationMinutes"])
        #expect(try await client.request("/api/entities/Ghost", method: "POST", headers: Self.json, body: Data("{}".utf8)).status == 404)
        let versioned = try await client.request("/api/entities/Tag", method: "POST", headers: Self.json, body: Data(#"{"attrs": {"name": "x"}, "version": 1}"#.utf8))
        #expect(versioned.status == 400)
        #expect(try await client.get("/api/entities/Book?limit=1").object()["total"] as? Int == total + 1)
    }

    @Test func aDeleteFollowsTheDeleteRulesItsPreviewAnnounced() async throws {
        let (server, client) = try await Self.serve()
        defer { server.stop() }
        let author = Self.id("Author", 1)
        let books = try Self.relationship(try await Self.object(client, author), "books")["count"] as? Int ?? -1
        #expect(books > 0)
        let preview = try await client.get("/api/object/delete-preview?id=" + TestClient.encode(author))
        #expect(preview.status == 200)
        let effects = try preview.object()
        // Author.books cascades: every book goes (AudioBooks counted as such), and each book's tags lose it.
        let cascades = try #require(effects["cascades"] as? [[String: Any]])
        #expect(cascades.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == books)
        let clears = try #require(effects["clears"] as? [[String: Any]])
        #expect(clears.map { "\($0["entity"] ?? "").\($0["relationship"] ?? "")" } == ["Tag.books"])
        #expect((effects["blockedBy"] as? [Any])?.isEmpty == true)
        let tagBooks = try await (1...5).asyncMap { try Self.relationship(try await Self.object(client, Self.id("Tag", $0)), "books")["count"] as? Int ?? 0 }

        #expect(try await client.request("/api/object?id=" + TestClient.encode(author) + "&version=7", method: "DELETE").status == 409)
        let deleted = try await client.request("/api/object?id=" + TestClient.encode(author) + "&version=1", method: "DELETE")
        #expect(deleted.status == 200)
        #expect(deleted.body == preview.body)
        #expect(try await client.get("/api/object?id=" + TestClient.encode(author)).status == 404)
        let cleared = clears.first?["count"] as? Int ?? -1
        let tagBooksAfter = try await (1...5).asyncMap { try Self.relationship(try await Self.object(client, Self.id("Tag", $0)), "books")["count"] as? Int ?? 0 }
        // Counted in tags that lost books, not in links.
        #expect(zip(tagBooks, tagBooksAfter).filter { $0 > $1 }.count == cleared)
        #expect(try await client.get("/api/entities/Author").object()["total"] as? Int == 2)
    }

    @Test func writesNeedTheTokenAndTheSameOriginAndWriteNothingOtherwise() async throws {
        let (server, client) = try await Self.serve { $0.pairingToken = .token("edit-token-0123456789abcdef") }
        defer { server.stop() }
        let book = Self.id("Book", 1)
        let body = #"{"attrs": {"title": "Forged"}, "version": 1}"#
        let anonymous = try await Self.patch(client, book, body)
        #expect(anonymous.status == 401)
        let bearer = ["Authorization": "Bearer edit-token-0123456789abcdef"]
        let crossSite = try await Self.patch(client, book, body, headers: Self.json.merging(bearer) { $1 }
            .merging(["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"]) { $1 })
        #expect(crossSite.status == 403)
        let formPost = try await Self.patch(client, book, "title=Forged", headers: bearer.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 })
        #expect(formPost.status == 415)
        let read = try await client.request("/api/object?id=" + TestClient.encode(book), headers: bearer).object()
        #expect(read["version"] as? Int == 1)
        #expect((read["attrs"] as? [String: Any])?["title"] as? String != "Forged")
        #expect(try await Self.patch(client, book, body, headers: Self.json.merging(bearer) { $1 }).status == 200)
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
