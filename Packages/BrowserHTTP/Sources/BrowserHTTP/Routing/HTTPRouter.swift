/// Dispatches requests to handlers by method and path pattern.
///
/// Patterns consist of literal segments, `:name` captures and an optional final
/// `*name` capturing the rest of the path, e.g. `/api/entities/:name`. Matching splits
/// the *raw* path of `HTTPRequest.target` on "/" and percent-decodes each segment, so
/// `/api/entities/a%2Fb` captures `name = "a/b"`. The first matching route in
/// registration order wins.
///
/// - Unknown path → `errorRenderer(.notFound, "No route for <path>")`.
/// - Known path, other method → `errorRenderer(.methodNotAllowed, …)` plus an `Allow`
///   header (RFC 9110 §15.5.6), which lists HEAD wherever GET is allowed.
/// - HEAD without an explicit HEAD route runs the GET handler; the server then sends
///   the headers and Content-Length of that response without its body.
/// - A handler that throws: the response `errorResponse` makes of the error (the application's own error
///   types, with their status and whatever body they carry), else `errorRenderer` with 500 and the error's
///   description. The one place a thrown error becomes a response.
public struct HTTPRouter: HTTPResponder {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) async throws -> HTTPResponse

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    private var routes: [Route] = []
    private let errorRenderer: @Sendable (HTTPStatus, String) -> HTTPResponse
    private let errorResponse: @Sendable (any Error) -> HTTPResponse?

    public init(
        errorRenderer: @escaping @Sendable (HTTPStatus, String) -> HTTPResponse = HTTPErrorRenderer.plainText,
        errorResponse: @escaping @Sendable (any Error) -> HTTPResponse? = { _ in nil }
    ) {
        self.errorRenderer = errorRenderer
        self.errorResponse = errorResponse
    }

    /// Registers `handler` for `method` requests whose path matches `pattern`.
    /// - Precondition: `pattern` starts with "/" and `*` appears only in the last segment.
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler
    ) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        let segments = request.pathSegments

        var allowed: Set<HTTPMethod> = []
        var getMatch: (Route, [String: String])?
        for route in routes {
            guard let captures = route.pattern.match(segments) else { continue }
            if route.method == request.method {
                return await run(route, request, captures)
            }
            if route.method == .GET, getMatch == nil { getMatch = (route, captures) }
            allowed.insert(route.method)
        }
        if request.method == .HEAD, let (route, captures) = getMatch {
            return await run(route, request, captures)
        }
        if allowed.isEmpty {
            return errorRenderer(.notFound, "No route for \(request.path)")
        }
        if allowed.contains(.GET) { allowed.insert(.HEAD) }
        let allowHeader = Self.sorted(allowed).map(\.rawValue).joined(separator: ", ")
        var response = errorRenderer(
            .methodNotAllowed, "Method \(request.method) not allowed for \(request.path)")
        response.headers.set(HTTPHeaderName.allow, allowHeader)
        return response
    }

    private func run(_ route: Route, _ request: HTTPRequest, _ captures: [String: String]) async -> HTTPResponse {
        do {
            return try await route.handler(request, RouteParameters(captures))
        } catch {
            return errorResponse(error) ?? errorRenderer(.internalServerError, String(describing: error))
        }
    }

    /// Standard methods in their conventional order, then any others alphabetically, so
    /// the `Allow` header is deterministic.
    private static func sorted(_ methods: Set<HTTPMethod>) -> [HTTPMethod] {
        let known = HTTPMethod.canonicalOrder.filter(methods.contains)
        let others = methods.subtracting(HTTPMethod.canonicalOrder).sorted { $0.rawValue < $1.rawValue }
        return known + others
    }
}
