import BrowserHTTPTesting
import BrowserCore
import BrowserHTTP
import BrowserMemory
import BrowserWebAssets
@testable import CoreDataBrowser
import Foundation
import Testing

/// The headers that protect store data, over raw sockets: every `/api` answer, whatever answered it, is
/// `Cache-Control: no-store`; every UI page and file, and the refusal pages, run under a Content-Security-Policy;
/// a refusal ends its connection.
@Suite(.serialized)
final class ProtectiveHeadersTests {
    static let token = "headers-token-0123456789_abcde"
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
        try await rawHead(method, target, headers: headers, port: port ?? self.port)
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
        for path in ["/cached-page", "/api/cached-route"] {
            router.add(.GET, path) { _, _ in
                var response = HTTPResponse.text("an answer that asks to be cached")
                response.headers.set(HTTPHeaderName.cacheControl, "no-cache")
                return response
            }
        }
        let policy = AccessPolicy(next: router, hosts: HTTPHostAllowList(["localhost"]), token: nil, tokenExpires: nil,
                                  currentAddresses: { [] })
        func answer(_ target: String) async throws -> HTTPResponse {
            await policy.respond(to: try HTTPRequest(method: .GET, target: target, headers: ["Host": "localhost"]))
        }
        #expect(try await answer("/api/new-route").headers[HTTPHeaderName.cacheControl] == "no-store")
        #expect(try await answer("/api/cached-route").headers[HTTPHeaderName.cacheControl] == "no-store")
        // Outside `/api` a page that chose no policy is not cached either; one that chose its own keeps it.
        #expect(try await answer("/new-page").headers[HTTPHeaderName.cacheControl] == "no-store")
        #expect(try await answer("/cached-page").headers[HTTPHeaderName.cacheControl] == "no-cache")
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
}

/// The same headers on the end-to-end demo server: store data never lands in a browser's cache; the UI runs
/// under a Content-Security-Policy.
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
