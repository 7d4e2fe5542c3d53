import BrowserHTTPTesting
@testable import CoreDataBrowser
import Foundation
import Testing

/// What a browser does with a printed pairing link, over a real socket: the link's one-time code, posted to
/// `/api/pairing`, gives a session cookie.
enum PairingTesting {
    /// The `pair` code of the running server's printed links (all its URLs carry the same one).
    static func code(_ info: CoreDataBrowserServer.RunningInfo) throws -> String {
        try code(of: try #require(info.urls.last))
    }

    static func code(of url: URL) throws -> String {
        let query = try #require(url.query)
        #expect(query.hasPrefix("pair="))
        return String(query.dropFirst("pair=".count))
    }

    /// `POST /api/pairing` with `code` as its body, as the pairing page's script sends it.
    /// The cookie is named after the port in `host` (`AccessPolicy.cookieName`).
    static func exchange(_ code: String, port: UInt16, host: String? = nil, headers: [String] = []) async throws -> RawHTTPClient.Response {
        let host = host ?? "127.0.0.1:\(port)"
        let lines = ["POST /api/pairing HTTP/1.1", "Host: \(host)", "Origin: http://\(host)",
                     "Content-Type: text/plain;charset=UTF-8", "Content-Length: \(code.utf8.count)", "Connection: close"] + headers
        let outcome = try await RawHTTPClient.exchange(lines.joined(separator: "\r\n") + "\r\n\r\n" + code, port: port)
        guard case .response(let response) = outcome else {
            Issue.record("no response to the pairing exchange: \(outcome)")
            throw CancellationError()
        }
        return response
    }

    /// The session cookie a successful exchange set, as a `Cookie:` header line.
    static func cookie(_ reply: RawHTTPClient.Response) throws -> String {
        #expect(reply.status == 200)
        return "Cookie: " + (try #require(reply.header("Set-Cookie")?.split(separator: ";").first.map(String.init)))
    }

    /// Pairs like a browser opening the server's printed link: the session cookie, as a `Cookie:` header line.
    static func pair(_ info: CoreDataBrowserServer.RunningInfo, host: String? = nil) async throws -> String {
        try cookie(try await exchange(try code(info), port: info.port, host: host))
    }
}
