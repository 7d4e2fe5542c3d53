import BrowserHTTPTesting
import BrowserHTTP
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// The pairing token, the `Host` check, the same-origin hook and the headers that keep other sites out, over
/// real sockets. Raw requests, because URLSession would follow the redirect, keep cookies and never send a
/// hostile `Host`.
@Suite(.serialized)
final class AccessPolicyTests {
    static let token = "test-token-0123456789_abcdef"
    let server: CoreDataBrowserServer
    let port: UInt16

    init() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.pairingToken = .token(Self.token)
        options.allowedHostNames = ["Browser.Example.test"]
        server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        port = try server.start().port
    }

    deinit { server.stop() }

    func get(
        _ target: String, method: String = "GET", host: String? = nil, headers: [String] = []
    ) async throws -> RawHTTPClient.Response {
        let lines = ["\(method) \(target) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"] + headers
        let outcome = try await RawHTTPClient.exchange(lines.joined(separator: "\r\n") + "\r\n\r\n", port: port)
        guard case .response(let response) = outcome else {
            Issue.record("no response to \(method) \(target): \(outcome)")
            throw CancellationError()
        }
        return response
    }

    var bearer: String { "Authorization: Bearer \(Self.token)" }

    // MARK: - The token

    @Test func apiWithoutTheTokenIs401JSONWithABearerChallenge() async throws {
        let reply = try await get("/api/health")
        #expect(reply.status == 401)
        #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
        #expect(reply.header("WWW-Authenticate") == #"Bearer realm="CoreDataBrowser""#)
        #expect(try reply.json()["error"] as? String == AccessDenial.missingToken.message)
    }

    @Test("pages and files without the token are a short page saying where the URL is", arguments: ["/", "/lab", "/pages/inspector/inspector.js", "/nothing"])
    func pagesWithoutTheTokenAreAShortHTMLPage(path: String) async throws {
        let reply = try await get(path)
        #expect(reply.status == 401)
        #expect(reply.header("Content-Type") == "text/html; charset=utf-8")
        #expect(reply.text.contains("pairing link the app printed"))
        #expect(reply.text.contains("?pair=…"))
        #expect(!reply.text.contains(Self.token))
    }

    @Test func aPairingLinkIsAPageThatExchangesItsOneTimeCodeForAStrictHttpOnlyCookie() async throws {
        let code = try PairingTesting.code(try #require(server.runningInfo))
        // The link's page: no store data, only the script that posts the code (allowed by its hash alone). Opening
        // it spends nothing: a link preview or a prefetch fetches it without the person.
        for _ in 0..<2 {
            let visit = try await get("/lab?entity=Book&pair=\(code)&id=x-coredata%3A%2F%2Fa%2FBook%2Fp1")
            #expect(visit.status == 200)
            #expect(visit.text.contains("<script>\(PairingExchange.script)</script>"))
            #expect(!visit.text.contains(code))
            #expect(visit.header("Set-Cookie") == nil)
            #expect(visit.header("Cache-Control") == "no-store")
            let policy = try #require(visit.header("Content-Security-Policy"))
            #expect(policy.hasPrefix("default-src 'none'; script-src 'sha256-") && policy.contains("connect-src 'self'"))
        }
        let reply = try await PairingTesting.exchange(code, port: port)
        #expect(reply.status == 200)
        #expect(try reply.json()["paired"] as? Bool == true)
        // The cookie is a signed, expiring session, never the token itself.
        let setCookie = try #require(reply.header("Set-Cookie"))
        #expect(setCookie.hasPrefix("cdb_session_\(port)="))
        #expect(setCookie.hasSuffix("; Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(BrowserSession.lifetime))")
            || setCookie.hasSuffix("; Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(BrowserSession.lifetime) - 1)"))
        #expect(!setCookie.contains(Self.token) && !setCookie.contains(code))
        let cookie = try PairingTesting.cookie(reply)
        for path in ["/lab?entity=Book", "/", "/pages/inspector/inspector.js", "/api/health"] {
            let reply = try await get(path, headers: [cookie.replacingOccurrences(of: "Cookie: ", with: "Cookie: theme=dark; ")])
            #expect(reply.status == 200, "\(path)")
        }
        // The token itself is no cookie, and never pairs from a URL.
        #expect(try await get("/api/health", headers: ["Cookie: cdb_session_\(port)=\(Self.token)"]).status == 401)
        #expect(try await get("/?token=\(Self.token)").status == 401)
    }

    @Test func sessionsAreSignedWithTheTokenAndExpire() throws {
        let token = try #require(PairingToken(validating: Self.token))
        let other = try #require(PairingToken(validating: "another-token-0123456789_abcdef"))
        let now = Date()
        let session = BrowserSession.issue(token: token, expires: now.addingTimeInterval(60))
        #expect(BrowserSession.accepts(session, token: token, now: now))
        #expect(!BrowserSession.accepts(session, token: token, now: now.addingTimeInterval(61)))  // expired
        #expect(!BrowserSession.accepts(session, token: other, now: now))  // another token's (a new token revokes)
        // Any change to the expiry, the nonce or the signature breaks the signature.
        var parts = session.split(separator: ".").map(String.init)
        let longer = [String(Int(parts[0])! + 86_400), parts[1], parts[2]].joined(separator: ".")
        #expect(!BrowserSession.accepts(longer, token: token, now: now))
        parts[1] = String(parts[1].reversed())
        #expect(!BrowserSession.accepts(parts.joined(separator: "."), token: token, now: now))
        for malformed in ["", "1.2", "a.b.c", "\(session).x", Self.token] {
            #expect(!BrowserSession.accepts(malformed, token: token, now: now), "\(malformed)")
        }
        // Two sessions are never the same value.
        #expect(BrowserSession.issue(token: token, expires: now) != BrowserSession.issue(token: token, expires: now))
    }

    @Test func hmacAndSHA256MatchTheirTestVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        // FIPS 180-4 examples.
        #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // RFC 4231 test cases 2 and 6 (a key longer than the block).
        #expect(hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func anExpiredTokenIsRefusedWithItsSessions() async throws {
        let token = try #require(PairingToken(validating: Self.token))
        let router = HTTPRouter()
        let expired = AccessPolicy(next: router, hosts: HTTPHostAllowList(["localhost"]), token: token,
                                   tokenExpires: Date().addingTimeInterval(-1), currentAddresses: { [] })
        let session = BrowserSession.issue(token: token, expires: Date().addingTimeInterval(60))
        for headers in [["Authorization": "Bearer \(Self.token)"], ["Cookie": "cdb_session=\(session)"], [:]] {
            let target = headers.isEmpty ? "/?token=\(Self.token)" : "/api/health"
            var fields: HTTPHeaders = ["Host": "localhost"]
            for (name, value) in headers { fields.set(name, value) }
            let request = try HTTPRequest(method: .GET, target: target, headers: fields)
            let response = await expired.respond(to: request)
            #expect(response.status.code == 401, "\(target) \(headers)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("expired"), "\(target)")
        }
    }

    @Test func bearerTokenOpensTheAPI() async throws {
        #expect(try await get("/api/health", headers: [bearer]).status == 200)
        #expect(try await get("/api/entities", headers: ["Authorization: bearer  \(Self.token)"]).status == 200)
        let page = try await get("/api/entities/Book?limit=2", headers: [bearer])
        #expect((try page.json()["rows"] as? [Any])?.count == 2)
    }

    @Test func wrongTokensAre401() async throws {
        let almost = String(Self.token.dropLast())
        let wrong: [(String, [String])] = [
            ("/api/health?token=\(almost)", []),
            ("/?token=\(almost)", []),
            ("/?token=", []),
            ("/?token=\(Self.token)x", []),
            ("/api/health", ["Cookie: cdb_session_\(port)=\(almost)"]),
            ("/api/health", ["Cookie: cdb_session_\(port)=\(Self.token)"]),  // the token is no session
            ("/api/health", ["Cookie: cdb_token_\(port)=\(Self.token)"]),  // the old cookie, holding the token
            ("/api/health", ["Authorization: Bearer \(almost)"]),
            ("/api/health", ["Authorization: Basic \(Self.token)"]),
            ("/api/health", ["Authorization: Bearer"]),
        ]
        for (path, headers) in wrong {
            #expect(try await get(path, headers: headers).status == 401, "\(path) \(headers)")
        }
    }

    @Test func theTokenInTheQueryIsNeverAccepted() async throws {
        // A URL ends up in the browser's history: the token goes in a header, a browser pairs through a one-time link.
        for target in ["/?token=\(Self.token)", "/lab?token=\(Self.token)", "/api/health?token=\(Self.token)"] {
            #expect(try await get(target).status == 401, "\(target)")
        }
        #expect(try await get("/api/object?token=\(Self.token)", method: "POST").status == 401)
        #expect(try await get("/api/object", method: "POST", headers: [bearer]).status == 405)
    }

    // MARK: - Host

    @Test("names the server does not own are refused before routing", arguments: [
        "evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example", "", "user@localhost",
        "[::2]", "10.255.255.254", "localhost:http", "local host",
    ])
    func unknownHostsAre421(host: String) async throws {
        for path in ["/api/health", "/api/nothing", "/"] {
            let reply = try await get(path, host: host, headers: [bearer])
            #expect(reply.status == 421, "\(host) \(path)")
            #expect(!reply.text.contains("<script"), "\(host)")
        }
    }

    @Test func ownNamesAreAccepted() async throws {
        var hosts = ["localhost", "LOCALHOST:1234", "127.0.0.1", "[::1]", "[::1]:80", "localhost.", "browser.example.test:99"]
        hosts += ServerHostNames.machineNames()
        for host in hosts {
            #expect(try await get("/api/health", host: host, headers: [bearer]).status == 200, "\(host)")
        }
    }

    @Test func anAbsoluteFormTargetMustAgreeWithHost() async throws {
        // RFC 9112 §3.2.2 lets the target's authority win over Host; two different hosts are refused instead (400),
        // so the host check and the same-origin check never read two different ones.
        #expect(try await get("http://evil.example/api/health", host: "evil.example", headers: [bearer]).status == 421)
        #expect(try await get("http://localhost:1/api/health", host: "localhost:1", headers: [bearer]).status == 200)
        #expect(try await get("http://evil.example/api/health", headers: [bearer]).status == 400)
        #expect(try await get("http://localhost:1/api/health", host: "evil.example", headers: [bearer]).status == 400)
    }

    @Test func hostIsCheckedBeforeTheToken() async throws {
        // A rebinding page without the token learns nothing, not even that a token exists.
        #expect(try await get("/api/health", host: "evil.example").status == 421)
    }

    // MARK: - Other sites

    @Test func errorsOfTheHTTPLayerCarryTheProtectiveHeadersToo() async throws {
        let outcome = try await RawHTTPClient.exchange("NOT A REQUEST LINE\r\n\r\n", port: port)
        guard case .response(let reply) = outcome else { Issue.record("no response: \(outcome)"); return }
        #expect(reply.status == 400)
        #expect(reply.header("X-Frame-Options") == "DENY")
        #expect(reply.header("X-Content-Type-Options") == "nosniff")
        #expect(reply.header("Referrer-Policy") == "no-referrer")
    }

    @Test func noCORSHeadersAreEverSent() async throws {
        let replies = [
            try await get("/api/health", headers: [bearer, "Origin: http://evil.example"]),
            try await get("/api/health", method: "OPTIONS", headers: [
                bearer, "Origin: http://evil.example", "Access-Control-Request-Method: GET",
            ]),
            try await get("/api/health", headers: ["Origin: http://evil.example"]),
        ]
        #expect(replies.map(\.status) == [200, 405, 401])
        for reply in replies {
            #expect(!reply.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
            #expect(reply.header("X-Frame-Options") == "DENY")
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
            #expect(reply.header("Referrer-Policy") == "no-referrer")
        }
    }

    @Test func crossSiteWritesAreRefusedBeforeRouting() async throws {
        let own = "Origin: http://127.0.0.1:\(port)"
        let cases: [([String], Int)] = [
            (["Origin: http://evil.example"], 403),
            (["Origin: null"], 403),
            (["Sec-Fetch-Site: cross-site"], 403),
            (["Sec-Fetch-Site: same-site", own], 403),
            ([own, "Sec-Fetch-Site: same-origin"], 405),  // reached the router, which has no write routes yet
            ([], 405),  // not from a browser page: left to the token
        ]
        for (headers, status) in cases {
            #expect(try await get("/api/object", method: "DELETE", headers: [bearer] + headers).status == status, "\(headers)")
        }
        // Reads are never blocked by it.
        #expect(try await get("/api/health", headers: [bearer, "Sec-Fetch-Site: cross-site"]).status == 200)
    }

    // MARK: - Policy

    @Test func runningInfoCarriesTheToken() throws {
        let info = try #require(server.runningInfo)
        #expect(info.tokenRequired)
        #expect(info.pairingToken == Self.token)
        // The printed link carries a one-time code, never the token.
        let code = try PairingTesting.code(info)
        #expect(code.utf8.count == 22 && code != Self.token)
        #expect(info.urls.map(\.absoluteString) == ["http://127.0.0.1:\(port)/?pair=\(code)"])
    }

    func makeServer(_ bind: CoreDataBrowserServer.BindAddress, _ policy: CoreDataBrowserServer.PairingTokenPolicy) async throws -> CoreDataBrowserServer {
        var options = CoreDataBrowserServer.Options.forTests(bind: bind)
        options.pairingToken = policy
        return CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
    }

    @Test func loopbackNeedsNoTokenByDefaultButEveryInterfaceDoes() async throws {
        let loopback = try await makeServer(.loopback, .automatic)
        let local = try loopback.start()
        defer { loopback.stop() }
        #expect(!local.tokenRequired)
        #expect(try await RawHTTPClient.exchange("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n", port: local.port).status == 200)

        let everywhere = try await makeServer(.allInterfaces, .automatic)
        let wide = try everywhere.start()
        defer { everywhere.stop() }
        let token = try #require(wide.pairingToken)
        #expect(token.utf8.count == 22)
        #expect(token.utf8.allSatisfy(PairingToken.isUnreserved))
        #expect(try await RawHTTPClient.exchange("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n", port: wide.port).status == 401)
        #expect(
            try await RawHTTPClient.exchange(
                "GET /api/health HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n", port: wide.port
            ).status == 200)
        // A restart in the same process keeps the token, so the browser's cookie stays valid.
        everywhere.stop()
        #expect(try everywhere.start().pairingToken == token)
    }

    @Test func aRememberedTokenSurvivesARelaunchAndItsCookieExpiresWithIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func launch() async throws -> CoreDataBrowserServer {
            var options = CoreDataBrowserServer.Options.forTests(bind: .allInterfaces)
            options.pairingTokenFile = directory.appendingPathComponent("app.pairing-token")
            return CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        }
        let first = try await launch()
        let info = try first.start()
        let token = try #require(info.pairingToken)
        let reply = try await PairingTesting.exchange(try PairingTesting.code(info), port: info.port)
        let cookie = try #require(reply.header("Set-Cookie"))
        #expect(cookie.hasPrefix("cdb_session_\(info.port)=") && !cookie.contains(token))
        let maxAge = try #require(cookie.components(separatedBy: "Max-Age=").last.flatMap { Int($0) })
        #expect(maxAge <= Int(PairingTokenFile.lifetime) && maxAge > Int(PairingTokenFile.lifetime) - 3600)
        let session = try #require(cookie.split(separator: ";").first.map(String.init))
        first.stop()

        // The relaunched app has the same token, so the browser's session cookie still opens it.
        let relaunched = try await launch()
        defer { relaunched.stop() }
        let again = try relaunched.start()
        #expect(again.pairingToken == token)
        #expect(try await RawHTTPClient.exchange(
            "GET /api/health HTTP/1.1\r\nHost: localhost:\(again.port)\r\nCookie: \(session.replacingOccurrences(of: "_\(info.port)=", with: "_\(again.port)="))\r\n\r\n",
            port: again.port).status == 200)
    }

    @Test func aRememberedTokenNearItsEndIsReplacedAtLaunch() throws {
        // Less than a day left: replaced now, rather than expire in the middle of a debugging session.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("app.pairing-token")
        let first = PairingTokenFile.load(from: file).token
        let now = Date()
        #expect(PairingTokenFile.load(from: file, now: now.addingTimeInterval(PairingTokenFile.lifetime - PairingTokenFile.renewalMargin - 60)).token == first)
        let renewed = PairingTokenFile.load(from: file, now: now.addingTimeInterval(PairingTokenFile.lifetime - PairingTokenFile.renewalMargin + 60))
        #expect(renewed.token != first)
    }

    @Test func disablingTheTokenIsExplicit() async throws {
        let open = try await makeServer(.allInterfaces, .disabledAnyoneOnTheNetworkCanReadTheStore)
        let info = try open.start()
        defer { open.stop() }
        #expect(!info.tokenRequired)
        #expect(info.urls.last?.absoluteString == "http://127.0.0.1:\(info.port)")
        #expect(try await RawHTTPClient.exchange("GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n", port: info.port).status == 200)
    }

    @Test("a host-supplied token must be long and URL-safe", arguments: ["short", "", String(repeating: "a", count: 21), "token with spaces 0123456789", "tøken-0123456789012345678", "a/b?c=d&e-0123456789012345", String(repeating: "a", count: 257)])
    func invalidHostTokensRefuseToStart(token: String) async throws {
        let server = try await makeServer(.loopback, .token(token))
        #expect(throws: CoreDataBrowserServer.StartError.self) { try server.start() }
        #expect(!server.isRunning)
    }

    @Test func generatedTokensAre128RandomBitsInBase64URL() {
        let tokens = (0..<1000).map { _ in PairingToken.generate().value }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0.utf8.count == 22 && $0.utf8.allSatisfy(PairingToken.isUnreserved) })
        // 22 base64url characters hold 132 bits; the last one carries only 2 random bits (128 in all).
        #expect(Set(tokens.map { $0.last! }).isSubset(of: ["A", "Q", "g", "w"]))
        // Every position but the last uses the whole alphabet.
        #expect(Set(tokens.map { $0.first! }).count > 50)
    }
}
