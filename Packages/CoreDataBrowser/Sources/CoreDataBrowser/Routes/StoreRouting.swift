import BrowserCore
import BrowserHTTP

/// Sends each request to the store it names: `GET /api/stores` lists them, `/api/stores/:store/…` is that store's
/// API (the rest of the path as `/api/…`), every other `/api/…` route means the first store (so one-store clients
/// keep working), and anything else is the web UI's files.
struct StoreRouting: HTTPResponder {
    let servedStores: ServedStores
    let assets: any HTTPResponder
    /// `/api/stores` itself: the router answers HEAD and 405 as every other route.
    private let listing: HTTPRouter

    init(servedStores: ServedStores, assets: any HTTPResponder) {
        self.servedStores = servedStores
        self.assets = assets
        var listing = HTTPRouter(errorRenderer: JSONResponses.error, errorResponse: JSONResponses.errorResponse)
        listing.add(.GET, "/api/stores") { request, _ in
            let refresh: Bool
            switch request.query["refresh"] {
            case nil, "0": refresh = false
            case "1": refresh = true
            case let other?: throw BrowserError.badRequest("refresh must be 1 or 0, got \"\(other)\"")
            }
            return JSONResponses.ok(await servedStores.list(refresh: refresh))
        }
        self.listing = listing
    }

    /// `/api/stores`'s own path segments.
    private static let prefix = ["api", "stores"]

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let segments = request.pathSegments
        guard segments.first == "api" else { return await assets.respond(to: request) }
        guard segments.starts(with: Self.prefix) else { return await forward(request, to: nil) }
        if segments.count == 2 { return await listing.respond(to: request) }
        let id = segments[2]
        guard segments.count > 3, !(segments.count == 4 && segments[3].isEmpty) else {
            return JSONResponses.error(.notFound, "/api/stores/\(id) is a store, not a route: add one, such as /api/stores/\(id)/entities")
        }
        // The raw path keeps its escapes (an entity name with %2F stays one segment); only the prefix goes.
        let raw = request.originForm
        let queryStart = raw.firstIndex(of: "?") ?? raw.endIndex
        let rawSegments = raw[..<queryStart].split(separator: "/", omittingEmptySubsequences: false)
        // "", "api", "stores", id, rest…
        let target = "/api/" + rawSegments.dropFirst(4).joined(separator: "/") + raw[queryStart...]
        let rewritten: HTTPRequest
        do {
            rewritten = try HTTPRequest(method: request.method, target: target, version: request.version,
                                        headers: request.headers, body: request.body)
        } catch {
            return JSONResponses.error(.badRequest, "Malformed path: \(error)")
        }
        return await forward(rewritten, to: id)
    }

    private func forward(_ request: HTTPRequest, to id: String?) async -> HTTPResponse {
        let opened: ServedStores.Opened
        do {
            opened = try await servedStores.opened(id)
        } catch {
            return JSONResponses.error(HTTPStatus(code: error.statusCode), error.message)
        }
        return await opened.router.respond(to: request)
    }
}
