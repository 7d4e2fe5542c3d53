/// Whether a request that changes state comes from the server's own pages, for cross-site request forgery
/// protection (a page on another site making the victim's browser POST to this server).
///
/// Browsers mark where a request comes from: `Sec-Fetch-Site` (Fetch Metadata, every current browser) and
/// `Origin` (sent with every non-GET `fetch` and form post). A request without either did not come from a
/// browser page (curl, a script) and is left to the other checks (a token). Safe methods (GET, HEAD,
/// OPTIONS, TRACE; RFC 9110 §9.2.1) must not change state, so they always pass.
public enum HTTPSameOriginCheck {
    /// True when the request may proceed: a safe method, a same-origin browser request, or no browser marks.
    public static func allows(_ request: HTTPRequest) -> Bool {
        if [HTTPMethod.GET, .HEAD, .OPTIONS, HTTPMethod(rawValue: "TRACE")].contains(request.method) { return true }
        if let site = request.headers[HTTPHeaderName.secFetchSite] {
            // "none": typed in the address bar or a bookmark, i.e. the user's own action.
            guard HTTPHeaders.namesMatch(site, "same-origin") || HTTPHeaders.namesMatch(site, "none") else {
                return false
            }
        }
        if let origin = request.headers[HTTPHeaderName.origin] {
            return isOrigin(origin, sameAsHostOf: request)
        }
        return true
    }

    /// `Origin: http://host:port` (RFC 6454 §7) names the same authority as the request (`HTTPRequest.authority`,
    /// the one `HTTPHostAllowList` reads too). `Origin: null`
    /// (sandboxed frames, some redirects) is never same-origin.
    static func isOrigin(_ origin: String, sameAsHostOf request: HTTPRequest) -> Bool {
        let lowered = origin.lowercased()
        let authority: Substring
        if lowered.hasPrefix("http://") {
            authority = lowered.dropFirst(7)
        } else if lowered.hasPrefix("https://") {
            authority = lowered.dropFirst(8)
        } else {
            return false
        }
        guard let host = request.authority, !authority.isEmpty, !authority.contains("/") else { return false }
        return HTTPHeaders.namesMatch(String(authority), host)
    }
}
