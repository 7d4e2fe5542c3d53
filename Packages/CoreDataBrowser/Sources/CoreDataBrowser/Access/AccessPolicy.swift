import BrowserHTTP
import Foundation

/// Who may use the server: wraps the router and refuses requests before any route runs.
///
/// In order: the `Host` must name this server (against DNS rebinding: 421); a request that changes state
/// must come from this server's own pages (against cross-site request forgery: 403: the write routes, and the
/// reads sent as POST such as `…/query`); and, when a pairing token is required, the request must carry a session cookie or the token itself
/// as a bearer token (401). A browser gets its session cookie (`BrowserSession`: signed with the token, expiring,
/// never the token) through a printed one-time pairing link (`PairingExchange`, `PairingCodes`), so what stays in
/// its history opens nothing; the token never goes into a URL. A token past its expiry (a remembered one, after
/// 7 days) is refused on every request, and so are the sessions it signed.
///
/// The checks run twice over, but never twice for one request: as the server's `HTTPAdmission`, on the event-loop
/// thread as soon as a request's head is decoded (a refused client's body is never read, and a connection that
/// passes keeps a slot reserved for the owner), and in `respond(to:)` for a request the server did not admit
/// (`HTTPRequest.isAuthenticated` false: built in code). Either way the work before the token is known is bounded:
/// the decoder caps list elements and cookies, and one session cookie at most is verified (one HMAC).
///
/// Every response gets headers that keep other sites out: no CORS headers at all (another origin's script
/// can never read a response), `X-Frame-Options: DENY` (no clickjacking in a frame), `Referrer-Policy:
/// no-referrer` and `X-Content-Type-Options: nosniff`.
struct AccessPolicy: HTTPResponder, HTTPAdmission {
    let next: any HTTPResponder
    let hosts: HTTPHostAllowList
    /// The token and its expiry, read afresh for every request: `CoreDataBrowserServer.renewPairingToken()`
    /// replaces them while the server runs.
    let credentials: PairingCredentials
    /// The machine's addresses now: a DHCP lease may change them while the server runs.
    let currentAddresses: @Sendable () -> [String]
    /// The printed pairing links' one-time codes.
    let codes: PairingCodes

    static let cookiePrefix = "cdb_session"

    init(next: any HTTPResponder, hosts: HTTPHostAllowList, credentials: PairingCredentials,
         codes: PairingCodes = PairingCodes(), currentAddresses: @escaping @Sendable () -> [String]) {
        self.next = next
        self.hosts = hosts
        self.credentials = credentials
        self.codes = codes
        // Read on the event-loop thread for every request naming an unknown host: at most once a second.
        self.currentAddresses = RecentAddresses(reading: currentAddresses).current
    }

    /// - Parameters:
    ///   - token: nil when no token is required.
    ///   - tokenExpires: when the token expires (a remembered token); the cookie expires with it. nil: never.
    init(next: any HTTPResponder, hosts: HTTPHostAllowList, token: PairingToken?, tokenExpires: Date?,
         currentAddresses: @escaping @Sendable () -> [String]) {
        self.init(next: next, hosts: hosts, credentials: PairingCredentials(token: token, expires: tokenExpires),
                  currentAddresses: currentAddresses)
    }

    /// Before the body: the same checks as `respond(to:)`, on the head alone. A pairing visit or exchange passes
    /// without credentials, so it is admitted as anonymous (its connection does not take a slot kept for the
    /// owner), and an exchange is read only when it declares a body of one code at most.
    func admit(_ head: HTTPRequest) -> HTTPAdmissionVerdict {
        let (token, tokenExpires) = credentials.current
        if let denial = check(head, token: token, tokenExpires: tokenExpires) {
            return .refused(Self.finished(Self.render(denial, for: head), for: head))
        }
        guard token != nil, PairingExchange.handles(head) else { return .authenticated }
        if head.method == .POST {
            let declared = head.headers[HTTPHeaderName.contentLength].flatMap { Int($0) }
            guard head.headers[HTTPHeaderName.transferEncoding] == nil, let declared,
                  declared <= PairingExchange.maximumCodeBytes + 2 else {  // + a line ending a script may add
                return .refused(Self.finished(Self.render(.pairingBodyTooLarge, for: head), for: head))
            }
        }
        return .anonymous
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        var response: HTTPResponse
        let (token, tokenExpires) = credentials.current
        // A request the server admitted was checked on its head, moments ago.
        if !request.isAuthenticated, let denial = check(request, token: token, tokenExpires: tokenExpires) {
            response = Self.render(denial, for: request)
        } else if let token, let pairing = PairingExchange.answer(request, token: token, tokenExpires: tokenExpires, codes: codes) {
            response = pairing
        } else {
            response = await next.respond(to: request)
        }
        return Self.finished(response, for: request)
    }

