import BrowserHTTPTesting
import BrowserHTTP
import BrowserMemory
import CoreDataBrowser
import Foundation
import Testing

/// Hostile and broken input sent as raw bytes to the assembled server (demo library, default limits except a
/// short request timeout). Every case asserts its status, or that the server closed the connection, and then
/// that the server still answers `/api/health` on a fresh connection.
@Suite(.serialized)
final class MalformedInputTests {
    let server: CoreDataBrowserServer
    let port: UInt16
    static let store = DemoLibrary.storeIdentifier

    init() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.limits.requestTimeout = 2  // the slow-loris case waits for it
        server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        port = try server.start().port
    }

    deinit { server.stop() }

    func expectHealthy(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let outcome = try await RawHTTPClient.exchange("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
        #expect(outcome.status == 200, "server unhealthy after \(context)", sourceLocation: sourceLocation)
    }

    static func get(_ target: String) -> [UInt8] { Array("GET \(target) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8) }
    static func get(_ target: [UInt8]) -> [UInt8] {
        Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
    }
    static func post(_ headers: String, body: String = "") -> [UInt8] {
        Array("POST /api/object HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n\r\n\(body)".utf8)
    }
    static func id(_ uri: String) -> String {
        "/api/object?id=" + (uri.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? uri)
    }

    /// (name, bytes, expected status).
    static let framing: [(String, [UInt8], Int)] = [
        ("request line over 8 KiB, no line end", Array(("GET /" + String(repeating: "a", count: 9000)).utf8), 414),
        ("enormous query string", get("/api/entities/Book?search=" + String(repeating: "x", count: 20000)), 414),
        ("header section over 32 KiB", Array("GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "b", count: 40000))\r\n\r\n".utf8), 431),
        ("101 header fields", Array(("GET / HTTP/1.1\r\nHost: localhost\r\n" + (0..<101).map { "X-\($0): v\r\n" }.joined() + "\r\n").utf8), 431),
        ("body over 1 MiB announced", post("Content-Length: 2000000"), 413),
        ("Content-Length beyond Int", post("Content-Length: 999999999999999999999999999"), 413),
        ("Content-Length and Transfer-Encoding", post("Content-Length: 3\r\nTransfer-Encoding: chunked", body: "abc"), 400),
        ("Transfer-Encoding and Content-Length", post("Transfer-Encoding: chunked\r\nContent-Length: 0"), 400),
        ("chunked body", post("Transfer-Encoding: chunked", body: "3\r\nabc\r\n0\r\n\r\n"), 501),
        ("unknown transfer coding", post("Transfer-Encoding: gzip"), 501),
        ("obfuscated transfer coding", post("Transfer-Encoding: xchunked"), 501),
        ("conflicting Content-Length lines", post("Content-Length: 3\r\nContent-Length: 4", body: "abcd"), 400),
        ("conflicting Content-Length list", post("Content-Length: 3, 4", body: "abcd"), 400),
        ("negative Content-Length", post("Content-Length: -1"), 400),
        ("signed Content-Length", post("Content-Length: +3", body: "abc"), 400),
        ("hex Content-Length", post("Content-Length: 0x3", body: "abc"), 400),
        ("space before colon (smuggling)", post("Content-Length : 3", body: "abc"), 400),
        ("obsolete line folding", Array("GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\r\n b\r\n\r\n".utf8), 400),
        ("NUL in a header value", Array("GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\u{0}b\r\n\r\n".utf8), 400),
        ("bare CR in a header value", Array("GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\rb\r\n\r\n".utf8), 400),
        ("no Host", Array("GET /api/health HTTP/1.1\r\n\r\n".utf8), 400),
        ("two Hosts", Array("GET /api/health HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n".utf8), 400),
        ("HTTP/2 preface", Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8), 505),
        ("HTTP/1.2", Array("GET / HTTP/1.2\r\nHost: localhost\r\n\r\n".utf8), 505),
        ("lowercase version", Array("GET / http/1.1\r\nHost: localhost\r\n\r\n".utf8), 400),
        ("double space in request line", Array("GET  / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), 400),
        ("tab in request line", Array("GET\t/ HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), 400),
        ("method with a bracket", Array("G(T / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), 400),
        ("binary garbage", (0...255).map { UInt8($0) } + [13, 10, 13, 10], 400),
        ("TLS hello on the plain port", [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 13, 10, 13, 10], 400),
    ]

    static let paths: [(String, [UInt8], Int)] = [
        ("dot segments", get("/../../../../etc/passwd"), 404),
        ("encoded dots", get("/%2e%2e/%2e%2e/etc/passwd"), 404),
        ("encoded dots and slashes", get("/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd"), 404),
        ("mixed encoded traversal", get("/..%2f..%2fetc%2fpasswd"), 404),
        ("dot segment before an asset", get("/./pages/inspector/inspector.js"), 404),
        ("traversal back to an asset", get("/x/../pages/inspector/inspector.js"), 404),
        ("double slash", get("//pages/inspector/inspector.js"), 404),
        ("trailing slash", get("/pages/inspector/inspector.js/"), 404),
        ("upper-case asset name", get("/PAGES/INSPECTOR/INSPECTOR.JS"), 404),
        ("asset under a folder name", get("/web/pages/inspector/inspector.js"), 404),
        ("traversal out of a subfolder", get("/shared/../pages/inspector/inspector.js"), 404),
        ("subfolder without a file", get("/shared/"), 404),
        ("encoded slash into a subfolder", get("/shared%2fapi.js"), 404),
        ("NUL after an asset name", get("/pages/inspector/inspector.js%00"), 404),
        ("NUL before an extension", get("/pages/inspector/inspector.js%00.png"), 404),
        ("raw backslashes", get("/..\\..\\etc\\passwd"), 404),
        ("encoded backslashes", get("/%5c..%5cpages/inspector/inspector.js"), 404),
        ("semicolon path parameter", get("/pages/inspector/inspector.js;/etc/passwd"), 404),
        ("overlong UTF-8 dots", get("/%c0%ae%c0%ae/etc/passwd"), 400),
        ("raw NUL in the path", get([0x2F, 0x00]), 400),
        ("raw invalid UTF-8 in the path", get([0x2F, 0xFF, 0xFE]), 400),
        ("invalid UTF-8 escape in the path", get("/api/entities/%FF"), 400),
        ("truncated escape", get("/api/entities/%4"), 400),
        ("lone percent", get("/%"), 400),
        ("non-hex escape", get("/api/entities/%ZZ"), 400),
        ("fragment in the target", get("/pages/inspector/inspector.js#x"), 400),
        ("asterisk target for GET", get("*"), 400),
        ("a query never reaches a file name", get("/pages/inspector/inspector.js?../../etc/passwd"), 200),
    ]

    static let queries: [(String, [UInt8], Int)] = [
        ("lone percent in a query value", get("/api/entities/Book?search=%"), 400),
        ("invalid escape in a query value", get("/api/entities/Book?search=%G1"), 400),
        ("truncated UTF-8 in a query value", get("/api/entities/Book?search=%E2%82"), 400),
        ("raw invalid UTF-8 in a query value", get(Array("/api/entities/Book?search=".utf8) + [0xC3, 0x28]), 400),
        ("invalid escape in a query name", get("/api/entities/Book?%ZZ=1"), 400),
        ("NUL in a search", get("/api/entities/Book?search=%00"), 200),
        ("1,000-character search", get("/api/entities/Book?search=" + String(repeating: "x", count: 1000)), 200),
        ("7 KiB search is over the search limit", get("/api/entities/Book?search=" + String(repeating: "x", count: 7000)), 400),
        ("10,000 parameters", get("/api/entities/Book?" + String(repeating: "a&", count: 3000)), 200),
        ("SQL in search", get("/api/entities/Book?search=%27%20OR%201%3D1%20--"), 200),
        ("SQL in search, double quotes", get("/api/entities/Book?search=%22%3B%20DROP%20TABLE%20ZBOOK%3B%20--"), 200),
        ("SQL in searchAttr", get("/api/entities/Book?search=a&searchAttr=title%27%20--"), 400),
        ("SQL in sort", get("/api/entities/Book?sort=title%3B%20DROP%20TABLE%20ZBOOK"), 400),
        ("column expression in sort", get("/api/entities/Book?sort=title%20desc"), 400),
        ("storage column in sort", get("/api/entities/Book?sort=ZTITLE"), 400),
        ("primary key column in sort", get("/api/entities/Book?sort=Z_PK"), 400),
        ("SQL in order", get("/api/entities/Book?order=asc%3B--"), 400),
        ("upper-case order", get("/api/entities/Book?order=ASC"), 400),
        ("huge limit", get("/api/entities/Book?limit=99999999999999999999999"), 400),
        ("Int.max limit is capped", get("/api/entities/Book?limit=9223372036854775807"), 200),
        ("negative limit", get("/api/entities/Book?limit=-1"), 400),
        ("exponent limit", get("/api/entities/Book?limit=1e3"), 400),
        ("hex limit", get("/api/entities/Book?limit=0x10"), 400),
        ("empty limit", get("/api/entities/Book?limit="), 400),
        ("limit with a space", get("/api/entities/Book?limit=%205"), 400),
        ("negative offset", get("/api/entities/Book?offset=-1"), 400),
        ("Int.max offset", get("/api/entities/Book?offset=9223372036854775807"), 200),
        ("Int.max offset and limit", get("/api/entities/Book?offset=9223372036854775807&limit=9223372036854775807&sort=title"), 200),
        ("huge offset", get("/api/entities/Book?offset=99999999999999999999"), 400),
        ("SQL as an entity name", get("/api/entities/Book%27%20OR%20%271%27%3D%271"), 404),
        ("dots as an entity name", get("/api/entities/%2E%2E"), 404),
        ("Core Data's metadata table", get("/api/entities/Z_METADATA"), 404),
        ("SQLite's schema table", get("/api/entities/sqlite_master"), 404),
        ("empty entity name", get("/api/entities/"), 404),
        ("abstract entity name in another case", get("/api/entities/book"), 404),
        ("another store's ID", get(id("x-coredata://00000000-0000-0000-0000-000000000000/Book/p1")), 404),
        ("primary key 0", get(id("x-coredata://\(store)/Book/p0")), 400),
        ("negative primary key", get(id("x-coredata://\(store)/Book/p-1")), 400),
        ("signed primary key", get(id("x-coredata://\(store)/Book/p+1")), 400),
        ("primary key beyond Int64", get(id("x-coredata://\(store)/Book/p99999999999999999999")), 400),
        ("Int64.max primary key", get(id("x-coredata://\(store)/Book/p9223372036854775807")), 404),
        ("non-ASCII digits", get(id("x-coredata://\(store)/Book/p١")), 400),
        ("extra path segment", get(id("x-coredata://\(store)/Book/p1/extra")), 400),
        ("dot segment in an ID", get(id("x-coredata://\(store)/../Book/p1")), 400),
        ("encoded slash in an ID", get(id("x-coredata://\(store)/Book%2Fp1")), 400),
        ("empty store in an ID", get(id("x-coredata:///Book/p1")), 400),
        ("empty entity in an ID", get(id("x-coredata://\(store)//p1")), 400),
        ("temporary ID", get(id("x-coredata:///Book/t8E2C-1")), 400),
        ("SQL in an ID", get(id("x-coredata://\(store)/Book/p1' OR '1'='1")), 400),
        ("unknown entity in an ID", get(id("x-coredata://\(store)/Ghost/p1")), 404),
        ("other scheme", get(id("file:///etc/passwd")), 400),
        ("export with a hostile ID", get("/api/object/export?id=x-coredata%3A%2F%2F%22%3B%20filename%3Devil/Book/p1"), 404),
        ("NUL in an ID", get("/api/object?id=x-coredata%3A%2F%2F\(store)%2FBook%2Fp1%00"), 400),
    ]

    func check(_ name: String, _ bytes: [UInt8], _ status: Int) async throws {
        let outcome = try await RawHTTPClient.exchange(bytes, port: port)
        #expect(outcome.status == status, "\(name): got \(outcome)")
        try await expectHealthy(name)
    }

    @Test("malformed framing", arguments: 0..<framing.count)
    func framing(index: Int) async throws { try await check(Self.framing[index].0, Self.framing[index].1, Self.framing[index].2) }

    @Test("hostile paths never reach a file outside the assets", arguments: 0..<paths.count)
    func paths(index: Int) async throws { try await check(Self.paths[index].0, Self.paths[index].1, Self.paths[index].2) }

    @Test("hostile query strings and API parameters", arguments: 0..<queries.count)
    func queries(index: Int) async throws { try await check(Self.queries[index].0, Self.queries[index].1, Self.queries[index].2) }

    @Test func errorsAfterFramingFailuresCloseTheConnection() async throws {
        let connection = try RawHTTPClient(port: port)
        connection.send(Self.post("Content-Length: 3\r\nTransfer-Encoding: chunked", body: "abc"))
        #expect(await connection.read().status == 400)
        #expect(await connection.waitForClose() == .closed)
        try await expectHealthy("smuggling attempt")
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let connection = try RawHTTPClient(port: port)
        let targets = ["/api/health", "/pages/inspector/inspector.js", "/api/entities/Book?limit=3", "/api/nothing", "/"]
        connection.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: localhost\r\n\r\n" }.joined())
        var statuses: [Int?] = []
        var types: [String?] = []
        for _ in targets {
            let outcome = await connection.read()
            statuses.append(outcome.status)
            if case .response(let response) = outcome { types.append(response.header("Content-Type")) }
        }
        #expect(statuses == [200, 200, 200, 404, 200])
        #expect(types.map { $0?.split(separator: ";").first.map(String.init) } == [
            "application/json", "text/javascript", "application/json", "application/json", "text/html",
        ])
        // A broken request in the pipeline: those before it are answered, then 400 and close.
        let mixed = try RawHTTPClient(port: port)
        mixed.send("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\nGET /%ZZ HTTP/1.1\r\nHost: localhost\r\n\r\nGET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await mixed.read().status == 200)
        #expect(await mixed.read().status == 400)
        #expect(await mixed.waitForClose() == .closed)
        try await expectHealthy("pipelining")
    }

    @Test func slowLorisGets408WhileOthersAreServed() async throws {
        let slow = try RawHTTPClient(port: port, readTimeout: 30)
        let request = Array("GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: \(String(repeating: "z", count: 60))\r\n\r\n".utf8)
        var sent = 0
        // One byte per second until the server gives up on the request (limits.requestTimeout = 2 s) and closes.
        for byte in request {
            guard slow.send([byte]) else { break }
            sent += 1
            if sent == 2 { try await expectHealthy("slow loris in progress") }
            try await Task.sleep(nanoseconds: 1_000_000_000)
        }
        #expect(sent < request.count, "the server waited for a whole slow request")
        #expect(await slow.read().status == 408)
        try await expectHealthy("slow loris")
    }

    @Test func clientsVanishingMidRequestAndMidResponse() async throws {
        do {
            for partial in [
                "GET /api/ent", "GET /api/entities HTTP/1.1\r\nHost: local", "GET /api/entities HTTP/1.1\r\nHost: localhost\r\nX-A:",
                "POST /api/object HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n0123456789",
            ] {
                try RawHTTPClient(port: port).send(partial)
            }
            // Large responses pipelined, then the client reads a little and disappears.
            let reader = try RawHTTPClient(port: port)
            reader.send(String(repeating: "GET /api/entities/Book?limit=500 HTTP/1.1\r\nHost: localhost\r\n\r\n", count: 20))
            #expect(await reader.read().status == 200)
            // And one that never reads at all.
            try RawHTTPClient(port: port).send(String(repeating: "GET /pages/inspector/inspector.js HTTP/1.1\r\nHost: localhost\r\n\r\n", count: 50))
        }  // every connection is closed here
        try await expectHealthy("vanishing clients")
        try await expectHealthy("vanishing clients, again")
    }

    @Test func overTheConnectionLimitGets503AndClose() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.limits.maxConnections = 3
        let small = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        let port = try small.start().port
        defer { small.stop() }
        // One after another: of three slots, one is kept for connections that have shown their credentials, so a
        // third connection opened before the first two have asked anything would find none.
        var held: [RawHTTPClient] = []
        for _ in 0..<3 {
            let connection = try RawHTTPClient(port: port)
            connection.send("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await connection.read().status == 200)
            held.append(connection)
        }
        let extra = try RawHTTPClient(port: port)
        #expect(await extra.read().status == 503)
        #expect(await extra.waitForClose() == .closed)
        held.removeAll()
        // Served again once the server has seen the closes (it may take a moment, hence the retries).
        var served = false
        for _ in 0..<100 where !served {
            served = try await RawHTTPClient.exchange("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port).status == 200
            if !served { try await Task.sleep(nanoseconds: 20_000_000) }
        }
        #expect(served)
    }
}
