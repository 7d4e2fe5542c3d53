import BrowserHTTPTesting
import BrowserHTTP
import Foundation
import Testing

/// Bodies produced while they are sent (`HTTPStreamedBody`), over real sockets: framing for each HTTP version,
/// HEAD, back-pressure, a failing or overrunning producer, a client leaving, and the cap on streams at once.
// A time limit so that a wait that never ends fails the run instead of hanging it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct StreamedBodyTests {
    /// Hands out `pieces` in order, counting calls; optionally waits for cancellation at one call.
    final class Pieces: HTTPBodyProducer, @unchecked Sendable {
        private let lock = NSLock()
        private var remaining: [Data]
        private var calls = 0
        private let failAt: Int?
        private let (cancellations, reporter) = AsyncStream<Bool>.makeStream()
        private let hangAt: Int?

        init(_ pieces: [Data], failAt: Int? = nil, hangAt: Int? = nil) {
            remaining = pieces
            self.failAt = failAt
            self.hangAt = hangAt
        }

        var callCount: Int { lock.withLock { calls } }

        /// Whether the hanging call ended by cancellation (true) or gave up after 10 s (false); nil when it was
        /// never made within 15 s, so a test that goes wrong fails instead of waiting forever.
        func hangOutcome() async -> Bool? {
            let reports = cancellations
            return await withTaskGroup(of: Bool?.self) { group in
                group.addTask {
                    var iterator = reports.makeAsyncIterator()
                    return await iterator.next()
                }
                group.addTask {
                    try? await Task.sleep(nanoseconds: 15_000_000_000)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }

        func nextChunk() async throws -> Data? {
            let call = lock.withLock { calls += 1; return calls }
            if call == failAt { throw CancellationError() }
            if call == hangAt {
                let giveUp = Date().addingTimeInterval(10)
                while !Task.isCancelled && Date() < giveUp { try? await Task.sleep(nanoseconds: 5_000_000) }
                reporter.yield(Task.isCancelled)
                throw CancellationError()
            }
            return lock.withLock { remaining.isEmpty ? nil : remaining.removeFirst() }
        }
    }

    private func withServer(
        limits: HTTPServerLimits = HTTPServerLimits(),
        _ route: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        _ body: (UInt16) async throws -> Void
    ) async throws {
        var router = HTTPRouter()
        router.add(.GET, "/stream") { request, _ in route(request) }
        router.add(.GET, "/hello") { _, _ in .text("Hello") }
        let server = HTTPServer(configuration: .init(limits: limits), responder: router)
        let port = try server.start()
        defer { server.stop() }
        try await body(port)
    }

    private static let abc = ["abc", "", "defgh", "i"].map { Data($0.utf8) }

    @Test func withoutALengthHTTP11IsChunkedAndTheConnectionIsKept() async throws {
        let pieces = Pieces(Self.abc)
        try await withServer({ _ in .stream(pieces, length: nil, contentType: "text/plain") }) { port in
            let client = try RawHTTPClient(port: port)
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            // The empty piece is skipped: it would end the body.
            let expected = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n5\r\ndefgh\r\n1\r\ni\r\n0\r\n\r\n"
            #expect(String(decoding: await client.readExactly(expected.utf8.count) ?? [], as: UTF8.self) == expected)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "Hello")
        }
    }

    @Test func withALengthItIsContentLengthFramed() async throws {
        try await withServer({ _ in .stream(Pieces(Self.abc), length: 9, contentType: "text/plain") }) { port in
            let client = try RawHTTPClient(port: port)
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = await client.readResponse()
            #expect(response?.header("Content-Length") == "9")
            #expect(response?.header("Transfer-Encoding") == nil)
            #expect(response?.text == "abcdefghi")
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "Hello")
        }
    }

    @Test func withoutALengthHTTP10EndsTheBodyByClosing() async throws {
        try await withServer({ _ in .stream(Pieces(Self.abc), length: nil, contentType: "text/plain") }) { port in
            let client = try RawHTTPClient(port: port)
            client.send("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let raw = String(decoding: await client.readUntilClose() ?? [], as: UTF8.self)
            #expect(raw == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nabcdefghi")
        }
    }

    @Test func headSendsTheHeadAndNeverAsksTheProducer() async throws {
        let pieces = Pieces(Self.abc)
        try await withServer({ _ in .stream(pieces, length: 9, contentType: "text/plain") }) { port in
            let client = try RawHTTPClient(port: port)
            client.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = await client.readResponse(bodyless: true)
            #expect(response?.header("Content-Length") == "9")
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "Hello")
            #expect(pieces.callCount == 0)
        }
    }

    @Test func aFailingProducerLeavesTheBodyVisiblyIncomplete() async throws {
        try await withServer({ _ in .stream(Pieces(Self.abc, failAt: 2), length: nil, contentType: "text/plain") }) { port in
            let client = try RawHTTPClient(port: port)
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let raw = String(decoding: await client.readUntilClose() ?? [], as: UTF8.self)
            // The first piece, then the close: no zero-size last chunk.
            #expect(raw.hasSuffix("\r\n\r\n3\r\nabc\r\n"))
        }
    }

    @Test func aProducerDeliveringMoreOrLessThanItsLengthHasTheConnectionClosed() async throws {
        for length in [4, 20] {
            try await withServer({ _ in .stream(Pieces(Self.abc), length: length, contentType: "text/plain") }) { port in
                let client = try RawHTTPClient(port: port)
                client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                let raw = await client.readUntilClose() ?? []
                let body = String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n\r\n").last ?? ""
                #expect(body.utf8.count < length, "length \(length)")
            }
        }
    }

    @Test func theProducerIsNotAskedAheadOfASlowClient() async throws {
        // Pieces larger than loopback's socket buffers: the first cannot be written in full while the client
        // reads nothing, so the producer must not be asked for the second.
        let size = 32 * 1024 * 1024
        let pieces = Pieces([Data(count: size), Data(count: size)])
        try await withServer({ _ in .stream(pieces, length: 2 * size, contentType: "application/octet-stream") }) { port in
            let client = try RawHTTPClient(port: port, readTimeout: 20)
            client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readMore() == .data)
            try await Task.sleep(nanoseconds: 300_000_000)  // time for a producer asked too early to be asked
            #expect(pieces.callCount == 1)
            // Reading everything lets the rest be produced and sent.
            let response = await client.readResponse()
            #expect(response != nil)
            #expect(pieces.callCount == 3)  // two pieces, then the end
        }
    }

    @Test func aClientLeavingMidStreamCancelsTheProducer() async throws {
        // The first piece hangs: it is asked for as soon as the head is written, so before the client can have
        // read the head and left (a later piece might never be asked for, if the server saw the client go first).
        let pieces = Pieces(Self.abc, hangAt: 1)
        try await withServer({ _ in .stream(pieces, length: nil, contentType: "text/plain") }) { port in
            do {
                let client = try RawHTTPClient(port: port)
                client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readMore() == .data)
            }  // closed while the first piece is being made
            #expect(await pieces.hangOutcome() == true)
        }
    }

    @Test func streamsOverTheCapGet503() async throws {
        var limits = HTTPServerLimits()
        limits.maxConcurrentStreams = 1
        let stalled = Pieces(Self.abc, hangAt: 1)
        try await withServer(limits: limits, { request in
            request.query["n"] == "1"
                ? .stream(stalled, length: nil, contentType: "text/plain")
                : .stream(Pieces(Self.abc), length: nil, contentType: "text/plain")
        }) { port in
            let first = try RawHTTPClient(port: port)
            first.send("GET /stream?n=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await first.readMore() == .data)
            let second = try RawHTTPClient(port: port)
            second.send("GET /stream?n=2 HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = await second.readResponse()
            #expect(refused?.status == 503)
            #expect(refused?.text.contains("Too many downloads at once") == true)
            // The connection stays usable.
            second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await second.readResponse()?.text == "Hello")
        }
    }
}
