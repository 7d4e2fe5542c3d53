/// Credentials a client can present with a request: cookies and a bearer token.
extension HTTPRequest {
    /// Values of every cookie named `name` in the `Cookie` field (RFC 6265 §5.4: `a=1; b=2`), in order.
    ///
    /// A browser may send several cookies with one name (set for different paths), so all are returned and
    /// the caller decides; names compare exactly. Parsing is lenient about spaces around `;` and `=`, since
    /// an unparsable pair must simply not match rather than fail the request.
    public func cookies(named name: String) -> [String] {
        var values: [String] = []
        for field in headers.values(for: HTTPHeaderName.cookie) {
            for pair in field.split(separator: ";") {
                let trimmed = Substring(pair).trimmingOWS
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                guard trimmed[..<equals].trimmingOWS == name else { continue }
                var value = trimmed[trimmed.index(after: equals)...].trimmingOWS
                // RFC 6265 §4.1.1 allows the value in double quotes.
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                values.append(String(value))
            }
        }
        return values
    }

    /// The token of `Authorization: Bearer <token>` (RFC 6750 §2.1), or nil. The scheme name is
    /// case-insensitive (RFC 9110 §11.1); only one `Authorization` field is meaningful.
    public var bearerToken: String? {
        guard let value = headers[HTTPHeaderName.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, HTTPHeaders.namesMatch(String(parts[0]), "Bearer") else { return nil }
        let token = parts[1].trimmingOWS
        return token.isEmpty ? nil : String(token)
    }
}
