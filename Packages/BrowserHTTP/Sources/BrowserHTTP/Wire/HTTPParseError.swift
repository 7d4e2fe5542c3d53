/// Why a request could not be decoded.
///
/// Every case maps to exactly one status in `status`; that switch is the only place
/// in the package where decoding errors are turned into HTTP statuses. After any of
/// these errors the server answers with the status and closes the connection,
/// because the message framing can no longer be trusted (RFC 9112 §2.2, §6.3).
public enum HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request line exceeded `HTTPServerLimits.maxRequestLineBytes`.
    case requestLineTooLong
    /// The request line is not `method SP request-target SP HTTP-version`.
    case malformedRequestLine
    /// The method is not a token.
    case invalidMethod
    /// The request-target is neither origin-form, absolute-form nor `*` (for OPTIONS).
    case invalidRequestTarget
    /// A syntactically valid version other than HTTP/1.0 and HTTP/1.1.
    case unsupportedVersion(String)
    /// A field line is malformed (no colon, invalid name, whitespace before the colon,
    /// control characters in the value).
    case malformedHeader
    /// A field line starts with whitespace (obsolete line folding, RFC 9112 §5.2).
    case obsoleteLineFolding
    /// The header section exceeded `HTTPServerLimits.maxHeaderBytes`.
    case headerSectionTooLarge
    /// More field lines than `HTTPServerLimits.maxHeaderCount`.
    case tooManyHeaders
    /// More list elements in one header field than `HTTPServerLimits.maxListElementsPerHeader`.
    case tooManyListElements
    /// More cookies than `HTTPServerLimits.maxCookiesPerRequest`.
    case tooManyCookies
    /// Missing, repeated or empty `Host` in an HTTP/1.1 request (RFC 9112 §3.2).
    case invalidHost
    /// An absolute-form target whose authority is not the `Host` field's. RFC 9112 §3.2.2 lets the target win, but
    /// a client that names two hosts is either a confused proxy or a request built to make two checks read two
    /// different hosts (the host allow-list one, the same-origin check the other), so it is refused.
    case hostMismatch
    /// Content-Length is not a non-negative decimal number, or several differ.
    case invalidContentLength
    /// Content-Length exceeds `HTTPServerLimits.maxBodyBytes`.
    case bodyTooLarge
    /// Transfer-Encoding and Content-Length together (RFC 9112 §6.3 item 3).
    case transferEncodingWithContentLength
    /// Transfer-Encoding (chunked request bodies) is not implemented.
    case unsupportedTransferEncoding
    /// A malformed %XX escape in the path or query.
    case invalidPercentEncoding
    /// Percent-decoded bytes that are not valid UTF-8.
    case invalidUTF8

    /// The status sent for this error — the single error→status mapping.
    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .unsupportedVersion: .httpVersionNotSupported
        case .headerSectionTooLarge, .tooManyHeaders, .tooManyListElements, .tooManyCookies: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .payloadTooLarge
        case .unsupportedTransferEncoding: .notImplemented
        case .malformedRequestLine, .invalidMethod, .invalidRequestTarget, .malformedHeader,
            .obsoleteLineFolding, .invalidHost, .hostMismatch, .invalidContentLength,
            .transferEncodingWithContentLength, .invalidPercentEncoding, .invalidUTF8:
            .badRequest
        }
    }

    /// A short human-readable explanation, passed to the error renderer.
    public var message: String {
        switch self {
        case .requestLineTooLong: "Request line too long"
        case .malformedRequestLine: "Malformed request line"
        case .invalidMethod: "Invalid method"
        case .invalidRequestTarget: "Invalid request target"
        case .unsupportedVersion(let version): "Unsupported HTTP version \(version)"
        case .malformedHeader: "Malformed header field"
        case .obsoleteLineFolding: "Obsolete header line folding is not accepted"
        case .headerSectionTooLarge: "Header section too large"
        case .tooManyHeaders: "Too many header fields"
        case .tooManyListElements: "Too many elements in a header field's list"
        case .tooManyCookies: "Too many cookies"
        case .invalidHost: "Missing or invalid Host header"
        case .hostMismatch: "The request target's authority and the Host header differ"
        case .invalidContentLength: "Invalid Content-Length"
        case .bodyTooLarge: "Request body too large"
        case .transferEncodingWithContentLength:
            "Transfer-Encoding and Content-Length must not be combined"
        case .unsupportedTransferEncoding: "Transfer-Encoding is not supported"
        case .invalidPercentEncoding: "Invalid percent-encoding"
        case .invalidUTF8: "Invalid UTF-8 in percent-encoded data"
        }
    }

    public var description: String { "\(status.code) \(message)" }
}
