@testable import BrowserHTTP
import BrowserHTTPTesting
import Foundation
import Testing

/// End-to-end tests over real sockets on 127.0.0.1.
///
/// Serialized: several tests wait for timeouts or reuse a port just released, and
/// running them one at a time keeps that deterministic on a small machine.
// A time limit so that a wait that never ends fails the run instead of hanging it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HTTPServerTests {
    static let bigBody = Data((0..<(4 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    static func makeRouter() -> HTTPRouter {
        var router = HTTPRouter()
        router.add(.GET, "/hello") { _, _ in .text("Hello, world!") }
        router.add(.POST, "/echo") { request, _ in
            .data(request.body, contentType: "application/octet-stream")
        }
        router.add(.GET, "/items/:id") { _, parameters in .text("item \(parameters["id"] ?? "")") }
        router.add(.DELETE, "/items/:id") { _, parameters in .text("deleted \(parameters["id"] ?? "")") }
        router.add(.GET, "/search") { request, _ in .text("q=\(request.query["q"] ?? "")") }
        router.add(.GET, "/slow") { request, _ in
            try? await Task.sleep(nanoseconds: 300_000_000)
            return .text("slow \(request.query["id"] ?? "")")
        }
        router.add(.GET, "/big") { _, _ in .data(bigBody, contentType: "application/octet-stream") }
        return router
    }

    /// Runs `body` against a started server on a free port and stops it afterwards.
    private func withServer(
        limits: HTTPServerLimits = HTTPServerLimits(),
        responder: (any HTTPResponder)? = nil,
        _ body: (HTTPServer, UInt16) async throws -> Void
    ) async throws {
        let server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, limits: limits),
            responder: responder ?? Self.makeRouter())
        let port = try server.start()
        defer { server.stop() }
        #expect(port != 0)
        #expect(server.port == port)
        #expect(server.isRunning)
        try await body(server, port)
    }

    private func text(_ bytes: [UInt8]?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Sends `request` on a fresh connection and returns everything up to the close.
    private func exchange(_ request: String, port: UInt16) async throws -> String? {
        let client = try RawHTTPClient(port: port)
        client.send(request)
        return text(await client.readUntilClose())
    }

    // MARK: - Basic exchanges

    @Test func getReturnsExactResponse() async throws {
        try await withServer { _, port async throws in
            let response = try await exchange("GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", port: port)
            #expect(
                response
                    == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 13\r\nConnection: close\r\n\r\nHello, world!")
        }
    }

    @Test func keepAliveServesThreeRequestsOnOneConnection() async throws {
        try await withServer { _, port async throws in
            let client = try RawHTTPClient(port: port)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try #require(await client.readResponse())
            #expect(
                first.rawText
                    == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 13\r\n\r\nHello, world!")
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde")
            let second = try #require(await client.readResponse())
            #expect(second.status == 200)
            #expect(second.text == "abcde")
            client.send("GET /search?q=caf%C3%A9+au+lait HTTP/1.1\r\nHost: x\r\n\r\n")
            let third = try #require(await client.readResponse())
            #expect(third.text == "q=café au lait")
            #expect(third.header("Connection") == nil)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer { _, port async throws in
            let client = try RawHTTPClient(port: port)
            // Several requests in one TCP send; the slow one first proves ordering.
            client.send(
                "GET /slow?id=1 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz"
                    + "GET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await client.readResponse()?.text == "slow 1")
            #expect(await client.readResponse()?.text == "xyz")
            #expect(await client.readResponse()?.text == "item 7")
            let last = try #require(await client.readResponse())
            #expect(last.text == "Hello, world!")
            #expect(last.header("Connection") == "close")
            #expect(await client.waitForClose() == .closed)
        }
    }

    /// A request arriving while the one before is handled stays unread (the socket is then only watched for
    /// the client leaving) and is answered after it.
    @Test func aRequestSentWhileTheOneBeforeIsHandledIsAnsweredAfterIt() async throws {
        try await withServer { _, port async throws in
            let client = try RawHTTPClient(port: port)
            client.send("GET /slow?id=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            client.send("GET /items/2 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "slow 1")
            #expect(await client.readResponse()?.text == "item 2")
        }
    }

    @Test func headSendsContentLengthButNoBody() async throws {
        try await withServer { _, port async throws in
            let client = try RawHTTPClient(port: port)
            // If HEAD leaked body bytes, the GET response would not parse correctly.
            client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /items/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try #require(await client.readResponse(bodyless: true))
            #expect(head.rawText == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 13\r\n\r\n")
            #expect(await client.readResponse()?.text == "item 1")

            client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(
                text(await client.readUntilClose())
                    == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 13\r\nConnection: close\r\n\r\n")
        }
    }

    @Test func routerErrorsOverTheWire() async throws {
        try await withServer { _, port async throws in
            let client = try RawHTTPClient(port: port)
            client.send("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(
                await client.readResponse()?.rawText
                    == "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 36\r\n\r\n404 Not Found\nNo route for /nothing\n")
            client.send("PUT /items/3 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            let notAllowed = try #require(await client.readResponse())
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, HEAD, DELETE")
            #expect(notAllowed.text == "405 Method Not Allowed\nMethod PUT not allowed for /items/3\n")
            // Router errors keep the connection usable.
            client.send("DELETE /items/3 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "deleted 3")
        }
    }

    @Test func expectContinue() async throws {
        try await withServer { _, port async throws in
            let client = try RawHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(await client.readResponse()?.rawText == "HTTP/1.1 100 Continue\r\n\r\n")
            client.send("data")
            #expect(await client.readResponse()?.text == "data")
        }
    }

    @Test func handlerCanCloseTheConnection() async throws {
        let responder = HTTPResponderClosure { _ in HTTPResponse(headers: ["Connection": "close"]) }
        try await withServer(responder: responder) { _, port async throws in
            let response = try await exchange(
                "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            #expect(response == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
    }

    @Test func largeResponseSurvivesPartialWrites() async throws {
        try await withServer { _, port async throws in
            let client = try RawHTTPClient(port: port)
            client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try #require(await client.readResponse())
            #expect(response.header("Content-Length") == "\(Self.bigBody.count)")
            #expect(Data(response.body) == Self.bigBody)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.status == 200)
        }
    }

    @Test func http10ClosesUnlessKeepAlive() async throws {
        try await withServer { _, port async throws in
            #expect(
                try await exchange("GET /hello HTTP/1.0\r\n\r\n", port: port)
                    == "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 13\r\nConnection: close\r\n\r\nHello, world!")

            let keepAlive = try RawHTTPClient(port: port)
            keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(await keepAlive.readResponse()?.header("Connection") == "keep-alive")
            keepAlive.send("GET /items/2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(await keepAlive.readResponse()?.text == "item 2")
        }
    }

    @Test func customResponderClosure() async throws {
        let responder = HTTPResponderClosure { request in
            HTTPResponse(status: .created, headers: ["X-Method": request.method.rawValue], body: Data(request.path.utf8))
        }
        try await withServer(responder: responder) { _, port async throws in
            #expect(
                try await exchange("PATCH /a%20b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
                    == "HTTP/1.1 201 Created\r\nX-Method: PATCH\r\nContent-Length: 4\r\nConnection: close\r\n\r\n/a b")
        }
    }

    // MARK: - Errors and limits over the socket

    @Test func eachLimitExceededGetsItsStatusAndCloses() async throws {
        var limits = HTTPServerLimits()
        limits.maxRequestLineBytes = 64
        limits.maxHeaderBytes = 100
        limits.maxHeaderCount = 3
        limits.maxBodyBytes = 10
        try await withServer(limits: limits) { _, port async throws in
            // 65-byte request line, no line ending: answered at once.
            let longLine = "GET /" + String(repeating: "a", count: 60)
            #expect(
                try await exchange(longLine, port: port)
                    == "HTTP/1.1 414 URI Too Long\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 39\r\nConnection: close\r\n\r\n414 URI Too Long\nRequest line too long\n")
            // Exactly 64 bytes is fine.
            let okLine = "GET /items/" + String(repeating: "a", count: 64 - 20) + " HTTP/1.1"
            #expect(okLine.utf8.count == 64)
            #expect(
                try await exchange(okLine + "\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)?
                    .hasPrefix("HTTP/1.1 200 OK\r\n") == true)

            // Header section of 101 bytes.
            let bigHeader = "GET /hello HTTP/1.1\r\nHost: x\r\nX-Fill: " + String(repeating: "v", count: 80) + "\r\n\r\n"
            #expect(
                try await exchange(bigHeader, port: port)?.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n")
                    == true)
            // Exactly 100 bytes: "Host: x" 9 + "Connection: close" 19 + "X-Fill" 8+60+2 + final CRLF 2.
            let exactHeader =
                "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Fill: " + String(repeating: "v", count: 60) + "\r\n\r\n"
            #expect(try await exchange(exactHeader, port: port)?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)

            // Four header fields.
            #expect(
                try await exchange("GET /hello HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", port: port)?
                    .hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n") == true)

            // 11-byte body announced: rejected without sending the body.
            #expect(
                try await exchange("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", port: port)?
                    .hasPrefix("HTTP/1.1 413 Content Too Large\r\n") == true)
            // With the body sent anyway the client still gets the 413 (lingering close).
            #expect(
                try await exchange("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n01234567890", port: port)?
                    .hasPrefix("HTTP/1.1 413 Content Too Large\r\n") == true)
            #expect(
                try await exchange(
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789", port: port)?
                    .hasSuffix("\r\n\r\n0123456789") == true)
        }
    }

    @Test func malformedRequestsGetTheirStatusAndClose() async throws {
        try await withServer { _, port async throws in
            #expect(
                try await exchange("GARBAGE\r\n\r\n", port: port)
                    == "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 39\r\nConnection: close\r\n\r\n400 Bad Request\nMalformed request line\n")
            let cases: [(String, String)] = [
                ("GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", "505 HTTP Version Not Supported"),
                ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", "501 Not Implemented"),
                ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc", "400 Bad Request"),
                ("GET /search?q=%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", "400 Bad Request"),
                ("GET /hello HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", "400 Bad Request"),
                ("GET /hello HTTP/1.1\r\n\r\n", "400 Bad Request"),
            ]
            for (request, status) in cases {
                let response = try await exchange(request, port: port)
                #expect(response?.hasPrefix("HTTP/1.1 \(status)\r\n") == true, "\(request)")
                #expect(response?.contains("\r\nConnection: close\r\n") == true, "\(request)")
            }

            // A good request before the bad one is answered; nothing after the bad one is.
            let client = try RawHTTPClient(port: port)
            client.send("GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\nBAD REQUEST LINE\r\n\r\nGET /items/2 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "item 1")
            #expect(await client.readResponse()?.status == 400)
            #expect(await client.waitForClose() == .closed)
        }
    }

    @Test func customErrorRendererIsUsedForServerErrors() async throws {
        let server = HTTPServer(
            configuration: .init(errorRenderer: { status, _ in .text("custom \(status.code)", status: status) }),
            responder: Self.makeRouter())
        let port = try server.start()
        defer { server.stop() }
        #expect(
            try await exchange("GARBAGE\r\n\r\n", port: port)
                == "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 10\r\nConnection: close\r\n\r\ncustom 400")
    }

    // MARK: - Timeouts

    @Test func silentClientIsClosedWhileOthersAreServed() async throws {
        var limits = HTTPServerLimits()
        limits.firstRequestTimeout = 0.5
        try await withServer(limits: limits) { _, port async throws in
            let silent = try RawHTTPClient(port: port)
            let active = try RawHTTPClient(port: port)
            for index in 0..<3 {
                active.send("GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await active.readResponse()?.text == "item \(index)")
            }
            // Closed without a response once the timeout passes.
            #expect(await silent.waitForClose() == .closed)
        }
    }

    @Test func partialRequestGets408() async throws {
        var limits = HTTPServerLimits()
        limits.requestTimeout = 0.5
        try await withServer(limits: limits) { _, port async throws in
            #expect(
                try await exchange("GET /hello HTTP/1.1\r\nHost: x\r\n", port: port)
                    == "HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 54\r\nConnection: close\r\n\r\n408 Request Timeout\nTimed out waiting for the request\n")
        }
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() async throws {
        var limits = HTTPServerLimits()
        limits.keepAliveIdleTimeout = 0.3
        try await withServer(limits: limits) { _, port async throws in
            let client = try RawHTTPClient(port: port)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.status == 200)
            #expect(await client.waitForClose() == .closed)
        }
    }

    // MARK: - Lifecycle

    @Test func takenPortMakesStartThrow() async throws {
        try await withServer { _, port async throws in
            let second = HTTPServer(configuration: .init(port: port), responder: Self.makeRouter())
            defer { second.stop() }
            do {
                try second.start()
                Issue.record("start() on a taken port succeeded")
            } catch {
                guard case .bindFailed(let failedPort, let reason) = error as? HTTPServerError else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(failedPort == port)
                #expect(!reason.isEmpty)
            }
            #expect(!second.isRunning)
            #expect(second.port == nil)
            // Port candidates skip the taken port.
            let fallback = try second.start(portCandidates: [port, 0])
            #expect(fallback != port)
            #expect(throws: HTTPServerError.alreadyRunning) { try second.start() }
        }
    }

    @Test func stopClosesConnectionsAndStartWorksAgain() async throws {
        let server = HTTPServer(configuration: .init(), responder: Self.makeRouter())
        defer { server.stop() }
        let port = try server.start()
        let idle = try RawHTTPClient(port: port)
        idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await idle.readResponse()?.status == 200)
        let pending = try RawHTTPClient(port: port)
        pending.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")

        server.stop()
        #expect(!server.isRunning)
        #expect(server.port == nil)
        #expect(await idle.waitForClose() == .closed)
        // The pending handler's response is discarded.
        #expect(await pending.readUntilClose() == [])
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
        server.stop()  // stopping twice is harmless

        // Same object, same port (connections from before are in TIME_WAIT).
        #expect(try server.start(portCandidates: [port]) == port)
        #expect(server.isRunning)
        let client = try RawHTTPClient(port: port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await client.readResponse()?.text == "Hello, world!")
    }

    // MARK: - Concurrency and misbehaving clients

    @Test func manyConcurrentConnections() async throws {
        // Each connection costs two descriptors in this process (client and server side): sized so the test
        // also runs under a Mac's default soft limit of 256.
        let count = min(200, ((ConnectionBudget.processDescriptorLimit ?? 1024) - 120) / 2)
        var limits = HTTPServerLimits()
        limits.maxConnectionsPerAddress = count
        try await withServer(limits: limits) { _, port async throws in
            let clients = try (0..<count).map { _ in try RawHTTPClient(port: port, readTimeout: 10) }
            for (index, client) in clients.enumerated() {
                client.send("GET /slow?id=\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            for (index, client) in clients.enumerated() {
                #expect(await client.readResponse()?.text == "slow \(index)")
            }
        }
    }

    @Test func overConnectionLimitGets503() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 2
        try await withServer(limits: limits) { _, port async throws in
            var first: RawHTTPClient? = try RawHTTPClient(port: port)
            let second = try RawHTTPClient(port: port)
            for client in [first!, second] {
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse()?.status == 200)
            }
            #expect(
                try await exchange("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
                    == "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 45\r\nConnection: close\r\n\r\n503 Service Unavailable\nToo many connections\n")

            // Once a slot frees up, new connections are served again (as soon as the
            // server has seen the close, hence the retries).
            first = nil
            var served = false
            for _ in 0..<50 where !served {
                let client = try RawHTTPClient(port: port)
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                served = await client.readResponse()?.status == 200
                if !served { try await Task.sleep(nanoseconds: 20_000_000) }
            }
            #expect(served)
        }
    }

    @Test func clientsVanishingMidRequestAndMidResponse() async throws {
        try await withServer { server, port async throws in
            do {
                // Mid request line, mid headers, mid body.
                for partial in [
                    "GET /hel", "GET /hello HTTP/1.1\r\nHost: x\r\nX-A:",
                    "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789",
                ] {
                    let client = try RawHTTPClient(port: port)
                    client.send(partial)
                }
                // While the handler runs.
                let slow = try RawHTTPClient(port: port)
                slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                // While a large response is being written.
                let big = try RawHTTPClient(port: port)
                big.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await big.readMore() == .data)
            }  // every client is closed here
            try await Task.sleep(nanoseconds: 400_000_000)  // the slow handler finishes meanwhile
            #expect(server.isRunning)
            let client = try RawHTTPClient(port: port)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "Hello, world!")
        }
    }
}
