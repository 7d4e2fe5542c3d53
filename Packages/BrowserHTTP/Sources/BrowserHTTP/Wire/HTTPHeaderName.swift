/// The header field names this package and its users read or write, spelled once (RFC 9110 and the RFCs named
/// beside each). Field names are case-insensitive on the wire; these are the conventional spellings.
public enum HTTPHeaderName {
    // Framing, set by the server itself (RFC 9112).
    public static let contentLength = "Content-Length"
    public static let transferEncoding = "Transfer-Encoding"
    public static let connection = "Connection"
    public static let expect = "Expect"
    // Content (RFC 9110 §8, RFC 6266).
    public static let contentType = "Content-Type"
    public static let contentDisposition = "Content-Disposition"
    // Ranges (RFC 9110 §14).
    public static let range = "Range"
    public static let contentRange = "Content-Range"
    public static let acceptRanges = "Accept-Ranges"
    // Routing and access (RFC 9110 §7.2, §11; RFC 6265; RFC 6454; Fetch Metadata).
    public static let host = "Host"
    public static let origin = "Origin"
    public static let secFetchSite = "Sec-Fetch-Site"
    public static let cookie = "Cookie"
    public static let setCookie = "Set-Cookie"
    public static let authorization = "Authorization"
    public static let wwwAuthenticate = "WWW-Authenticate"
    public static let allow = "Allow"
    public static let location = "Location"
    // Caching and protection (RFC 9111; W3C CSP; the X- headers browsers honour).
    public static let cacheControl = "Cache-Control"
    public static let contentSecurityPolicy = "Content-Security-Policy"
    public static let contentTypeOptions = "X-Content-Type-Options"
    public static let frameOptions = "X-Frame-Options"
    public static let referrerPolicy = "Referrer-Policy"
    // Server-Sent Events (HTML Living Standard §9.2): the last event ID a reconnecting client received.
    public static let lastEventID = "Last-Event-ID"
}
