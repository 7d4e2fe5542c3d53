import BrowserHTTPTesting
import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// `GET /api/entities/:name/export` over real sockets: the file streams (chunked) with its name and row count,
/// holds the list's records, refuses bad parameters with a precise 400/404, and a failure midway ends the body
/// without its last chunk while the server keeps serving.
extension EndToEndTests {
    var port: UInt16 { UInt16(client.base.port ?? 0) }

    func exportRequest(_ pathAndQuery: String, method: String = "GET") -> String {
        "\(method) \(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
    }

    /// Every row of a list through the paged API.
    func pagedIDs(_ entity: String, _ query: String = "") async throws -> [String] {
        var ids: [String] = []
        var offset = 0
        while true {
            let page = try await client.get("/api/entities/\(entity)?limit=500&offset=\(offset)\(query)").object()
            ids += (page["rows"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            offset += 500
            if offset >= page["total"] as? Int ?? 0 { return ids }
        }
    }

    @Test func aListExportsAsChunkedNDJSONWithItsNameAndCount() async throws {
        let connection = try RawHTTPClient(port: port)
        connection.send(exportRequest("/api/entities/Book/export?format=ndjson&sort=pageCount&order=desc"))
        let reply = try #require(await connection.readChunked())
        #expect(reply.head.status == 200)
        #expect(reply.complete, "the body ends with its last chunk")
        #expect(reply.head.header("Transfer-Encoding") == "chunked")
        #expect(reply.head.header("Content-Type") == "application/x-ndjson; charset=utf-8")
        #expect(reply.head.header("Content-Disposition")?.hasPrefix("attachment; filename=\"Book.ndjson\"") == true)
        #expect(reply.head.header("Cache-Control") == "no-store")
        let lines = String(decoding: reply.body, as: UTF8.self).split(separator: "\n")
        #expect(reply.head.header("X-Total-Count") == String(lines.count))
        let ids = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["id"] as? String
        }
        let expected = try await pagedIDs("Book", "&sort=pageCount&order=desc")
        #expect(ids == expected)
    }

    @Test func aSearchedExportHasNoCountUpFrontAndHoldsTheMatches() async throws {
        let connection = try RawHTTPClient(port: port)
        connection.send(exportRequest("/api/entities/Book/export?format=csv&search=germinal&bom=1"))
        let reply = try #require(await connection.readChunked())
        #expect(reply.head.status == 200 && reply.complete)
        #expect(reply.head.header("X-Total-Count") == nil)
        #expect(reply.head.header("Content-Disposition")?.hasPrefix("attachment; filename=\"Book-search-germinal.csv\"") == true)
        #expect(reply.body.starts(with: [0xEF, 0xBB, 0xBF] + Array("_id,_entity,_name,".utf8)))
        let rows = String(decoding: reply.body.dropFirst(3), as: UTF8.self).components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        let expected = try await pagedIDs("Book", "&search=germinal")
        #expect(!expected.isEmpty && rows.map { String($0.prefix { $0 != "," }) } == expected)
    }

    @Test(arguments: [
        ("/api/entities/Book/export", 400, "Missing format: pass format=csv or ndjson"),
        ("/api/entities/Book/export?format=xml", 400, "format must be csv or ndjson, got \"xml\""),
        ("/api/entities/Book/export?format=csv&bom=2", 400, "bom must be 1 or 0, got \"2\""),
        ("/api/entities/Book/export?format=csv&binary=hex", 400, "binary must be size or base64, got \"hex\""),
        ("/api/entities/Book/export?format=csv&sort=nope", 400, "Cannot sort Book by \"nope\": it is not an attribute of Book"),
        ("/api/entities/Book/export?format=csv&search=p3", 400, "The search \"p3\" names one record by its ID: export it with /api/object/export?id=…"),
        ("/api/entities/Nope/export?format=csv", 404, "No entity named \"Nope\""),
    ])
    func badExportsAreRefusedPrecisely(path: String, status: Int, message: String) async throws {
        let reply = try await client.get(path)
        #expect(reply.status == status)
        #expect(try reply.object()["error"] as? String == message)
        #expect(try await client.get("/api/health").status == 200)
    }

    @Test func headSendsTheHeadOnly() async throws {
        let connection = try RawHTTPClient(port: port)
        connection.send(exportRequest("/api/entities/Tag/export?format=csv", method: "HEAD"))
        guard case .response(let head) = await connection.read(bodyless: true) else {
            Issue.record("no response to HEAD")
            return
        }
        #expect(head.status == 200 && head.header("X-Total-Count") == "5")
        connection.send(exportRequest("/api/health"))
        #expect(await connection.read().status == 200, "nothing followed the head on the connection")
    }
}

/// A failure midway: the store holds a value too large to write as base64 after the first batch, so the export
/// has already sent rows when it fails. The response cannot change its status any more: it ends without its
/// last chunk, which is how a client knows the file is cut.
struct ExportFailureTests {
    @Test func anExportThatFailsMidwayEndsWithoutItsLastChunkAndTheServerGoesOn() async throws {
        let schema = StoreSchema(entities: [EntitySchema(name: "Item", attributes: [
            AttributeSchema(name: "name", type: .string), AttributeSchema(name: "data", type: .binary),
        ])])
        let store = InMemoryStore(schema: schema)
        let failing = BrowserService.exportBatchSize + 200
        for number in 1...(BrowserService.exportBatchSize + 500) {
            let size = number == failing ? RecordExportOptions.maximumBase64Bytes + 1 : 3
            try await store.insert("Item", ["name": .string("item \(number)")], blobs: ["data": Data(repeating: 7, count: size)])
        }
        let server = CoreDataBrowserServer(store: store, options: .forTests())
        let info = try server.start()
        defer { server.stop() }

        let connection = try RawHTTPClient(port: info.port)
        connection.send("GET /api/entities/Item/export?format=csv&binary=base64 HTTP/1.1\r\nHost: 127.0.0.1:\(info.port)\r\n\r\n")
        let reply = try #require(await connection.readChunked())
        #expect(reply.head.status == 200)
        #expect(!reply.complete, "a cut body has no last chunk")
        let rows = String(decoding: reply.body, as: UTF8.self).components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
        #expect(rows.count == BrowserService.exportBatchSize, "the first batch was sent, nothing of the failing one")
        #expect(rows.first?.hasSuffix(",item 1,item 1,BwcH") == true)

        let client = TestClient(base: try #require(info.urls.first))
        #expect(try await client.get("/api/entities/Item/export?format=csv").status == 200, "binary as size exports")
        #expect(try await client.get("/api/health").status == 200)
    }
}
