import BrowserCore
import BrowserHTTP
import Foundation

/// `GET /api/events` as a response body: Server-Sent Events (BrowserHTTP's `ServerSentEvent`) made from a
/// `ChangeFeed` subscription while the browser listens.
///
/// ```
/// retry: 2000                      (first: how long the browser waits before reconnecting)
///
/// id: 7
/// event: change
/// data: {"counts":{"Book":615,…},"entities":["Book"]}
///
/// : heartbeat                      (a comment after a quiet while)
///
/// event: resync                    (the events since Last-Event-ID are gone: fetch everything)
/// data: {}
/// ```
///
/// The body never ends by itself: it ends when the client goes away or the server stops (its task is
/// cancelled, the subscription's stream finishes, `nextChunk` returns nil).
///
/// `@unchecked Sendable`: the server never asks a producer for two pieces at once (`HTTPBodyProducer`), so the
/// iterator is used by one task at a time. (An actor would need `next(isolation:)`, which needs iOS 18.)
final class EventStreamBody: HTTPBodyProducer, @unchecked Sendable {
    /// How long a browser waits before reconnecting after the stream ends (the server restarted, Wi-Fi moved).
    static let reconnectMilliseconds = 2_000

    private var iterator: AsyncStream<ChangeFeed.Item>.Iterator
    private var started = false

    init(items: AsyncStream<ChangeFeed.Item>) {
        iterator = items.makeAsyncIterator()
    }

    /// `Last-Event-ID`: absent, or the decimal ID of the last event the browser received.
    static func lastEventID(_ value: String?) throws(BrowserError) -> Int? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        guard let id = Int(value), id >= 0 else {
            throw .badRequest("Last-Event-ID must be the number of an event this server sent, got \"\(value)\"")
        }
        return id
    }

    func nextChunk() async throws -> Data? {
        if !started {
            started = true
            return ServerSentEvent.retry(milliseconds: Self.reconnectMilliseconds).encoded
        }
        var items = iterator
        let item = await items.next()
        iterator = items
        guard let item else { return nil }
        return Self.event(item).encoded
    }

    static func event(_ item: ChangeFeed.Item) -> ServerSentEvent {
        switch item {
        case .heartbeat:
            return .comment("heartbeat")
        case .resync:
            return .event(name: "resync", data: "{}")
        case .change(let event):
            let payload = (try? BrowserJSON.encode(ChangeEventDTO(entities: event.entities, counts: event.counts)))
                .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return .event(id: String(event.id), name: "change", data: payload)
        }
    }

    /// The data of a `change` event.
    struct ChangeEventDTO: Encodable {
        let entities: [String]
        let counts: [String: Int]
    }
}
