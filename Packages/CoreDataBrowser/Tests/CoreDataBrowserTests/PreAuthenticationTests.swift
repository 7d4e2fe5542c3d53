import BrowserHTTPTesting
import BrowserHTTP
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// What a client without the token can make the assembled server do before it is refused: one session signature
/// verified at most, no body read and no `100 Continue`, one authority for every check. Raw sockets on loopback.
@Suite(.serialized)
final class PreAuthenticationTests {
    static let token = "pre-auth-token-0123456789_abcdef"
    let server: CoreDataBrowserServer
    let info: CoreDataBrowserServer.RunningInfo
    var port: UInt16 { info.port }

    init() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.pairingToken = .token(Self.token)
        server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        info = try server.start()
    }

    deinit { server.stop() }

    func send(_ lines: [String], body: String = "") throws -> RawHTTPClient {
        let client = try RawHTTPClient(port: port)
        client.send(lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
        return client
    }

    /// A session cookie's value, from the printed link's one-time code.
    func session() async throws -> String {
        let line = try await PairingTesting.pair(info)
        #expect(line.hasPrefix("Cookie: cdb_session_\(port)="))
        return String(line.dropFirst("Cookie: cdb_session_\(port)=".count))
    }

    func health(cookies: [String]) async throws -> Int? {
        let line = "Cookie: " + cookies.map { "cdb_session_\(port)=\($0)" }.joined(separator: "; ")
        return await (try send(["GET /api/health HTTP/1.1", "Host: 127.0.0.1:\(port)", line])).readResponse()?.status
    }

    /// Well-formed sessions that are not ours: each would cost an HMAC to reject.
    static func forgeries(_ count: Int) -> [String] {
        (0..<count).map { "\(4_000_000_000 + $0).AAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB" }
    }

    /// Only the last well-formed session cookie is verified: a valid one after 179 forgeries is accepted, and a
    /// forgery after a valid one is refused, which shows the valid one, earlier, was never verified. So a request
    /// costs one HMAC at most, however many cookies it carries (at most 180; more are a 431).
    @Test func oneSessionCookieIsVerifiedAtMost() async throws {
        let valid = try await session()
        #expect(try await health(cookies: [valid]) == 200)
        #expect(try await health(cookies: Self.forgeries(179) + [valid]) == 200)
        #expect(try await health(cookies: [valid] + Self.forgeries(1)) == 401)
        // Values without a session's shape are skipped without computing anything.
        #expect(try await health(cookies: [valid, "junk", "1.2.3"]) == 200)
        #expect(try await health(cookies: Self.forgeries(181)) == 431)
    }

    /// Without the token a request with a body is answered from its head: no `100 Continue`, no wait for the body,
    /// and the connection closes. With the token the client is invited to send it.
    @Test func aBodyIsNeverReadBeforeTheToken() async throws {
        let head = ["POST /api/entities HTTP/1.1", "Host: 127.0.0.1:\(port)", "Expect: 100-continue", "Content-Length: 1000000"]
        let stranger = try send(head)
        let refused = await stranger.readResponse()
        #expect(refused?.status == 401)
        #expect(refused?.rawText.hasPrefix("HTTP/1.1 401") == true)
        #expect(refused?.header("Connection") == "close")
        #expect(await stranger.waitForClose() == .closed)
        // A cross-origin write is refused the same way, token or not.
        let crossSite = try send(head + ["Authorization: Bearer \(Self.token)", "Origin: http://evil.example"])
        #expect(await crossSite.readResponse()?.status == 403)
        #expect(await crossSite.waitForClose() == .closed)
        let owner = try send(head.dropLast() + ["Content-Length: 2", "Authorization: Bearer \(Self.token)"])
        #expect(await owner.readResponse()?.rawText == "HTTP/1.1 100 Continue\r\n\r\n")
        owner.send("{}")
        #expect(await owner.readResponse()?.status == 405)
    }

    /// `POST http://127.0.0.1:<port>/…` with `Host: evil.example` and `Origin: http://evil.example` once passed both
    /// checks: the allow-list read the target, the same-origin check the Host header. Now it is a 400.
    /// Anyone may post a pairing code, so the exchange is read only when it declares one code's worth of body: a
    /// large (or undeclared, chunked) body is refused unread, and its connection never counts as the owner's.
    @Test func aPairingExchangeReadsOneCodeAtMost() async throws {
        let head = ["POST /api/pairing HTTP/1.1", "Host: 127.0.0.1:\(port)", "Origin: http://127.0.0.1:\(port)",
                    "Expect: 100-continue"]
        let large = try send(head + ["Content-Length: 1000000"])
        let refused = await large.readResponse()
        #expect(refused?.status == 413)
        #expect(refused?.rawText.hasPrefix("HTTP/1.1 413") == true)
        #expect(await large.waitForClose() == .closed)
        // A chunked body (no declared length) never reaches the exchange: the decoder refuses it for any route.
        let chunked = try send(head + ["Transfer-Encoding: chunked"])
        #expect(await chunked.readResponse()?.status == 501)
        // One code's worth is read and answered (a wrong code: 401 with the advice).
        let wrong = try send(Array(head.dropLast()) + ["Content-Length: 5"], body: "wrong")
        #expect(await wrong.readResponse()?.status == 401)
    }

    @Test func anAbsoluteFormTargetNamingAnotherHostIsRefused() async throws {
        let client = try send([
            "POST http://127.0.0.1:\(port)/api/entities HTTP/1.1", "Host: evil.example", "Origin: http://evil.example",
            "Authorization: Bearer \(Self.token)", "Content-Length: 2",
        ], body: "{}")
        #expect(await client.readResponse()?.status == 400)
        let agreeing = try send([
            "GET http://127.0.0.1:\(port)/api/health HTTP/1.1", "Host: 127.0.0.1:\(port)", "Authorization: Bearer \(Self.token)",
        ])
        #expect(await agreeing.readResponse()?.status == 200)
    }
}
