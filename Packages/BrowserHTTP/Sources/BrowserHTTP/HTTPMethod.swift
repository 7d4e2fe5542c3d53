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

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static let GET = HTTPMethod("GET")
    public static let HEAD = HTTPMethod("HEAD")
    public static let POST = HTTPMethod("POST")
    public static let PUT = HTTPMethod("PUT")
    public static let PATCH = HTTPMethod("PATCH")
    public static let DELETE = HTTPMethod("DELETE")
    public static let OPTIONS = HTTPMethod("OPTIONS")

    /// Order used when listing methods (e.g. in an `Allow` header) so output is stable.
    static let canonicalOrder: [HTTPMethod] = [.GET, .HEAD, .POST, .PUT, .PATCH, .DELETE, .OPTIONS]
}
