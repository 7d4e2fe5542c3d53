import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// `/api/object/blob` over real HTTP against the demo server: the bytes of a cover (a real PNG), ranges, HEAD,
/// the headers that keep a browser from running them, and every refusal.
extension EndToEndTests {
    func coverQuery(_ key: Int64) -> String { "id=\(encodedID("Book", key))&attr=cover" }

    func bookWithCover() async throws -> (key: Int64, bytes: Int) {
        let page = try await client.get("/api/entities/Book?limit=20").object()
        let rows = try #require(page["rows"] as? [[String: Any]])
        for row in rows {
            if let cover = (row["attrs"] as? [String: Any])?["cover"] as? [String: Any], let bytes = cover["bytes"] as? Int,
               let key = (try? ObjectID(uri: row["id"] as? String ?? ""))?.primaryKey {
                return (key, bytes)
            }
        }
        throw CancellationError()
    }

    @Test func aBlobIsServedWholeInASandboxAndAnImageAsItself() async throws {
        let (key, size) = try await bookWithCover()
        let reply = try await client.get("/api/object/blob?\(coverQuery(key))")
        #expect(reply.status == 200)
        #expect(reply.body.count == size)
        #expect(reply.body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))  // the PNG signature
        #expect(reply.header("Content-Security-Policy") == "sandbox")
        #expect(reply.header("X-Content-Type-Options") == "nosniff")
        #expect(reply.header("Cache-Control") == "no-store")
        #expect(reply.header("Accept-Ranges") == "bytes")
        #expect(reply.header("Content-Length") == "\(size)")
        // A PNG whose header parsed is itself, shown inline; anything else would be an octet-stream attachment.
        #expect(reply.header("Content-Type") == "image/png")
        #expect(reply.header("Content-Disposition")?.hasPrefix("inline; filename=\"Book-p\(key)-cover.png\"") == true)
    }

    @Test func theContentOfACoverIsAPNGWithItsDimensions() async throws {
        let (key, size) = try await bookWithCover()
        let reply = try await client.get("/api/object/content?\(coverQuery(key))")
        #expect(reply.status == 200)
        let content = try reply.object()
        #expect(content["kind"] as? String == "png")
        #expect(content["size"] as? Int == size)
        #expect(content["storage"] as? String == "inline")
        #expect(content["mimeType"] as? String == "image/png")
        let image = try #require(content["image"] as? [String: Any])
        #expect(image["width"] as? Int == 48 && image["height"] as? Int == 72)
        #expect((content["summary"] as? String)?.hasPrefix("PNG 48×72") == true)
        // The same refusals as the blob.
        #expect(try await client.get("/api/object/content?id=\(encodedID("Book", key))&attr=title").status == 400)
    }

    @Test func rangesOfABlob() async throws {
        let (key, size) = try await bookWithCover()
        let whole = try await client.get("/api/object/blob?\(coverQuery(key))").body
        let part = try await client.request("/api/object/blob?\(coverQuery(key))", headers: ["Range": "bytes=8-23"])
        #expect(part.status == 206)
        #expect(part.header("Content-Range") == "bytes 8-23/\(size)")
        #expect(part.body == whole.subdata(in: 8..<24))
        let tail = try await client.request("/api/object/blob?\(coverQuery(key))", headers: ["Range": "bytes=-10"])
        #expect(tail.status == 206 && tail.body == whole.suffix(10))
        let outside = try await client.request("/api/object/blob?\(coverQuery(key))", headers: ["Range": "bytes=\(size)-"])
        #expect(outside.status == 416)
        #expect(outside.header("Content-Range") == "bytes */\(size)")
        // The JSON error is not the value: it names no file and is not offered as a download.
        #expect(outside.header("Content-Disposition") == nil)
        #expect(outside.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(try outside.object()["error"] as? String == "The range bytes=\(size)- is outside the value's \(size) bytes")
        let head = try await client.request("/api/object/blob?\(coverQuery(key))", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "\(size)")
    }

    @Test("refusals say what is wrong", arguments: [
        ("attr=cover", 400, "Missing id"),
        ("id=BOOK&attr=cover", 400, "Malformed id \"Book\""),
        ("id=ID&attr=", 400, "Missing attr"),
        ("id=ID&attr=title", 400, "Book.title is a String attribute; only Binary and Transformable attributes have bytes"),
        ("id=ID&attr=nothing", 404, "Book has no attribute \"nothing\""),
        ("id=NOCOVER&attr=cover", 404, "has no value for cover (it is nil)"),
        ("id=MISSING&attr=cover", 404, "No record"),
    ])
    func blobRefusals(query: String, status: Int, message: String) async throws {
        let (key, _) = try await bookWithCover()
        // Book p15 is Generated Book 001: only every tenth generated book has a cover.
        let resolved = query
            .replacingOccurrences(of: "NOCOVER", with: encodedID("Book", 15))
            .replacingOccurrences(of: "MISSING", with: encodedID("Book", 99_999))
            .replacingOccurrences(of: "BOOK", with: "Book")
            .replacingOccurrences(of: "ID", with: encodedID("Book", key))
        let reply = try await client.get("/api/object/blob?\(resolved)")
        #expect(reply.status == status, "\(resolved)")
        #expect((try reply.object()["error"] as? String)?.contains(message) == true, "\(String(decoding: reply.body, as: UTF8.self))")
    }
}
