import BrowserHTTPTesting
import BrowserCore
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// `GET /api/events` over raw sockets: Server-Sent Events announce a write to the store (which entities' counts
/// moved), resume from `Last-Event-ID`, say `resync` when they cannot, are refused past their own limit, end
/// when the server stops, and nothing is polled while nobody listens.
@Suite(.serialized)
struct EventStreamTests {
    static func schema() -> StoreSchema {
        StoreSchema(entities: [EntitySchema(name: "Note", attributes: [AttributeSchema(name: "text", type: .string)])])
    }

    static func serve(_ store: InMemoryStore, limits: (inout CoreDataBrowserServer.Options) -> Void = { _ in })
        throws -> (CoreDataBrowserServer, UInt16) {
        var options = CoreDataBrowserServer.Options.forTests()
        options.changePollInterval = 0.02
        limits(&options)
        let server = CoreDataBrowserServer(store: store, options: options)
        return (server, try server.start().port)
    }

    static func request(_ port: UInt16, lastEventID: String? = nil) -> String {
        "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + (lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? "") + "\r\n"
    }

    /// Reads chunks until one holds `text`; fails on the stream's end.
    static func chunk(containing text: String, from connection: RawHTTPClient) async throws -> String {
        while true {
            guard case .data(let bytes) = await connection.nextChunk() else {
                Issue.record("the stream ended before \(text)")
                throw CancellationError()
            }
            let chunk = String(decoding: bytes, as: UTF8.self)
            if chunk.contains(text) { return chunk }
        }
    }

    @Test func aWriteIsAnnouncedAndAReconnectResumesOrResyncs() async throws {
        let store = InMemoryStore(schema: Self.schema())
        try await store.insert("Note", ["text": .string("first")])
        let (server, port) = try Self.serve(store)
        defer { server.stop() }

        let connection = try RawHTTPClient(port: port)
        connection.send(Self.request(port))
        let head = try #require(await connection.readHead())
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(head.header("Cache-Control") == "no-store")
        #expect(try await Self.chunk(containing: "retry:", from: connection) == "retry: 2000\n\n")

        try await store.insert("Note", ["text": .string("second")])
        let event = try await Self.chunk(containing: "event: change", from: connection)
        #expect(event == "id: 1\nevent: change\ndata: {\"counts\":{\"Note\":2},\"entities\":[\"Note\"]}\n\n")

        // A browser that saw event 0 gets event 1 again on reconnecting; one from another server run resyncs.
        let resumed = try RawHTTPClient(port: port)
        resumed.send(Self.request(port, lastEventID: "0"))
        _ = await resumed.readHead()
        #expect(try await Self.chunk(containing: "event:", from: resumed).hasPrefix("id: 1\nevent: change\n"))
        let stranger = try RawHTTPClient(port: port)
        stranger.send(Self.request(port, lastEventID: "41"))
        _ = await stranger.readHead()
        #expect(try await Self.chunk(containing: "event:", from: stranger) == "event: resync\ndata: {}\n\n")
        let bad = try await RawHTTPClient.exchange(Self.request(port, lastEventID: "x"), port: port)
        #expect(bad.status == 400)
    }

    @Test func eventStreamsHaveTheirOwnLimitAndEndWhenTheServerStops() async throws {
        let store = InMemoryStore(schema: Self.schema())
        let (server, port) = try Self.serve(store) { $0.limits.maxOpenEndedStreams = 1 }
        let first = try RawHTTPClient(port: port)
        first.send(Self.request(port))
        #expect(await first.readHead()?.status == 200)
        _ = try await Self.chunk(containing: "retry:", from: first)
        let second = try await RawHTTPClient.exchange(Self.request(port), port: port)
        #expect(second.status == 503)
        // Downloads are not held back by open tabs.
        let download = try RawHTTPClient(port: port)
        download.send("GET /api/entities/Note/export?format=csv HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(await download.readChunked()?.complete == true)

        server.stop()
        #expect(await first.nextChunk() == .cut, "an event stream has no last chunk: it is cut when the server stops")
        #expect(await first.waitForClose() == .closed)
    }

    @Test func aTabClosingFreesItsStream() async throws {
        let store = InMemoryStore(schema: Self.schema())
        let (server, port) = try Self.serve(store) { $0.limits.maxOpenEndedStreams = 1 }
        defer { server.stop() }
        var tab: RawHTTPClient? = try RawHTTPClient(port: port)
        tab!.send(Self.request(port))
        #expect(await tab!.readHead()?.status == 200)
        tab = nil  // the tab closes: its socket is closed
        // The server notices the hang-up and frees the slot; until it has, a new stream gets 503.
        var status: Int?
        for _ in 0..<500 {
            let next = try RawHTTPClient(port: port)
            next.send(Self.request(port))
            status = await next.readHead()?.status
            if status == 200 { break }
            await Task.yield()
        }
        #expect(status == 200)
    }

    @Test func nobodyListeningMeansNoPolling() async throws {
        let store = InMemoryStore(schema: Self.schema())
        let feed = ChangeFeed(store: store, pollInterval: 0.01)
        #expect(await !feed.isWatching)
        let task = Task {
            for await item in await feed.subscribe(lastEventID: nil) {
                if case .change = item { return true }
            }
            return false
        }
        while await feed.listenerCount == 0 { await Task.yield() }
        #expect(await feed.isWatching)
        try await store.insert("Note", ["text": .string("x")])
        #expect(await task.value)
        while await feed.listenerCount > 0 { await Task.yield() }
        #expect(await !feed.isWatching)
    }
}
