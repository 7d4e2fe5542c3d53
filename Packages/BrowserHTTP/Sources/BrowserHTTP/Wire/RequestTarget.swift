/// The request-target split into its authority (absolute-form only), its raw (still percent-encoded) path and
/// query. Parsed once per request, in `HTTPRequest.init`; everything else reads the request's fields.
struct RequestTarget: Equatable {
    /// `host[:port]` of an absolute-form target (`GET http://host/path`), nil for every other form.
    var authority: Substring?
    /// The path exactly as received; routing splits it on "/" *before* decoding so an
    /// encoded slash (`%2F`) stays inside one segment.
    var rawPath: Substring
    /// The query without the `?`, or nil when the target has none.
    var rawQuery: Substring?

    /// Splits a request-target (RFC 9112 §3.2).
    ///
    /// Accepts origin-form (`/path?query`), absolute-form (`http://host/path?query`,
    /// which servers MUST accept per RFC 9112 §3.2.2 even though only proxies are sent
    /// it) and asterisk-form (`*`, OPTIONS only). Authority-form is for CONNECT, which
    /// this server does not implement, so it is rejected like any other target.
    static func parse(_ target: String, method: HTTPMethod) throws(HTTPParseError) -> RequestTarget {
        let utf8 = target.utf8
        // A fragment is never part of a request-target (RFC 9112 §3.2); whitespace and
        // controls were already rejected by the request-line parser.
        guard !utf8.isEmpty, !utf8.contains(ASCII.hash), !utf8.contains(where: ASCII.isControl)
        else { throw .invalidRequestTarget }

        if target == "*" {
            guard method == .OPTIONS else { throw .invalidRequestTarget }
            return RequestTarget(authority: nil, rawPath: target[...], rawQuery: nil)
        }
        var pathAndQuery = target[...]
        var authority: Substring?
        if utf8.first != ASCII.slash {
            // absolute-form: scheme "://" authority path-abempty [ "?" query ]
            let lowered = target.prefix(8).lowercased()
            let schemeLength: Int
            if lowered.hasPrefix("http://") {
                schemeLength = 7
            } else if lowered.hasPrefix("https://") {
                schemeLength = 8
            } else {
                throw .invalidRequestTarget
            }
            let afterScheme = target.dropFirst(schemeLength)
            guard let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else {
                guard !afterScheme.isEmpty else { throw .invalidRequestTarget }
                return RequestTarget(authority: afterScheme, rawPath: "/", rawQuery: nil)
            }
            guard authorityEnd != afterScheme.startIndex else { throw .invalidRequestTarget }
            authority = afterScheme[..<authorityEnd]
            pathAndQuery = afterScheme[authorityEnd...]
        }
        if let questionMark = pathAndQuery.firstIndex(of: "?") {
            var rawPath = pathAndQuery[..<questionMark]
            if rawPath.isEmpty { rawPath = "/" }  // "http://host?x" has an empty path
            return RequestTarget(
                authority: authority, rawPath: rawPath, rawQuery: pathAndQuery[pathAndQuery.index(after: questionMark)...])
        }
        return RequestTarget(authority: authority, rawPath: pathAndQuery, rawQuery: nil)
    }

    /// The raw path split on "/" and each segment percent-decoded. The leading "/"
    /// yields no segment, so "/" → [""], "/a/b" → ["a", "b"], "/a/" → ["a", ""].
    func decodedSegments() throws(HTTPParseError) -> [String] {
        guard rawPath.utf8.first == ASCII.slash else { return [String(rawPath)] }
        var segments: [String] = []
        for segment in rawPath.utf8.dropFirst().split(
            separator: ASCII.slash, omittingEmptySubsequences: false)
        {
            segments.append(try PercentDecoding.decode(segment, plusAsSpace: false))
        }
        return segments
    }
}
