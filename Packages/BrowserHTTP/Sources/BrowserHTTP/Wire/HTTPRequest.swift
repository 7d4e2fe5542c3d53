public import Foundation

/// A decoded HTTP request.
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request-target exactly as received, e.g. `/api/entities/Book?search=caf%C3%A9`.
    /// The router matches on this (not on `path`) so `%2F` inside a segment is kept.
    public var target: String
    /// The percent-decoded path, e.g. `/api/entities/Café`.
    public var path: String
    /// The decoded query component.
    public var query: HTTPQuery
    /// The path split on "/" before decoding, then each segment percent-decoded: what routes match, so an encoded
    /// slash (`%2F`) stays inside its segment. "/" → [""], "/a/b" → ["a", "b"].
    public var pathSegments: [String]
    /// The authority of an absolute-form target (`GET http://host:8080/x` → `host:8080`); nil for origin-form.
    /// RFC 9112 §3.2.2: when present it names the host instead of `Host`.
    public var targetAuthority: String?
    /// The raw path and query of the target (`/a%2Fb?x=1`), whatever form the target had: for building a URL on
    /// this server from the request.
    public var originForm: String
    /// `HTTP/1.0` or `HTTP/1.1`.
    public var version: String
    public var headers: HTTPHeaders
    public var body: Data
    /// True when the server's `HTTPAdmission` found this request's credentials (`.authenticated`), before its body
    /// was read. Set only by the server: false for every request built in code, so a responder that is also the
    /// server's admission (and skips checking a second time) still checks those.
    public internal(set) var isAuthenticated = false

    /// The one authority every check reads (the host allow-list, the same-origin check, the cookie's port):
    /// the absolute-form target's (RFC 9112 §3.2.2), else `Host`. The server refuses (400) a request whose two
    /// differ, so it names one host either way.
    public var authority: String? {
        targetAuthority ?? headers[HTTPHeaderName.host]
    }

    /// Builds a request from a raw request-target, decoding `path` and `query` exactly as
    /// the server does. Useful to unit-test handlers and routers without sockets.
    /// - Throws: `HTTPParseError` for an invalid target, percent-escape or UTF-8.
    public init(
        method: HTTPMethod = .GET,
        target: String,
        version: String = "HTTP/1.1",
        headers: HTTPHeaders = HTTPHeaders(),
        body: Data = Data()
    ) throws(HTTPParseError) {
        let parsed = try RequestTarget.parse(target, method: method)
        self.method = method
        self.target = target
        self.path = try PercentDecoding.decode(parsed.rawPath.utf8, plusAsSpace: false)
        self.pathSegments = try parsed.decodedSegments()
        self.targetAuthority = parsed.authority.map(String.init)
        self.originForm = String(parsed.rawPath) + (parsed.rawQuery.map { "?" + $0 } ?? "")
        if let rawQuery = parsed.rawQuery {
            self.query = try HTTPQuery(decodingBytes: Array(rawQuery.utf8))
        } else {
            self.query = HTTPQuery()
        }
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// Whether the client wants the connection kept open after the response
    /// (RFC 9112 §9.3): HTTP/1.1 persists unless `Connection: close`; HTTP/1.0 closes
    /// unless `Connection: keep-alive`.
    public var isKeepAlive: Bool {
        let options = headers.listElements(for: HTTPHeaderName.connection)
        if options.contains(where: { HTTPHeaders.namesMatch(String($0), "close") }) {
            return false
        }
        if version == "HTTP/1.0" {
            return options.contains { HTTPHeaders.namesMatch(String($0), "keep-alive") }
        }
        return true
    }
}
