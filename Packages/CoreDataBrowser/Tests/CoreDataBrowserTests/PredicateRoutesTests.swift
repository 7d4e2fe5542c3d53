import BrowserCore
import BrowserMemory
import Foundation
import Testing

/// Predicates over real HTTP on the demo library: `where=` on the list and wherever its parameters are taken
/// (explain, export, position), `POST …/query` with a JSON tree and its body checks, and the text mode's
/// `…/predicate` answer with canonical text, tree, errors with spans and the Swift code.
extension EndToEndTests {
    static let zolaOver500 = #"author.name BEGINSWITH[cd] "emile" AND pageCount > 500 AND NOT title BEGINSWITH "Generated""#

    static func titles(_ reply: TestClient.Reply) throws -> [String] {
        try #require(try reply.object()["rows"] as? [[String: Any]]).map { ($0["attrs"] as? [String: Any])?["title"] as? String ?? "" }
    }

    @Test func whereFiltersTheListThroughRelationshipsAndJoinsTheSearch() async throws {
        let reply = try await client.get("/api/entities/Book?sort=title&where=" + TestClient.encode(Self.zolaOver500))
        #expect(reply.status == 200)
        #expect(try Self.titles(reply) == ["Au Bonheur des Dames", "Germinal"])
        #expect(try reply.object()["total"] as? Int == 2)

        let untagged = try await client.get("/api/entities/Book?where=" + TestClient.encode("tags.@count == 0"))
        #expect(try Self.titles(untagged) == ["Zebra Stripes"])
        let searched = try await client.get("/api/entities/Book?search=germinal&where=" + TestClient.encode("pageCount > 0"))
        #expect(try Self.titles(searched) == ["Germinal"])
        let tagged = try await client.get("/api/entities/Book?sort=title&limit=500&where="
            + TestClient.encode("ANY tags.name ==[cd] \"CAFE CULTURE\" AND NONE tags.name == \"classic\""))
        #expect(try Self.titles(tagged) == (1...DemoLibrary.generatedBookCount).filter { $0 % 5 == 3 }
            .map { String(format: "Generated Book %03d", $0) } + ["The Café Catalogue"])
    }

    @Test func aRecordIDSelectsWhatTheRelationshipReaches() async throws {
        let ada = "x-coredata://\(DemoLibrary.storeIdentifier)/Author/p1"
        let books = try await client.get("/api/entities/Book?where=" + TestClient.encode("author == \"\(ada)\"")).object()
        // Ada's four named books and every third generated one.
        #expect(books["total"] as? Int == 4 + DemoLibrary.generatedBookCount / 3)
        let foreign = try await client.get("/api/entities/Book/predicate?where="
            + TestClient.encode("pageCount > 1 AND author != \"x-coredata://OTHER/Author/p1\"")).object()
        let problem = try #require((foreign["errors"] as? [[String: Any]])?.first)
        #expect(problem["offset"] as? Int == 18)
        #expect((problem["message"] as? String)?.contains("is a record of another store (OTHER)") == true)
    }

    @Test func thePostedTreeAnswersAsTheSameTextDoes() async throws {
        let tree = #"{"where": {"all": [{"keyPath": "author.name", "op": "BEGINSWITH", "options": "cd", "value": "emile"}, {"keyPath": "pageCount", "op": ">", "value": 500}, {"not": {"keyPath": "title", "op": "BEGINSWITH", "value": "Generated"}}]}}"#
        let posted = try await client.request("/api/entities/Book/query?sort=title", method: "POST",
                                              headers: ["Content-Type": "application/json"], body: Data(tree.utf8))
        #expect(posted.status == 200)
        let text = try await client.get("/api/entities/Book?sort=title&where=" + TestClient.encode(Self.zolaOver500))
        #expect(try posted.object()["total"] as? Int == 2)
        #expect(posted.body == text.body)
    }

    @Test func whereReachesExplainExportAndPosition() async throws {
        let condition = "&where=" + TestClient.encode("tags.@count == 0")
        let explained = try await client.get("/api/entities/Book/explain?limit=5" + condition).object()
        #expect(explained["total"] as? Int == 1)
        let export = try await client.get("/api/entities/Book/export?format=ndjson" + condition)
        #expect(export.status == 200)
        let lines = String(decoding: export.body, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("\"Zebra Stripes\"") == true)
        let zebra = try #require(try await client.get("/api/entities/Book?where=" + TestClient.encode("title == \"Zebra Stripes\""))
            .object()["rows"] as? [[String: Any]]).first?["id"] as? String
        let position = try await client.get("/api/entities/Book/position?id=" + TestClient.encode(try #require(zebra)) + condition).object()
        #expect(position["offset"] as? Int == 0)
        let notThere = try await client.get("/api/entities/Book/position?id=" + TestClient.encode(try #require(zebra))
            + "&where=" + TestClient.encode("tags.@count > 0"))
        #expect(notThere.status == 404)
    }

    @Test(arguments: [
        ("/api/entities/Book?where=" + TestClient.encode("pageCount >"), 400,
         "where: at 11: expected a value after > (a quoted string, a number, TRUE, FALSE, NIL or CAST(…, \"NSDate\")), found the end of the text"),
        ("/api/entities/Book?where=" + TestClient.encode("nope == 1"), 400, "In nope == 1: Book has no attribute or relationship \"nope\""),
        ("/api/entities/Book?where=" + TestClient.encode("cover CONTAINS \"png\""), 400,
         "In cover CONTAINS \"png\": cover is a Binary attribute: its values can only be compared with nil (== nil, != nil)"),
        ("/api/entities/Book/export?format=csv&where=" + TestClient.encode("title MATCHES \".*\""), 400,
         "where: at 6: expected an operator other than MATCHES (regular expressions are not supported: use LIKE with * and ?), found \"MATCHES\""),
        ("/api/entities/Book/explain?where=" + TestClient.encode("author == \"x-coredata://X/Tag/p1\""), 400,
         "In author == \"x-coredata://X/Tag/p1\": author leads to Author, and Tag p1 is not one"),
        ("/api/entities/Book?where=" + TestClient.encode("author == \"x-coredata://OTHER/Author/p1\""), 400,
         "In author == \"x-coredata://OTHER/Author/p1\": Author p1 is a record of another store (OTHER); this store is \(DemoLibrary.storeIdentifier)"),
    ])
    func malformedPredicatesAre400WithAPreciseMessage(path: String, status: Int, message: String) async throws {
        let reply = try await client.get(path)
        #expect(reply.status == status)
        #expect(try reply.object()["error"] as? String == message)
    }

    @Test func postedBodiesAreCheckedBeforeTheyAreRead() async throws {
        let good = Data(#"{"where": {"count": "tags", "op": "==", "value": 0}}"#.utf8)
        func post(_ body: Data, _ headers: [String: String]) async throws -> TestClient.Reply {
            try await client.request("/api/entities/Book/query", method: "POST", headers: headers, body: body)
        }
        let json = ["Content-Type": "application/json; charset=utf-8"]
        #expect(try await post(good, json).status == 200)

        let cases: [(Data, [String: String], Int, String)] = [
            (good, ["Content-Type": "text/plain"], 415, "The body must be JSON, sent with Content-Type: application/json (got \"text/plain\")"),
            (good, ["Content-Type": "application/x-www-form-urlencoded"], 415,
             "The body must be JSON, sent with Content-Type: application/json (got \"application/x-www-form-urlencoded\")"),
            (Data(repeating: 0x20, count: RecordFilter.maximumRequestBytes + 1), json, 413,
             "The body is 65537 bytes; a query takes at most 65536"),
            (Data("{\"where\": ".utf8), json, 400, ""),
            (Data(#"{"where": {"all": [{"keyPath": "title", "op": "LIKEE", "value": "x"}]}}"#.utf8), json, 400,
             "Body: at where.all[0].op: unknown operator \"LIKEE\" (==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, IN, BETWEEN)"),
            (Data(#"{"where": {"keyPath": "title", "op": "==", "value": "x", "values": ["y"]}}"#.utf8), json, 400,
             "Body: at where: a comparison has exactly one of \"value\", \"values\" (IN, BETWEEN), \"object\", \"objects\" (IN) or \"rightKeyPath\""),
            (Data(#"{"where": {"any": []}, "limit": 3}"#.utf8), json, 400,
             "Body: at limit: unknown key (the body is {\"where\": <tree>}; list parameters go in the URL)"),
            (Data(#"{"where": null}"#.utf8), json, 400, "Body: at where: expected an object (a condition)"),
            (Data(#"{"where": {"all": {"keyPath": "title"}}}"#.utf8), json, 400, "Body: at where.all: expected a list"),
            (Data(#"{"where": {"keyPath": 3, "op": "==", "value": 1}}"#.utf8), json, 400, "Body: at where.keyPath: expected a string"),
            (Data(#"{"where": {"count": "tags", "op": "==", "value": 1.5}}"#.utf8), json, 400, "Body: at where.value: @count is compared with a whole number"),
            (Data(#"{"where": {"keyPath": "pageCount", "op": "CONTAINS", "value": "3"}}"#.utf8), json, 400,
             "In pageCount CONTAINS \"3\": CONTAINS compares text, and pageCount is a Integer 32 attribute"),
        ]
        for (body, headers, status, message) in cases {
            let reply = try await post(body, headers)
            #expect(reply.status == status, "\(message)")
            let error = try reply.object()["error"] as? String
            if message.isEmpty {
                #expect(error?.hasPrefix("Body: not valid JSON") == true, "\(error ?? "")")
            } else {
                #expect(error == message)
            }
        }
        // Deeply nested JSON is refused without exhausting the stack.
        let deep = String(repeating: #"{"not": "#, count: 5_000) + "{}" + String(repeating: "}", count: 5_000)
        #expect(try await post(Data(#"{"where": \#(deep)}"#.utf8), json).status == 400)
        // The same-origin rule of every non-GET request: another site's page cannot post a query.
        let crossSite = try await post(good, json.merging(["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"]) { $1 })
        #expect(crossSite.status == 403)
        let get = try await client.get("/api/entities/Book/query")
        #expect(get.status == 405)
        #expect(get.header("Allow") == "POST")
    }

    @Test func theTextModeGetsCanonicalTextTreeSwiftOrErrorsWithSpans() async throws {
        let text = "title beginswith[c] 'k' && author.name != nil"
        let answer = try await client.get("/api/entities/Book/predicate?sort=title&limit=20&where=" + TestClient.encode(text)).object()
        #expect(answer["canonical"] as? String == "title BEGINSWITH[c] \"k\" AND author.name != NIL")
        #expect((answer["errors"] as? [Any])?.isEmpty == true)
        let tree = try #require(answer["tree"] as? [String: Any])
        #expect((tree["all"] as? [[String: Any]])?.first?["op"] as? String == "BEGINSWITH")
        let swift = try #require(answer["swift"] as? [String: Any])
        #expect(swift["coreData"] as? String == """
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "%K BEGINSWITH[c] %@ AND %K != nil", argumentArray: [
                "title",
                "k",
                "author.name",
            ])
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            request.fetchLimit = 20

            """)
        // BEGINSWITH[c] has no #Predicate form: said, not approximated.
        #expect(swift["swiftData"] is NSNull || swift["swiftData"] == nil)
        #expect(swift["swiftDataUnavailable"] as? [String] == ["#Predicate has no form of BEGINSWITH[c] (in title BEGINSWITH[c] \"k\")"])

        let syntax = try await client.get("/api/entities/Book/predicate?where=" + TestClient.encode("pageCount > 3 AND (")).object()
        let syntaxError = try #require((syntax["errors"] as? [[String: Any]])?.first)
        #expect(syntaxError["offset"] as? Int == 19)
        #expect(syntax["canonical"] is NSNull || syntax["canonical"] == nil)

        let unknown = try await client.get("/api/entities/Book/predicate?where=" + TestClient.encode("pageCount > 3 OR nope == 1")).object()
        let problem = try #require((unknown["errors"] as? [[String: Any]])?.first)
        #expect(problem["message"] as? String == "In nope == 1: Book has no attribute or relationship \"nope\"")
        #expect(problem["offset"] as? Int == 17)
        #expect(problem["length"] as? Int == 9)

        #expect(try await client.get("/api/entities/Nope/predicate?where=a").status == 404)
        #expect(try await client.get("/api/entities/Book/predicate?where=a&limit=0").status == 400)
    }
}
