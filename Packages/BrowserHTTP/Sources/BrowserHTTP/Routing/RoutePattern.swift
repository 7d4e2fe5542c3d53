/// A parsed route pattern such as `/api/entities/:name` or `/assets/*path`.
struct RoutePattern: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        /// Matches a path segment whose decoded text is exactly this.
        case literal(String)
        /// `:name` — matches any single segment (possibly empty) and captures it decoded.
        case capture(String)
        /// `*name` (last segment only) — matches one or more remaining segments and
        /// captures them decoded and joined with "/". Meant for static file trees.
        case rest(String)
    }

    let segments: [Segment]

    /// Patterns are written by the programmer, so an invalid one is a programming error
    /// and traps with a clear message rather than silently never matching.
    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "Route pattern must start with '/': \(pattern)")
        let parts = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        segments = parts.enumerated().map { index, part in
            if part.hasPrefix(":") {
                return .capture(String(part.dropFirst()))
            }
            if part.hasPrefix("*") {
                precondition(index == parts.count - 1, "'*' must be the last segment: \(pattern)")
                return .rest(String(part.dropFirst()))
            }
            return .literal(String(part))
        }
    }

    /// Matches decoded path segments (`HTTPRequest.pathSegments`); returns the
    /// captures, or nil if the pattern does not match.
    func match(_ pathSegments: [String]) -> [String: String]? {
        var captures: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < pathSegments.count, pathSegments[index] == text else { return nil }
            case .capture(let name):
                guard index < pathSegments.count else { return nil }
                captures[name] = pathSegments[index]
            case .rest(let name):
                guard index < pathSegments.count else { return nil }
                captures[name] = pathSegments[index...].joined(separator: "/")
                return captures
            }
        }
        return pathSegments.count == segments.count ? captures : nil
    }
}
