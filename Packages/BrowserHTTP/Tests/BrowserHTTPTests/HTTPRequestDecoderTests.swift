import Foundation
import Testing

@testable import BrowserHTTP

/// The request decoder alone, fed string literals: no sockets.
struct HTTPRequestDecoderTests {
    /// Feeds `text` in one chunk and returns every complete request.
    private func decode(_ text: String, limits: HTTPServerLimits = HTTPServerLimits()) throws -> [HTTPRequest] {
        var decoder = HTTPRequestDecoder(limits: limits)
        decoder.feed(Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try decoder.nextRequest() { requests.append(request) }
        return requests
    }

    private func decodeError(
        _ text: String, limits: HTTPServerLimits = HTTPServerLimits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> HTTPParseError? {
        do {
            let requests = try decode(text, limits: limits)
            Issue.record("expected an error, decoded \(requests.count) request(s)", sourceLocation: sourceLocation)
            return nil
        } catch let error as HTTPParseError {
            return error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// `#expect(throws:)` cannot call a mutating method on a captured `var`, hence this.
    private func expectError(
        _ expected: HTTPParseError, from decoder: inout HTTPRequestDecoder,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let request = try decoder.nextRequest()
            Issue.record("expected \(expected), got \(String(describing: request))", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
    }

    private func status(_ text: String, limits: HTTPServerLimits = HTTPServerLimits()) -> Int? {
        decodeError(text, limits: limits)?.status.code
    }

    // MARK: - Well-formed requests

    @Test func wellFormedGet() throws {
        let requests = try decode("GET /index.html HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n")
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == .GET)
        #expect(request.target == "/index.html")
        #expect(request.path == "/index.html")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers["host"] == "x")
        #expect(request.headers["ACCEPT"] == "*/*")
        #expect(request.headers.count == 2)
        #expect(request.body.isEmpty)
        #expect(request.query.isEmpty)
        #expect(request.isKeepAlive)
    }

    @Test func queryDecodingWithPlusPercentAndUTF8() throws {
        let request = try #require(decode("GET /api/entities/Book?search=caf%C3%A9+au+lait&tag=a&tag=b&&flag&empty=&a%2Bb=1%3D2 HTTP/1.1\r\nHost: x\r\n\r\n")
                .first)
        #expect(request.target == "/api/entities/Book?search=caf%C3%A9+au+lait&tag=a&tag=b&&flag&empty=&a%2Bb=1%3D2")
        #expect(request.path == "/api/entities/Book")
        #expect(request.query["search"] == "café au lait")
        #expect(request.query.values("tag") == ["a", "b"])
        #expect(request.query["flag"] == "")
        #expect(request.query["empty"] == "")
        #expect(request.query["a+b"] == "1=2")
        #expect(request.query["missing"] == nil)
        #expect(request.query.items.map(\.name) == ["search", "tag", "tag", "flag", "empty", "a+b"])
    }

    @Test func pathIsPercentDecodedButPlusIsLiteral() throws {
        let request = try #require(decode("GET /api/Caf%C3%A9%20Bar/a+b/x%2Fy HTTP/1.1\r\nHost: x\r\n\r\n").first)
        #expect(request.path == "/api/Café Bar/a+b/x/y")
    }

    @Test func invalidPercentEscapesAndUTF8Are400() {
        #expect(decodeError("GET /x?a=%zz HTTP/1.1\r\nHost: x\r\n\r\n") == .invalidPercentEncoding)
        #expect(decodeError("GET /x?a=%4 HTTP/1.1\r\nHost: x\r\n\r\n") == .invalidPercentEncoding)
        #expect(decodeError("GET /a%2 HTTP/1.1\r\nHost: x\r\n\r\n") == .invalidPercentEncoding)
        #expect(decodeError("GET /x?a=%FF HTTP/1.1\r\nHost: x\r\n\r\n") == .invalidUTF8)
        #expect(decodeError("GET /%C3 HTTP/1.1\r\nHost: x\r\n\r\n") == .invalidUTF8)
        #expect(status("GET /x?a=%zz HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET /x?a=%FF HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
    }

    @Test func bodyWithContentLengthArrivingByteByByte() throws {
        let text = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world"
        var decoder = HTTPRequestDecoder()
        var requests: [HTTPRequest] = []
        for byte in text.utf8 {
            decoder.feed([byte])
            if let request = try decoder.nextRequest() { requests.append(request) }
        }
        #expect(requests.count == 1)
        #expect(requests.first?.method == .POST)
        #expect(requests.first.map { String(decoding: $0.body, as: UTF8.self) } == "hello world")
        #expect(!(decoder.isMidRequest))
    }

    @Test func incompleteBodyWaits() throws {
        var decoder = HTTPRequestDecoder()
        decoder.feed(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabc".utf8))
        #expect(try decoder.nextRequest() == nil)
        #expect(decoder.state == .body(expected: 5))
        #expect(decoder.isMidRequest)
        decoder.feed(Array("de".utf8))
        #expect(try decoder.nextRequest()?.body == Data("abcde".utf8))
        #expect(decoder.state == .requestLine)
    }

    @Test func expectContinueIsReportedOncePerRequest() throws {
        var decoder = HTTPRequestDecoder()
        decoder.feed(Array("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(try decoder.nextRequest() == nil)
        let first = decoder.takeContinueRequest()
        let second = decoder.takeContinueRequest()
        #expect(first)
        #expect(!second)
        decoder.feed(Array("ok".utf8))
        #expect(try decoder.nextRequest()?.body == Data("ok".utf8))

        // HTTP/1.0 clients must not get 100 Continue.
        decoder.feed(Array("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(try decoder.nextRequest() == nil)
        let http10 = decoder.takeContinueRequest()
        #expect(!http10)
    }

    @Test func pipelinedRequestsInOneBuffer() throws {
        let requests = try decode(
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz"
                + "GET /c HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /d HTTP/1.1\r\nHo")
        #expect(requests.map(\.path) == ["/a", "/b", "/c"])
        #expect(requests[1].body == Data("xyz".utf8))
    }

    @Test func bareLFAndLeadingEmptyLinesAreTolerated() throws {
        let requests = try decode("\r\n\nGET /a HTTP/1.1\nHost: x\n\n")
        #expect(requests.map(\.path) == ["/a"])
        #expect(requests.first?.headers["Host"] == "x")
    }

    @Test func headerValuesAreTrimmedAndKeepOrderAndDuplicates() throws {
        let request = try #require(decode("GET / HTTP/1.1\r\nHost: x\r\nX-A: \t one \t\r\nX-B:two\r\nx-a: three\r\n\r\n").first)
        #expect(request.headers.values(for: "X-A") == ["one", "three"])
        #expect(request.headers["x-b"] == "two")
        #expect(request.headers.map(\.name) == ["Host", "X-A", "X-B", "x-a"])
    }

    @Test func absoluteFormAndAsteriskForm() throws {
        let absolute = try #require(decode("GET http://example.com:8080/a%20b?x=1 HTTP/1.1\r\nHost: example.com:8080\r\n\r\n").first)
        #expect(absolute.path == "/a b")
        #expect(absolute.query["x"] == "1")
        let options = try #require(decode("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n").first)
        #expect(options.path == "*")
        #expect(status("GET * HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET example.com HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
    }

    @Test func http10AndKeepAlive() throws {
        let plain = try #require(decode("GET / HTTP/1.0\r\n\r\n").first)
        #expect(plain.version == "HTTP/1.0")
        #expect(!(plain.isKeepAlive))
        #expect(try #require(decode("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").first).isKeepAlive)
        #expect(!(try #require(decode("GET / HTTP/1.1\r\nHost: x\r\nConnection: foo, close\r\n\r\n").first).isKeepAlive))
    }

    // MARK: - Limits: exactly at the limit passes, one byte over fails

    @Test func requestLineLimit() throws {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 64
        let atLimit = "GET /" + String(repeating: "a", count: 64 - 14) + " HTTP/1.1"
        #expect(atLimit.utf8.count == 64)
        #expect(try decode(atLimit + "\r\nHost: x\r\n\r\n", limits: limits).count == 1)

        let overLimit = "GET /" + String(repeating: "a", count: 64 - 13) + " HTTP/1.1"
        #expect(decodeError(overLimit + "\r\nHost: x\r\n\r\n", limits: limits) == .requestLineTooLong)
        #expect(status(overLimit + "\r\n\r\n", limits: limits) == 414)

        // Fails as soon as the 65th byte arrives, without waiting for a line ending.
        var decoder = HTTPRequestDecoder(limits: limits)
        decoder.feed(Array("GET /".utf8) + Array(repeating: UInt8(ascii: "a"), count: 59))
        #expect(try decoder.nextRequest() == nil)
        decoder.feed([UInt8(ascii: "a")])
        expectError(.requestLineTooLong, from: &decoder)
        // The failure is sticky.
        decoder.feed(Array("\r\n\r\n".utf8))
        expectError(.requestLineTooLong, from: &decoder)

        // 64 bytes plus the CR of the line ending are not yet over the limit.
        var atLimitDecoder = HTTPRequestDecoder(limits: limits)
        atLimitDecoder.feed(Array((atLimit + "\r").utf8))
        #expect(try atLimitDecoder.nextRequest() == nil)
    }

    @Test func headerSectionByteLimit() throws {
        var limits = HTTPServerLimits()
        limits.maxHeaderBytes = 100
        // Section = "Host: x\r\n" (9) + "X-Fill: <v>\r\n" (10 + v) + "\r\n" (2).
        func request(valueLength: Int) -> String {
            "GET / HTTP/1.1\r\nHost: x\r\nX-Fill: " + String(repeating: "v", count: valueLength) + "\r\n\r\n"
        }
        #expect(try decode(request(valueLength: 79), limits: limits).count == 1)
        #expect(decodeError(request(valueLength: 80), limits: limits) == .headerSectionTooLarge)
        #expect(status(request(valueLength: 80), limits: limits) == 431)

        // A header line that never ends fails once it crosses the limit.
        var decoder = HTTPRequestDecoder(limits: limits)
        decoder.feed(Array(("GET / HTTP/1.1\r\nX-Fill: " + String(repeating: "v", count: 90)).utf8))
        #expect(try decoder.nextRequest() == nil)
        decoder.feed(Array(repeating: UInt8(ascii: "v"), count: 2))
        expectError(.headerSectionTooLarge, from: &decoder)
    }

    @Test func headerCountLimit() throws {
        var limits = HTTPServerLimits()
        limits.maxHeaderCount = 3
        #expect(try decode("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\n\r\n", limits: limits).count == 1)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: limits) == .tooManyHeaders)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: limits) == 431)
    }

    /// A list is counted across its field lines (RFC 9110 §5.3), names compared case-insensitively; empty elements
    /// count too. One element past the limit fails.
    @Test func listElementsPerHeaderAreLimited() throws {
        var limits = HTTPServerLimits()
        limits.maxListElementsPerHeader = 4
        #expect(try decode("GET / HTTP/1.1\r\nHost: x\r\nConnection: a, b\r\nconnection: c,d\r\nAccept: 1,2,3,4\r\n\r\n", limits: limits).count == 1)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nConnection: a, b\r\nCONNECTION: c,d,e\r\n\r\n", limits: limits) == .tooManyListElements)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nConnection: ,,,,\r\n\r\n", limits: limits) == .tooManyListElements)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\nConnection: ,,,,\r\n\r\n", limits: limits) == 431)
        // The default refuses the 30 KB `Connection: x,x,…` that once cost every later look-up 15,000 strings.
        let planted = "GET / HTTP/1.1\r\nHost: x\r\nConnection: " + Array(repeating: "x", count: 15_000).joined(separator: ",") + "\r\n\r\n"
        #expect(decodeError(planted) == .tooManyListElements)
        // Commas inside cookies do not count as list elements (cookies are counted on their own).
        #expect(try decode("GET / HTTP/1.1\r\nHost: x\r\nCookie: a={1,2,3,4,5}\r\n\r\n", limits: limits).count == 1)
    }

    @Test func cookiesPerRequestAreLimited() throws {
        var limits = HTTPServerLimits()
        limits.maxCookiesPerRequest = 3
        #expect(try decode("GET / HTTP/1.1\r\nHost: x\r\nCookie: a=1; b=2\r\nCookie: c=3\r\n\r\n", limits: limits).count == 1)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nCookie: a=1; b=2\r\ncookie: c=3; d=4\r\n\r\n", limits: limits) == .tooManyCookies)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\nCookie: a;b;c;d\r\n\r\n", limits: limits) == 431)
        #expect(HTTPServerLimits().maxCookiesPerRequest == 180)
    }

    /// The target's authority and `Host` must name one host, so every check reads the same one.
    @Test func anAbsoluteFormTargetMustNameTheHostHostNames() throws {
        #expect(decodeError("POST http://127.0.0.1:8080/api HTTP/1.1\r\nHost: evil.example\r\n\r\n") == .hostMismatch)
        #expect(decodeError("GET http://127.0.0.1:8080/ HTTP/1.1\r\nHost: 127.0.0.1:9090\r\n\r\n") == .hostMismatch)
        let same = try #require(decode("GET http://LocalHost:8080/ HTTP/1.1\r\nHost: localhost:8080\r\n\r\n").first)
        #expect(same.authority == "LocalHost:8080")
        // HTTP/1.0 may leave Host out: the target alone names the host.
        #expect(try decode("GET http://localhost/ HTTP/1.0\r\n\r\n").first?.authority == "localhost")
        #expect(try decode("GET / HTTP/1.1\r\nHost: localhost:1\r\n\r\n").first?.authority == "localhost:1")
    }

    /// A decoder that pauses before bodies gives out the head and decodes nothing of the body until allowed, even
    /// when the body came with the head.
    @Test func aPausingDecoderHoldsTheBodyUntilAllowed() throws {
        var decoder = HTTPRequestDecoder(pausesBeforeBody: true)
        decoder.feed(Array("POST /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(try decoder.nextRequest() == nil)
        let head = try #require(decoder.headAwaitingBodyPermission)
        #expect(head.path == "/a" && head.body.isEmpty)
        #expect(try decoder.nextRequest() == nil)  // still paused
        decoder.allowBody()
        #expect(decoder.headAwaitingBodyPermission == nil)
        #expect(try decoder.nextRequest() == nil)
        let continues = decoder.takeContinueRequest()
        #expect(continues)
        decoder.feed(Array("cd".utf8))
        #expect(try decoder.nextRequest()?.body == Data("abcd".utf8))
        // Bodiless requests never pause.
        decoder.feed(Array("GET /b HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try decoder.nextRequest()?.path == "/b")
    }

    @Test func bodyLimitIsCheckedBeforeTheBodyArrives() throws {
        var limits = HTTPServerLimits()
        limits.maxBodyBytes = 10
        #expect(try decode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits).first?.body.count == 10)
        // No body byte sent: the head alone is enough to reject it.
        #expect(decodeError("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", limits: limits) == .bodyTooLarge)
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", limits: limits) == 413)
        // A Content-Length too large for Int is still just "too large".
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n") == 413)
    }

    // MARK: - Framing errors

    @Test func transferEncoding() {
        #expect(decodeError("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc") == .transferEncodingWithContentLength)
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n") == 400)
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n") == 501)
    }

    @Test func contentLengthValidation() throws {
        for value in ["-1", "abc", "1.5", "+3", "", "3 3", "0x10"] {
            #expect(decodeError("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\n") == .invalidContentLength, "Content-Length: \(value)")
        }
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd") == 400)
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd") == 400)
        // Identical repeated values are allowed (RFC 9110 §8.6).
        let same = try decode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc")
        #expect(same.first?.body == Data("abc".utf8))
    }

    @Test func versions() {
        #expect(decodeError("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == .unsupportedVersion("HTTP/2.0"))
        #expect(status("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505)
        #expect(status("GET / HTTP/1.2\r\nHost: x\r\n\r\n") == 505)
        #expect(status("GET / HTTP/1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET / http/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET /\r\nHost: x\r\n\r\n") == 400)
    }

    @Test func malformedRequestLines() {
        #expect(status("GET  / HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1 \r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET\t/ HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET /a\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(status("GET /a\rb HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
        #expect(decodeError("G(T / HTTP/1.1\r\nHost: x\r\n\r\n") == .invalidMethod)
        #expect(status("GET /a#frag HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
    }

    @Test func malformedHeaders() {
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n") == .malformedHeader)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n") == 400)
        #expect(decodeError("GET / HTTP/1.1\r\nHost : x\r\n\r\n") == .malformedHeader)
        #expect(decodeError("GET / HTTP/1.1\r\n: x\r\nHost: x\r\n\r\n") == .malformedHeader)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n") == .malformedHeader)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n") == .malformedHeader)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n") == .obsoleteLineFolding)
        #expect(decodeError("GET / HTTP/1.1\r\n Host: x\r\n\r\n") == .obsoleteLineFolding)
    }

    @Test func hostRequirements() throws {
        #expect(decodeError("GET / HTTP/1.1\r\n\r\n") == .invalidHost)
        #expect(decodeError("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == .invalidHost)
        #expect(try decode("GET / HTTP/1.1\r\nHost:\r\n\r\n").count == 1)
        #expect(try decode("GET / HTTP/1.0\r\n\r\n").count == 1)
    }

    @Test func statusMappingIsComplete() {
        let expected: [(HTTPParseError, Int)] = [
            (.requestLineTooLong, 414), (.malformedRequestLine, 400), (.invalidMethod, 400),
            (.invalidRequestTarget, 400), (.unsupportedVersion("HTTP/3.0"), 505), (.malformedHeader, 400),
            (.obsoleteLineFolding, 400), (.headerSectionTooLarge, 431), (.tooManyHeaders, 431),
            (.tooManyListElements, 431), (.tooManyCookies, 431), (.invalidHost, 400), (.hostMismatch, 400), (.invalidContentLength, 400), (.bodyTooLarge, 413),
            (.transferEncodingWithContentLength, 400), (.unsupportedTransferEncoding, 501),
            (.invalidPercentEncoding, 400), (.invalidUTF8, 400),
        ]
        for (error, code) in expected {
            #expect(error.status.code == code, "\(error)")
        }
    }

    @Test func httpRequestInitForHandlerTests() throws {
        let request = try HTTPRequest(method: .GET, target: "/api/entities/Caf%C3%A9?limit=10")
        #expect(request.path == "/api/entities/Café")
        #expect(request.query["limit"] == "10")
        #expect(throws: HTTPParseError.invalidPercentEncoding) { try HTTPRequest(target: "/x?%") }
    }
}
