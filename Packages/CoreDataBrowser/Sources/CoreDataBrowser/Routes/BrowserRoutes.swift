import BrowserCore
import BrowserHTTP
import BrowserWebAssets
import Foundation

/// The URL space: the JSON API of `docs/API.md` (one router per store; `StoreRouting` picks the store) and the
/// web UI's files.
///
/// Only reads exist while the server is read-only: GET routes, and `POST /api/entities/:name/query`, a read whose
/// predicate travels in the body. The router answers other methods with 405 and an `Allow` header, and HEAD
/// wherever GET works. With writes on (`Options.readOnly = false`) the write routes exist too; a store that
/// cannot write answers them 403 with the reason.
enum BrowserRoutes {
    /// One store's API.
    static func router(service: BrowserService, changes: ChangeFeed) -> HTTPRouter {
        var router = HTTPRouter(errorRenderer: JSONResponses.error, errorResponse: JSONResponses.errorResponse)

        // Handlers throw `BrowserError`s; the router answers them with their status and details (`JSONResponses.errorResponse`).
        router.add(.GET, "/api/health") { _, _ in
            JSONResponses.ok(try await service.health())
        }
        router.add(.GET, "/api/model") { request, _ in
            JSONResponses.ok(try await service.model(version: request.query["version"]))
        }
        router.add(.GET, "/api/model/versions") { _, _ in
            JSONResponses.ok(try await service.modelVersions())
        }
        router.add(.GET, "/api/model/diff") { request, _ in
            JSONResponses.ok(try await service.modelDifference(from: request.query["from"], to: request.query["to"]))
        }
        router.add(.GET, "/api/entities") { _, _ in
            JSONResponses.ok(try await service.entities())
        }
        router.add(.GET, "/api/entities/:name") { request, parameters in
            JSONResponses.ok(try await service.records(
                of: parameters["name"] ?? "", parameters: RecordQueryParameters { request.query[$0] }))
        }
        router.add(.GET, "/api/entities/:name/position") { request, parameters in
            JSONResponses.ok(try await service.position(
                of: parameters["name"] ?? "", id: request.query["id"],
                parameters: RecordQueryParameters { request.query[$0] }))
        }
        // A read with its predicate in the body (a tree too large or too structured for a URL). POST, so the
        // access policy's same-origin check applies to it as to any non-GET request.
        router.add(.POST, "/api/entities/:name/query") { request, parameters in
            try requireJSONBody(request)
            return JSONResponses.ok(try await service.query(
                of: parameters["name"] ?? "", parameters: RecordQueryParameters { request.query[$0] }, body: request.body))
        }
        router.add(.GET, "/api/entities/:name/predicate") { request, parameters in
            JSONResponses.ok(try await service.predicate(
                of: parameters["name"] ?? "", parameters: RecordQueryParameters { request.query[$0] }))
        }
        router.add(.GET, "/api/events") { request, _ in
            let lastEventID = try EventStreamBody.lastEventID(request.headers[HTTPHeaderName.lastEventID])
            let items = await changes.subscribe(lastEventID: lastEventID)
            return HTTPResponse.stream(EventStreamBody(items: items), length: nil,
                                       contentType: ServerSentEvent.contentType, isOpenEnded: true)
        }
        router.add(.GET, "/api/history") { request, _ in
            JSONResponses.ok(try await service.history(parameters: HistoryQueryParameters { request.query[$0] }))
        }
        router.add(.GET, "/api/pending") { _, _ in
            JSONResponses.ok(try await service.pendingChanges())
        }
        router.add(.GET, "/api/entities/:name/facets") { request, parameters in
            JSONResponses.ok(try await service.facets(
                of: parameters["name"] ?? "", attribute: request.query["attr"], top: request.query["top"],
                buckets: request.query["buckets"], parameters: RecordQueryParameters { request.query[$0] }))
        }
        router.add(.GET, "/api/entities/:name/explain") { request, parameters in
            JSONResponses.ok(try await service.explain(
                of: parameters["name"] ?? "", parameters: RecordQueryParameters { request.query[$0] }))
        }
        router.add(.GET, "/api/entities/:name/export") { request, parameters in
            let options = try RecordExportOptions.validated(
                format: request.query["format"], bom: request.query["bom"], binary: request.query["binary"])
            let export = try await service.exportRecords(
                of: parameters["name"] ?? "", parameters: RecordQueryParameters { request.query[$0] }, options: options)
            // Streamed as it is read: the file is never held whole, and a failure midway ends it without its
            // last chunk, so a client can tell a cut file from a complete one.
            var response = HTTPResponse.stream(RecordExportBody(stream: export.stream), length: nil, contentType: options.contentType)
            response.headers.set(HTTPHeaderName.contentDisposition, attachment(filename: export.filename))
            if let total = export.total { response.headers.set(exportTotalHeader, String(total)) }
            return response
        }
        router.add(.GET, "/api/object") { request, _ in
            JSONResponses.ok(try await service.object(id: request.query["id"]))
        }
        router.add(.GET, "/api/object/related") { request, _ in
            JSONResponses.ok(try await service.related(
                id: request.query["id"], relationship: request.query["rel"],
                parameters: RecordQueryParameters { request.query[$0] }))
        }
        router.add(.GET, "/api/object/export") { request, _ in
            var response: HTTPResponse
            let filename: String
            if try ExportOptions.allRelated(request.query["related"]) {
                // Every related record: streamed, so a record with 100,000 related ones is never one document.
                let (stream, name) = try await service.exportStream(id: request.query["id"])
                response = .stream(ExportBody(stream: stream), length: nil, contentType: JSONResponses.contentType)
                filename = name
            } else {
                let object = try await service.object(id: request.query["id"])
                response = JSONResponses.ok(object)
                filename = BrowserService.exportFilename(for: object)
            }
            response.headers.set(HTTPHeaderName.contentDisposition, attachment(filename: filename))
            return response
        }
        router.add(.GET, "/api/object/blob") { request, _ in
            let blob = try await service.blob(id: request.query["id"], attribute: request.query["attr"])
            return BlobResponses.response(blob.reader, request: request, mimeType: blob.mimeType, filename: blob.filename)
        }
        router.add(.GET, "/api/object/content") { request, _ in
            JSONResponses.ok(try await service.content(id: request.query["id"], attribute: request.query["attr"]))
        }

        if !service.readOnly { addWriteRoutes(to: &router, service: service) }
        return router
    }

