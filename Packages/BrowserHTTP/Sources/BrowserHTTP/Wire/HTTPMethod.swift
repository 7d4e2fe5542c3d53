/// An HTTP request method (RFC 9110 §9).
///
/// A struct rather than an enum because any token is a syntactically valid method;
/// unknown methods must reach the router so it can answer 404/405 instead of the
/// decoder failing. Methods are case-sensitive (RFC 9110 §9.1), so `get` is not `GET`.
public struct HTTPMethod: Hashable, Sendable, RawRepresentable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    /// Never fails: validation of the token syntax happens in the request decoder.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static let GET = HTTPMethod(rawValue: "GET")
    public static let HEAD = HTTPMethod(rawValue: "HEAD")
    public static let POST = HTTPMethod(rawValue: "POST")
    public static let PUT = HTTPMethod(rawValue: "PUT")
    public static let PATCH = HTTPMethod(rawValue: "PATCH")
    public static let DELETE = HTTPMethod(rawValue: "DELETE")
    public static let OPTIONS = HTTPMethod(rawValue: "OPTIONS")

    /// Order used when listing methods (e.g. in an `Allow` header) so output is stable.
    static let canonicalOrder: [HTTPMethod] = [.GET, .HEAD, .POST, .PUT, .PATCH, .DELETE, .OPTIONS]
}