    /// What every answer gets, a refusal included.
    static func finished(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var response = response
        addProtectiveHeaders(&response, isAPI: isAPI(request))
        return response
    }

    static func isAPI(_ request: HTTPRequest) -> Bool {
        request.path == "/api" || request.path.hasPrefix("/api/")
    }

    /// The first reason to refuse the request, or nil to let it through.
    func check(_ request: HTTPRequest, token: PairingToken?, tokenExpires: Date?) -> AccessDenial? {
        if !hosts.allows(request) {
            let host = HTTPHostAllowList.host(of: request)
            // An address the machine gained after start (new Wi-Fi, DHCP renewal) is still its own.
            guard let host, currentAddresses().contains(host) else { return .unknownHost(host) }
        }
        guard HTTPSameOriginCheck.allows(request) else { return .crossOrigin }
        guard let token else { return nil }
        let now = Date()
        if let tokenExpires, now >= tokenExpires { return .expiredToken }
        if PairingExchange.handles(request) { return nil }  // checked and answered by `PairingExchange`
        // One signature computed at most, however many cookies are sent: the last well-formed one of our name. A
        // browser sends a name's cookies with longer paths first (RFC 6265 §5.4) and ours has `Path=/`.
        if let session = request.cookies(named: Self.cookieName(for: request)).last(where: BrowserSession.isWellFormed),
           BrowserSession.accepts(session, token: token, now: now) {
            return nil
        }
        if let bearer = request.bearerToken, token.matches(bearer) { return nil }
        return .missingToken
    }

    /// Cookies are scoped by host but not by port (RFC 6265 §8.5), so two servers on one machine would
    /// overwrite each other's cookie under one name; the port the browser used is part of the name.
    static func cookieName(for request: HTTPRequest) -> String {
        guard let host = request.authority, let colon = host.lastIndex(of: ":") else { return cookiePrefix }
        let port = host[host.index(after: colon)...]
        guard !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else { return cookiePrefix }
        return "\(cookiePrefix)_\(port)"
    }

    /// JSON for the API (scripts read it), a short page for everything else (a person reads it).
    static func render(_ denial: AccessDenial, for request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        if isAPI(request) {
            response = JSONResponses.error(denial.status, denial.message)
        } else {
            response = .data(Data(denial.page.utf8), contentType: "text/html; charset=utf-8", status: denial.status)
            // The page has no script, and its only style is inline.
            response.headers.set(HTTPHeaderName.contentSecurityPolicy, denialPagePolicy)
        }
        if denial.status == .unauthorized {
            // RFC 9110 §11.6.1: a 401 says which scheme would work.
            response.headers.set(HTTPHeaderName.wwwAuthenticate, #"Bearer realm="CoreDataBrowser""#)
        }
        // Every refusal here ends the connection, the cross-origin 403 included: the client has not shown the
        // token, and a kept connection would let it hold one of the server's slots by asking again before the
        // idle timeout (HTTPConnection closes after 400, 401 and 421 on its own; a 403 from a route, for an
        // owner whose write the store refuses, keeps its connection).
        response.headers.set(HTTPHeaderName.connection, "close")
        return response
    }

    /// The refusal pages' policy: nothing but their inline style.
    static let denialPagePolicy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

    /// The headers every answer gets, the HTTP layer's own errors included (`isAPI`: the request was for `/api`,
    /// or the layer answered before reading a path).
    ///
    /// The one place `Cache-Control` is decided: store data never lands in a browser's or a proxy's cache, so an
    /// `/api` answer is `no-store` whatever route answered (a route added later included), and so is any other
    /// answer that chose no policy of its own (a refusal page, the pairing page); the UI's files choose `no-cache`
    /// (`BrowserRoutes.assetRouter`).
    static func addProtectiveHeaders(_ response: inout HTTPResponse, isAPI: Bool) {
        if isAPI || response.headers[HTTPHeaderName.cacheControl] == nil {
            response.headers.set(HTTPHeaderName.cacheControl, "no-store")
        }
        for name in Set(response.headers.map(\.name)) where name.lowercased().hasPrefix("access-control-") {
            response.headers.remove(name)
        }
        response.headers.set(HTTPHeaderName.contentTypeOptions, "nosniff")
        response.headers.set(HTTPHeaderName.frameOptions, "DENY")
        response.headers.set(HTTPHeaderName.referrerPolicy, "no-referrer")
    }
}