    /// Writes (docs/API.md "Editing"): bodies are JSON and must say so; like every non-GET request they pass the
    /// same-origin check, and the token wherever one is required.
    private static func addWriteRoutes(to router: inout HTTPRouter, service: BrowserService) {
        router.add(.POST, "/api/entities/:name") { request, parameters in
            try requireJSONBody(request)
            // 201 with the record as created; its `id` is where it lives (no Location: the router does not know
            // whether it is reached through /api/stores/<id>).
            return JSONResponses.ok(try await service.insert(into: parameters["name"] ?? "", body: request.body), status: .created)
        }
        router.add(.PATCH, "/api/object") { request, _ in
            try requireJSONBody(request)
            return JSONResponses.ok(try await service.update(id: request.query["id"], body: request.body))
        }
        router.add(.GET, "/api/object/delete-preview") { request, _ in
            JSONResponses.ok(try await service.deletionPreview(id: request.query["id"]))
        }
        router.add(.DELETE, "/api/object") { request, _ in
            JSONResponses.ok(try await service.delete(id: request.query["id"], version: request.query["version"]))
        }
    }

    /// The web UI's files, the same for every store.
    static func assetRouter(assets: WebAssets) -> HTTPRouter {
        var router = HTTPRouter(errorRenderer: JSONResponses.error, errorResponse: JSONResponses.errorResponse)
        for (path, asset) in assets.routes {
            router.add(.GET, path) { _, _ in
                var response = HTTPResponse.data(asset.bytes, contentType: asset.contentType)
                // The UI is small and changes with the build; never let a browser run a stale script.
                response.headers.set(HTTPHeaderName.cacheControl, "no-cache")
                response.headers.set(HTTPHeaderName.contentSecurityPolicy, contentSecurityPolicy)
                return response
            }
        }
        return router
    }

    /// A body the route reads as JSON must say so (`Content-Type: application/json`, parameters such as
    /// `charset` allowed): a form post or `text/plain` from another page is refused before it is parsed.
    static func requireJSONBody(_ request: HTTPRequest) throws(BrowserError) {
        let type = request.headers[HTTPHeaderName.contentType] ?? ""
        let mediaType = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" else {
            throw .unsupportedMediaType("The body must be JSON, sent with Content-Type: application/json"
                + (type.isEmpty ? " (none was sent)" : " (got \"\(type)\")"))
        }
    }

    /// An export stream as a response body.
    struct ExportBody: HTTPBodyProducer {
        let stream: ObjectExportStream
        func nextChunk() async throws -> Data? { try await stream.nextChunk() }
    }

    /// A records export as a response body.
    struct RecordExportBody: HTTPBodyProducer {
        let stream: RecordExportStream
        func nextChunk() async throws -> Data? { try await stream.nextChunk() }
    }

    /// The number of rows of a records export, sent before its body when it was cheap to know, so a client can
    /// show progress and tell a complete file from a cut one.
    static let exportTotalHeader = "X-Total-Count"

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

    /// The UI runs only its own files: no inline or foreign script, no plugins, no framing, no `<base>`.
    /// Inline styles stay allowed: the Lab sizes its columns through a `<style>` element it writes.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        + "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    /// `attachment` with the file name both as a plain quoted ASCII fallback and as RFC 6266 / RFC 8187
    /// `filename*` (UTF-8, percent-encoded), whatever characters an entity name holds.
    static func attachment(filename: String) -> String {
        let fallback = String(filename.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F
                ? Character(scalar) : "_"
        })
        let attrChars = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~".utf8)
        let encoded = filename.utf8.map { byte in
            attrChars.contains(byte) ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
        return #"attachment; filename="\#(fallback)"; filename*=UTF-8''\#(encoded)"#
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
