import Foundation

/// Builds kept orders (`SortedKeys`) and index checkpoints (`IndexCheckpoints`) for the read pool's lane 0 (whose
/// queue is "the store's queue" below) off the request path: on a read-only connection and a serial queue of its
/// own, after the request that asked for the order has been answered, so no request ever waits for one. The
/// store's queue keeps serving requests meanwhile (SQLite sorts them as before); the order serves from the first
/// request after it is delivered.
///
/// - One build at a time, and only the latest one asked for: a request for another order (the person moved on)
///   cancels the running build through its `QueryInterruption` (SQLite stops within microseconds), and a build
///   whose order is no longer the latest is skipped before it starts.
/// - A change of the data (the cache's `generation` moved) cancels the running build; an order finished anyway is
///   handed to the cache on the store's queue and kept only under the generation it was asked under
///   (`ReadCache.keep`), so it never serves data it was not built from.
/// - Memory: the keys of one order (`SortedKeys.maximumRows` at most; a larger result is dropped) and SQLite's
///   sorter on this connection (which spills to temporary files past its cache).
/// - Only when the store is read in place: a private snapshot's files are replaced and deleted as the original
///   changes (`StoreConnection`), and a second connection on them could outlive them. Such stores keep SQLite's
///   sort on every page.
final class KeptOrderBuilder: @unchecked Sendable {
    // @unchecked: `connection` is confined to `queue`; `latest` and `running` are behind `lock`; `cache` is only
    // touched on `storeQueue`, the queue it is confined to.

    private struct Job: Equatable {
        var request: SortedKeys.Request
        var generation: Int
    }

    /// The store file, or nil when orders are not built (snapshot mode).
    private let path: String?
    private let cache: ReadCache
    private let storeQueue: DispatchQueue
    private let queue = DispatchQueue(label: "BrowserSQLite.KeptOrderBuilder")
    private var connection: SQLiteConnection?
    private let lock = NSLock()
    private var latest: Job?
    private var running: (job: Job, interruption: QueryInterruption)?

    init(path: String?, cache: ReadCache, storeQueue: DispatchQueue) {
        self.path = path
        self.cache = cache
        self.storeQueue = storeQueue
    }

    /// Called on the store's queue after every read: cancels a build the data has moved past, and starts the
    /// order the read asked for, if any.
    func follow() {
        let generation = cache.generation
        let requested = cache.takeRequestedBuild()
        lock.lock()
        defer { lock.unlock() }
        if let running, running.job.generation != generation || (requested.map { $0 != running.job.request } ?? false) {
            running.interruption.cancel()
        }
        guard path != nil, let requested else { return }
        let job = Job(request: requested, generation: generation)
        guard job != latest else { return }
        latest = job
        queue.async { self.build(job) }
    }

    /// Returns once every build asked for so far has ended and its order has been handed to the cache (tests
    /// wait on this instead of on time).
    func finished() async {
        await withCheckedContinuation { continuation in
            queue.async { self.storeQueue.async { continuation.resume() } }
        }
    }

    /// Tests: holds builds back (they queue) until `resume()`, so a build can be placed after a commit without
    /// depending on time.
    func pause() { queue.suspend() }
    func resume() { queue.resume() }

    private func build(_ job: Job) {
        let interruption = QueryInterruption(deadline: nil)
        lock.lock()
        guard job == latest else {
            lock.unlock()
            return
        }
        running = (job, interruption)
        lock.unlock()
        defer {
            lock.lock()
            running = nil
            lock.unlock()
        }
        // A build that fails (the file went away, the build was cancelled) leaves SQLite answering those pages; it
        // is asked for again under the next generation.
        guard let built = try? read(job.request, interruption: interruption) else { return }
        storeQueue.async {
            switch built {
            case .order(let order): self.cache.keep(order, askedUnder: job.generation)
            case .checkpoints(let checkpoints): self.cache.keep(checkpoints, askedUnder: job.generation)
            }
        }
    }

    private enum Built: Sendable {
        case order(SortedKeys)
        case checkpoints(IndexCheckpoints)
    }

    /// The request's structure, read in one read transaction; nil for an order past `SortedKeys.maximumRows`.
    private func read(_ request: SortedKeys.Request, interruption: QueryInterruption) throws -> Built? {
        guard let path else { return nil }
        let connection = try self.connection ?? SQLiteConnection(path: path, readOnly: true)
        self.connection = connection
        connection.interruption = interruption
        defer { connection.interruption = nil }
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        let statement = try connection.prepare(request.sql)
        try statement.bind(request.arguments)
        switch request.kind {
        case .order:
            var keys: [Int64] = []
            keys.reserveCapacity(min(request.expectedRows, SortedKeys.maximumRows))
            while try statement.step() {
                guard keys.count < SortedKeys.maximumRows else { return nil }
                keys.append(statement.value(at: 0).int64 ?? 0)
            }
            return .order(SortedKeys(key: request.key, keys: keys))
        case .indexCheckpoints:
            var entries: [IndexCheckpoints.Entry] = []
            var position = 0
            while try statement.step() {
                if position % KeyCheckpoints.stride == 0 {
                    entries.append(IndexCheckpoints.Entry(value: statement.value(at: 0), key: statement.value(at: 1).int64 ?? 0))
                }
                position += 1
            }
            return .checkpoints(IndexCheckpoints(key: request.key, entries: entries, rowCount: position))
        }
    }
}
