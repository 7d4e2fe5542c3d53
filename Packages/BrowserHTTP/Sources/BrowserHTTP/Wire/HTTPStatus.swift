/// A response status code with its reason phrase (RFC 9110 §15).
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    /// Sent verbatim in the status line; clients must ignore it (RFC 9112 §4).
    public let reason: String

    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Looks up the standard reason phrase for the codes declared below.
    public init(code: Int) {
        self.init(code: code, reason: Self.known.first { $0.code == code }?.reason ?? "Unknown")
    }

    public var description: String { "\(code) \(reason)" }

    /// 1xx, 204 and 304 responses never carry content (RFC 9110 §6.4.1).
    public var allowsBody: Bool { !(100..<200).contains(code) && code != 204 && code != 304 }

    public static let ok = HTTPStatus(code: 200, reason: "OK")
    public static let created = HTTPStatus(code: 201, reason: "Created")
    public static let noContent = HTTPStatus(code: 204, reason: "No Content")
    /// One range of the representation (RFC 9110 §15.3.7).
    public static let partialContent = HTTPStatus(code: 206, reason: "Partial Content")
    public static let found = HTTPStatus(code: 302, reason: "Found")
    public static let seeOther = HTTPStatus(code: 303, reason: "See Other")
    public static let notModified = HTTPStatus(code: 304, reason: "Not Modified")
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    public static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    /// The request names a host this server does not answer for (RFC 9110 §15.5.20).
    public static let misdirectedRequest = HTTPStatus(code: 421, reason: "Misdirected Request")
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    public static let payloadTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    public static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    /// The requested range lies outside the representation (RFC 9110 §15.5.17).
    public static let unsupportedMediaType = HTTPStatus(code: 415, reason: "Unsupported Media Type")
    public static let rangeNotSatisfiable = HTTPStatus(code: 416, reason: "Range Not Satisfiable")
    public static let requestHeaderFieldsTooLarge = HTTPStatus(
        code: 431, reason: "Request Header Fields Too Large")
    public static let internalServerError = HTTPStatus(code: 500, reason: "Internal Server Error")
    public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    public static let httpVersionNotSupported = HTTPStatus(
        code: 505, reason: "HTTP Version Not Supported")

    private static let known: [HTTPStatus] = [
        .ok, .created, .noContent, .partialContent, .found, .seeOther, .notModified, .badRequest, .unauthorized,
        .forbidden, .notFound, .methodNotAllowed, .misdirectedRequest, .requestTimeout, .payloadTooLarge, .uriTooLong,
        .unsupportedMediaType, .rangeNotSatisfiable, .requestHeaderFieldsTooLarge, .internalServerError, .notImplemented,
        .serviceUnavailable, .httpVersionNotSupported,
    ]
}
