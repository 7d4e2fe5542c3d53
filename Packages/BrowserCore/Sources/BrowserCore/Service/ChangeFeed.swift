import Dispatch

/// What a store's changes look like to the browser (`GET /api/events`): numbered events saying which entities'
/// counts changed, never the data (a page fetches what is on screen).
///
/// The feed watches the store only while someone listens: it asks `BrowserStore.changeToken()` every
/// `pollInterval` (a store file: `PRAGMA data_version` and the files' signature; the in-memory store: its write
/// count) and, when the token moves, counts each entity again. With no listener it does no work at all. A store
/// whose token is nil (it cannot tell) never sends a change.
///
/// The last `retainedEvents` events are kept so a client that reconnects with `Last-Event-ID` gets what it
/// missed; one asking for an older event, or an event of an earlier server, gets `resync` (fetch everything).
public actor ChangeFeed {
    /// One change of the store.
    public struct Event: Sendable, Hashable {
        /// Increases by one per event, from 1, for the life of the feed.
        public let id: Int
        /// Entities whose record count changed, by name; empty when only existing records changed (the token
        /// moved, the counts did not).
        public let entities: [String]
        /// Every browsable entity's count after the change.
        public let counts: [String: Int]
    }

    /// What a listener receives.
    public enum Item: Sendable, Hashable {
        case change(Event)
        /// Nothing happened for `heartbeatInterval` (keeps proxies and the browser from closing the stream).
        case heartbeat
        /// The events since the client's `Last-Event-ID` are no longer known: it should fetch everything.
        case resync
    }

    public static let retainedEvents = 256

    private let store: any BrowserStore
    // Nanoseconds (not Duration: the package supports iOS 15 and macOS 12).
    private let pollInterval: UInt64
    private let heartbeatInterval: UInt64
    private var listeners: [Int: AsyncStream<Item>.Continuation] = [:]
    private var nextListener = 0
    private var recent: [Event] = []
    private var lastID = 0
    private var token: ChangeToken?
    private var counts: [String: Int] = [:]
    private var watcher: Task<Void, Never>?

    /// `pollInterval` and `heartbeatInterval` in seconds.
    public init(store: any BrowserStore, pollInterval: Double = 0.25, heartbeatInterval: Double = 15) {
        self.store = store
        self.pollInterval = UInt64(max(0.001, pollInterval) * 1e9)
        self.heartbeatInterval = UInt64(max(0.001, heartbeatInterval) * 1e9)
    }

    /// A stream of items for one listener: first what it missed since `lastEventID` (or `resync`), then each
    /// change and heartbeat. The listener is forgotten when its stream ends (its task is cancelled).
    public func subscribe(lastEventID: Int?) async -> AsyncStream<Item> {
        // Nobody listened since the last baseline: what changed meanwhile becomes an event first, so a client
        // reconnecting with the last ID it saw still learns of it.
        if listeners.isEmpty {
            if token == nil { await takeBaseline() } else { _ = await checkForChange() }
        }
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingNewest(Self.retainedEvents))
        if let lastEventID {
            if lastEventID <= lastID, lastEventID >= (recent.first?.id ?? lastID + 1) - 1 {
                for event in recent where event.id > lastEventID { continuation.yield(.change(event)) }
            } else if lastEventID != lastID {
                continuation.yield(.resync)
            }
        }
        let listener = nextListener
        nextListener += 1
        listeners[listener] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(listener) } }
        if watcher == nil { watcher = Task { await self.watch() } }
        return stream
    }

    /// How many listeners are subscribed (tests, and the proof that an idle server does no polling).
    public var listenerCount: Int { listeners.count }

    /// Whether the feed is polling the store now.
    public var isWatching: Bool { watcher != nil }

    private func unsubscribe(_ listener: Int) {
        listeners[listener] = nil
        if listeners.isEmpty {
            watcher?.cancel()
            watcher = nil
        }
    }

    /// The token and counts changes are measured against, taken when the first listener arrives.
    private func takeBaseline() async {
        token = try? await store.changeToken()
        counts = (try? await currentCounts()) ?? [:]
    }

    private func currentCounts() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for entity in try await store.schema().browsableEntities {
            counts[entity.name] = try await store.count(of: entity.name)
        }
        return counts
    }

    /// Polls while someone listens; sends a heartbeat after `heartbeatInterval` without a change.
    private func watch() async {
        var quietSince = DispatchTime.now().uptimeNanoseconds
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: pollInterval)
            guard !Task.isCancelled else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            if await checkForChange() {
                quietSince = now
            } else if now - quietSince >= heartbeatInterval {
                quietSince = now
                for listener in listeners.values { listener.yield(.heartbeat) }
            }
        }
    }

    /// Sends an event when the store's token moved; true when it did.
    private func checkForChange() async -> Bool {
        guard let latest = try? await store.changeToken(), latest != token else { return false }
        token = latest
        guard let now = try? await currentCounts() else { return false }
        let changed = Set(now.keys).union(counts.keys).filter { now[$0] != counts[$0] }.sorted()
        counts = now
        lastID += 1
        let event = Event(id: lastID, entities: changed, counts: now)
        recent.append(event)
        if recent.count > Self.retainedEvents { recent.removeFirst(recent.count - Self.retainedEvents) }
        for listener in listeners.values { listener.yield(.change(event)) }
        return true
    }
}
