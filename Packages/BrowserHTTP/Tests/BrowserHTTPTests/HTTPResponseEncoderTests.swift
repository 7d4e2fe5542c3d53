import Foundation
import Testing

@testable import BrowserHTTP

struct HTTPResponseEncoderTests {
    private func encode(
        _ response: HTTPResponse, method: HTTPMethod? = .GET, version: String = "HTTP/1.1", keepAlive: Bool = true
    ) -> String {
        String(
            decoding: HTTPResponseEncoder.encode(
                response, requestMethod: method, requestVersion: version, keepAlive: keepAlive),
            as: UTF8.self)
    }

    @Test func exactOutput() {
        #expect(encode(.text("hi")) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\n\r\nhi")
        #expect(encode(.text("hi", status: .notFound), keepAlive: false) == "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
        #expect(encode(HTTPResponse(body: Data("x".utf8)), version: "HTTP/1.0") == "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: keep-alive\r\n\r\nx")
    }

    @Test func headKeepsContentLengthWithoutBody() {
        #expect(encode(.text("hello"), method: .HEAD) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n\r\n")
        var explicit = HTTPResponse()
        explicit.headers["Content-Length"] = "42"
        #expect(encode(explicit, method: .HEAD) == "HTTP/1.1 200 OK\r\nContent-Length: 42\r\n\r\n")
    }

    @Test func noBodyStatusesAndFramingHeadersAreServerOwned() {
        #expect(encode(HTTPResponse(status: .noContent, body: Data("ignored".utf8))) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(encode(HTTPResponse(status: .notModified)) == "HTTP/1.1 304 Not Modified\r\n\r\n")
        let response = HTTPResponse(
            headers: ["Content-Length": "999", "Transfer-Encoding": "chunked", "X-Ok": "1", "Bad\r\nName": "x", "X-Split": "a\r\nSet-Cookie: x"],
            body: Data("abc".utf8))
        #expect(encode(response) == "HTTP/1.1 200 OK\r\nX-Ok: 1\r\nContent-Length: 3\r\n\r\nabc")
    }
}
