import BrowserHTTPTesting
import BrowserCore
import BrowserHTTP
import BrowserMemory
import BrowserWebAssets
@testable import CoreDataBrowser
import Foundation
import Testing

/// Security over raw sockets: every `/api` answer, whatever answered it, is `Cache-Control: no-store`; every UI
/// page and file, and the refusal pages, run under a Content-Security-Policy; a running server's pairing token can
/// be replaced, which ends every session and URL of the old one at once; an expiring token stops working while the
/// server runs.
@Suite(.serialized)
final class SecurityRoundTwoTests {
    static let token = "round-two-token-0123456789_abc"
    let server: CoreDataBrowserServer
    let port: UInt16

    init() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.pairingToken = .token(Self.token)
        server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        port = try server.start().port
    }

    deinit { server.stop() }

    /// The head of the answer to one request on a fresh connection (the body, possibly a stream, is not read).
    func head(_ method: String, _ target: String, headers: [String] = ["Authorization: Bearer \(token)"],
              port: UInt16? = nil) async throws -> RawHTTPClient.Response {
        let connection = try RawHTTPClient(port: port ?? self.port)
        let lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
        connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
        return try #require(await connection.readHead(), "no answer to \(method) \(target)")
    }

    var token: String { Self.token }

    func json(_ target: String) async throws -> [String: Any] {
        let outcome = try await RawHTTPClient.exchange(
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n\r\n", port: port)
        guard case .response(let response) = outcome else { throw CancellationError() }
        return try response.json()
    }

    static func encode(_ value: String) -> String { TestClient.encode(value) }

    // MARK: - Cache-Control: no-store

    @Test func everyAPIAnswerIsNoStoreWhateverAnsweredIt() async throws {
        // A book with a cover (blob and content) and an author with books (related, export).
        let books = try #require(try await json("/api/entities/Book?limit=20")["rows"] as? [[String: Any]])
        let covered = try #require(books.first { ($0["attrs"] as? [String: Any])?["cover"] is [String: Any] })
        let book = Self.encode(try #require(covered["id"] as? String))
        let authors = try #require(try await json("/api/entities/Author")["rows"] as? [[String: Any]])
        let author = Self.encode(try #require(authors.first?["id"] as? String))

        let answered: [(method: String, target: String, headers: [String]?, status: Int)] = [
            ("GET", "/api/health", nil, 200),
            ("GET", "/api/entities", nil, 200),
            ("HEAD", "/api/entities", nil, 200),
            ("GET", "/api/entities/Book?limit=2&sort=title", nil, 200),
            ("GET", "/api/entities/Book/position?id=\(book)", nil, 200),
            ("GET", "/api/entities/Book/explain?search=the", nil, 200),
            ("GET", "/api/entities/Book/export?format=csv", nil, 200),
            ("GET", "/api/entities/Book/export?format=ndjson", nil, 200),
            ("GET", "/api/object?id=\(book)", nil, 200),
            ("GET", "/api/object/related?id=\(author)&rel=books", nil, 200),
            ("GET", "/api/object/export?id=\(author)", nil, 200),
            ("GET", "/api/object/export?id=\(author)&related=all", nil, 200),
            ("GET", "/api/object/blob?id=\(book)&attr=cover", nil, 200),
            ("GET", "/api/object/blob?id=\(book)&attr=cover", ["Authorization: Bearer \(token)", "Range: bytes=0-9"], 206),
            ("GET", "/api/object/blob?id=\(book)&attr=cover", ["Authorization: Bearer \(token)", "Range: bytes=99999999-"], 416),
            ("GET", "/api/object/content?id=\(book)&attr=cover", nil, 200),
            ("GET", "/api/history", nil, 200),
            ("GET", "/api/pending", nil, 200),
            ("GET", "/api/events", nil, 200),
            // Refusals of the routes, the router, the access policy and the HTTP layer itself.
            ("GET", "/api/entities/Book?limit=x", nil, 400),
            ("GET", "/api/entities/Nope", nil, 404),
            ("GET", "/api/nothing-here", nil, 404),
            ("GET", "/api", nil, 404),
            ("POST", "/api/entities", ["Authorization: Bearer \(token)", "Content-Length: 0"], 405),
            ("GET", "/api/entities", [], 401),
            ("GET", "/api/entities?token=wrong-token-0123456789-abcdef", [], 401),
            ("GET", "/api/entities", ["Authorization: Bearer \(token)", "X-Broken header"], 400),
            ("GET", "/api/entities", ["Authorization: Bearer \(token)", "Host: another.example"], 400),
        ]
        for (method, target, headers, status) in answered {
            let reply = try await head(method, target, headers: headers ?? ["Authorization: Bearer \(token)"])
            #expect(reply.status == status, "\(method) \(target)")
            #expect(reply.header("Cache-Control") == "no-store", "\(method) \(target) answered \(reply.status)")
        }
        // The UI's own files may be cached, and revalidated.
        #expect(try await head("GET", "/pages/inspector/inspector.js").header("Cache-Control") == "no-cache")
    }

    @Test func theAccessPolicyMakesEveryAPIAnswerNoStoreEvenARouteThatForgets() async throws {
        // A route added later that sets no header at all (the predicate and model routes landing now, or any other).
        var router = HTTPRouter()
        router.add(.GET, "/api/new-route") { _, _ in .text("store data") }
        router.add(.GET, "/new-page") { _, _ in .text("a page") }
        let policy = AccessPolicy(next: router, hosts: HTTPHostAllowList(["localhost"]), token: nil, tokenExpires: nil,
                                  currentAddresses: { [] })
        func answer(_ target: String) async throws -> HTTPResponse {
            await policy.respond(to: try HTTPRequest(method: .GET, target: target, headers: ["Host": "localhost"]))
        }
        #expect(try await answer("/api/new-route").headers[HTTPHeaderName.cacheControl] == "no-store")
        #expect(try await answer("/new-page").headers[HTTPHeaderName.cacheControl] == nil)
    }

    // MARK: - Content-Security-Policy

    @Test func everyUIPageAndFileRunsUnderTheContentSecurityPolicy() async throws {
        let routes = WebAssets.embedded.routes.map(\.path)
        // Every page the UI has, whatever was added lately, is in the table.
        #expect(Set(["/", "/lab", "/history"]).isSubset(of: routes))
        for path in routes {
            let reply = try await head("GET", path)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.header("Content-Security-Policy") == BrowserRoutes.contentSecurityPolicy, "\(path)")
        }
        let policy = BrowserRoutes.contentSecurityPolicy
        for directive in ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'",
                          "frame-ancestors 'none'"] {
            #expect(policy.contains(directive), "\(directive)")
        }
        #expect(!policy.contains("unsafe-eval"))
        let scripts = policy.split(separator: ";").first { $0.contains("script-src") }
        #expect(scripts?.contains("unsafe-inline") == false)
    }

    @Test(arguments: ["/", "/lab", "/history", "/pages/inspector/inspector.js", "/nothing-here"])
    func theRefusalPageRunsUnderAPolicyWithoutScript(path: String) async throws {
        let reply = try await head("GET", path, headers: [])
        #expect(reply.status == 401)
        #expect(reply.header("Content-Security-Policy") == AccessPolicy.denialPagePolicy)
        #expect(reply.header("Content-Security-Policy")?.contains("script-src") == false)
        #expect(reply.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
    }

    // MARK: - Refusals end the connection

    /// Without the token, a cross-origin write is refused with 403 before the token is looked at; that refusal
    /// must end the connection like the 401 does, or a client without the token could hold connection slots by
    /// re-sending it before the idle timeout.
    @Test func aCrossOriginRefusalWithoutTheTokenClosesTheConnection() async throws {
        let client = try RawHTTPClient(port: port)
        client.send("POST /api/entities/Book HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n"
            + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        let response = try #require(await client.readResponse(), "no answer")
        #expect(response.status == 403)
        #expect(response.header("Connection") == "close")
        #expect(await client.waitForClose() == .closed)
    }

    // MARK: - A token that expires while the server runs

    @Test func theTokensExpiryIsCheckedOnEveryRequest() async throws {
        let token = try #require(PairingToken(validating: Self.token))
        var router = HTTPRouter()
        router.add(.GET, "/api/health") { _, _ in .text("ok") }
        let credentials = PairingCredentials(token: token, expires: Date().addingTimeInterval(3600))
        let policy = AccessPolicy(next: router, hosts: HTTPHostAllowList(["localhost"]), credentials: credentials,
                                  currentAddresses: { [] })
        let session = BrowserSession.issue(token: token, expires: Date().addingTimeInterval(3600))
        func status(_ headers: HTTPHeaders) async throws -> Int {
            var fields = headers
            fields.set("Host", "localhost")
            return await policy.respond(to: try HTTPRequest(method: .GET, target: "/api/health", headers: fields)).status.code
        }
        let sent: [HTTPHeaders] = [["Authorization": "Bearer \(Self.token)"], ["Cookie": "cdb_session=\(session)"]]
        for fields in sent { #expect(try await status(fields) == 200) }
        // The same token's expiry passes (set in the past rather than waited for, so no clock race): the same
        // policy and credentials, a later request, refused, the session with its token.
        credentials.replace(token: token, expires: Date().addingTimeInterval(-1))
        for fields in sent { #expect(try await status(fields) == 401) }
    }

    // MARK: - Replacing the token (revoking every session)

    func makeWideServer(tokenFile: URL?) async throws -> CoreDataBrowserServer {
        var options = CoreDataBrowserServer.Options.forTests(bind: .allInterfaces)
        options.pairingTokenFile = tokenFile
        return CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
    }


    @Test(arguments: [true, false])
    func renewingTheTokenRevokesEverySessionAndURLAtOnce(remembered: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("renew-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = remembered ? directory.appendingPathComponent("app.pairing-token") : nil
        let server = try await makeWideServer(tokenFile: file)
        let info = try server.start()
        defer { server.stop() }
        let old = try #require(info.pairingToken)
        let oldLink = try PairingTesting.code(info)
        let oldCookie = try PairingTesting.cookie(try await PairingTesting.exchange(oldLink, port: info.port, host: "127.0.0.1"))
        #expect(try await head("GET", "/api/health", headers: [oldCookie], port: info.port).status == 200)

        let unused = try PairingTesting.code(of: try #require(try server.newPairingLinks().last))
        let renewed = try server.renewPairingToken()
        let new = try #require(renewed.pairingToken)
        #expect(new != old && new.utf8.count == 22)
        #expect(renewed.port == info.port)
        let newLink = try PairingTesting.code(renewed)
        #expect(renewed.urls.map(\.absoluteString) == info.urls.map { $0.absoluteString.replacingOccurrences(of: oldLink, with: newLink) })
        #expect(server.runningInfo?.pairingToken == new)
        // Everything the old token gave is refused with the next request: its sessions, itself, its printed URL.
        #expect(try await head("GET", "/api/health", headers: [oldCookie], port: info.port).status == 401)
        #expect(try await head("GET", "/api/health", headers: ["Authorization: Bearer \(old)"], port: info.port).status == 401)
        // A link printed for the old token and not used yet dies with it.
        #expect(try await PairingTesting.exchange(unused, port: info.port).status == 401)
        let newCookie = try await PairingTesting.pair(try #require(server.runningInfo), host: "127.0.0.1")
        #expect(try await head("GET", "/api/health", headers: [newCookie], port: info.port).status == 200)
        if let file {
            #expect(try String(contentsOf: file, encoding: .utf8) == new)
        }
        // A restart keeps the new token (from the file, or the server's own), never the revoked one.
        server.stop()
        let restarted = try server.start()
        #expect(restarted.pairingToken == new)
        #expect(try await head("GET", "/api/health", headers: [oldCookie], port: restarted.port).status == 401)
    }

    @Test func onlyAGeneratedTokenOfARunningServerCanBeRenewed() async throws {
        let stopped = try await makeWideServer(tokenFile: nil)
        #expect { try stopped.renewPairingToken() } throws: { "\($0)" == "\(CoreDataBrowserServer.RenewalError.notRunning)" }
        // The host's own token (this suite's server) is the host's to change.
        #expect { try self.server.renewPairingToken() } throws: { "\($0)" == "\(CoreDataBrowserServer.RenewalError.hostSuppliedToken)" }
        // On loopback no token is required by default.
        let loopback = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: .forTests())
        try loopback.start()
        defer { loopback.stop() }
        #expect { try loopback.renewPairingToken() } throws: { "\($0)" == "\(CoreDataBrowserServer.RenewalError.noTokenRequired)" }
    }
}

/// A store with an attribute of a type no store can order (SwiftData's composite, seen through a live context):
/// sorting and searching by it are refused with a 400 over HTTP, before any store is asked.
@Suite struct UndefinedAttributeTests {
    @Test func sortingOrSearchingByAnUndefinedAttributeIs400() async throws {
        let schema = StoreSchema(entities: [EntitySchema(name: "Shop", attributes: [
            AttributeSchema(name: "name", type: .string), AttributeSchema(name: "location", type: .undefined),
        ])])
        let store = InMemoryStore(schema: schema, storeIdentifier: "0F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A21")
        _ = try await store.insert("Shop", ["name": .string("Corner")])
        let server = CoreDataBrowserServer(store: store, options: .forTests())
        let info = try server.start()
        defer { server.stop() }
        let client = TestClient(base: try #require(info.urls.first))
        #expect(try await client.get("/api/entities/Shop?sort=name").status == 200)
        let sorted = try await client.get("/api/entities/Shop?sort=location")
        #expect(sorted.status == 400)
        #expect(try sorted.object()["error"] as? String == "Cannot sort Shop by location: its type (Undefined) has no order to sort by")
        #expect(try await client.get("/api/entities/Shop?search=x&searchAttr=location").status == 400)
        #expect(try await client.get("/api/entities/Shop/export?format=csv&sort=location").status == 400)
        #expect(try await client.get("/api/entities/Shop/explain?sort=location").status == 400)
    }
}
