import BrowserCore
import BrowserHTTP
import BrowserWebAssets

/// The URL space: the JSON API of `docs/API.md` and the web UI's files.
///
/// Only GET routes exist while the server is read-only, so the router answers every other method with 405 and
/// an `Allow` header, and HEAD wherever GET works.
enum BrowserRoutes {
    static func router(service: BrowserService, assets: WebAssets) -> HTTPRouter {
        var router = HTTPRouter(errorRenderer: JSONResponses.error)

        router.add(.GET, "/api/health") { _, _ in
            await respond { try await service.health() }
        }
        router.add(.GET, "/api/entities") { _, _ in
            await respond { try await service.entities() }
        }
        router.add(.GET, "/api/entities/:name") { request, parameters in
            await respond {
                try await service.records(
                    of: parameters["name"] ?? "",
                    parameters: RecordQueryParameters { request.query[$0] }
                )
            }
        }
        router.add(.GET, "/api/entities/:name/position") { request, parameters in
            await respond {
                try await service.position(
                    of: parameters["name"] ?? "", id: request.query["id"],
                    parameters: RecordQueryParameters { request.query[$0] }
                )
            }
        }
        router.add(.GET, "/api/object") { request, _ in
            await respond { try await service.object(id: request.query["id"]) }
        }
        router.add(.GET, "/api/object/related") { request, _ in
            await respond {
                try await service.related(
                    id: request.query["id"], relationship: request.query["rel"],
                    parameters: RecordQueryParameters { request.query[$0] }
                )
            }
        }
        router.add(.GET, "/api/object/export") { request, _ in
            do {
                let object = try await service.object(id: request.query["id"],
                                                      allRelated: try ExportOptions.allRelated(request.query["related"]))
                var response = JSONResponses.ok(object)
                response.headers.set("Content-Disposition", #"attachment; filename="\#(BrowserService.exportFilename(for: object))""#)
                return response
            } catch {
                return JSONResponses.failure(.wrapping(error))
            }
        }

        for (path, asset) in assets.routes {
            router.add(.GET, path) { _, _ in
                var response = HTTPResponse.data(asset.bytes, contentType: asset.contentType)
                // The UI is small and changes with the build; never let a browser run a stale app.js.
                response.headers.set("Cache-Control", "no-cache")
                return response
            }
        }
        return router
    }

    /// `related=all` on an export includes every related record; absent or `preview`, the first 20 of each.
    enum ExportOptions {
        static func allRelated(_ value: String?) throws(BrowserError) -> Bool {
            switch value {
            case nil, "preview": return false
            case "all": return true
            case let other?: throw .badRequest("related must be \"all\" or \"preview\", got \"\(other)\"")
            }
        }
    }

    private static func respond(_ body: () async throws -> some Encodable) async -> HTTPResponse {
        do {
            return JSONResponses.ok(try await body())
        } catch {
            return JSONResponses.failure(.wrapping(error))
        }
    }
}
