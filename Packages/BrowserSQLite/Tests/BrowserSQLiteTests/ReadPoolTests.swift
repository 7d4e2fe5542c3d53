import BrowserCore
@testable import BrowserSQLite
import Dispatch
import Foundation
import Testing

/// The store's read pool (`ReadPool`) on real store files: a request held inside its statement does not hold up
/// another's; each request reads one snapshot while the app commits; a store read from private copies moves
/// every connection to the same copy; exports of a rollback-journal store share one copy per data version.
///
/// A request is held inside its statement by its interruption's progress check, which waits on a semaphore the
/// test signals (no sleeps, no timing): the other request must finish while the first is still held there.
@Suite(.timeLimit(.minutes(2)))
struct ReadPoolTests {
    /// A request held inside its statement until `release()`, then stopped (cancelled) by its interruption.
    final class HeldRequest: @unchecked Sendable {
        // @unchecked: `armed` and `insideSignalled` are behind `lock`; the semaphores are thread-safe.
        private let inside = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var armed = false
        private var insideSignalled = false

        /// Called by the request's body just before its statement: the checks before it (the request's start)
        /// pass.
        func arm() { lock.withLock { armed = true } }

        /// The interruption to run the request with: its first progress check once armed signals `inside` and
        /// waits there.
        var interruption: QueryInterruption {
            QueryInterruption(checking: { [self] in
                lock.lock()
                guard armed else {
                    lock.unlock()
                    return nil
                }
                let first = !insideSignalled
                insideSignalled = true
                lock.unlock()
                guard first else { return .cancelled }
                inside.signal()
                released.wait()
                return .cancelled
            })
        }

        /// Waits, off the cooperative threads, until the request is inside its statement.
        func waitUntilInside() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    self.inside.wait()
                    continuation.resume()
                }
            }
        }

        func release() { released.signal() }
    }

    static func items(_ count: Int, walMode: Bool = true) throws -> SyntheticStore {
        try ItemStore.make((1...count).map { ItemRow(key: Int64($0), title: "item \($0)", special: false) }, walMode: walMode)
    }

    /// A statement that runs long enough to reach a progress check (a cross join of the table with itself).
    static let slowStatement = "SELECT count(*) FROM ZITEM a, ZITEM b WHERE a.ZTITLE LIKE '%' || b.ZTITLE || '%'"

    @Test(arguments: [true, false])
    func aRequestHeldInsideItsStatementDoesNotHoldUpAnother(walMode: Bool) async throws {
        let synthetic = try Self.items(500, walMode: walMode)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let held = HeldRequest()
        let finished = Flag()
        let slow = Task {
            defer { finished.set() }
            return try await store.perform(stoppingWith: held.interruption) { connection, _ in
                try connection.read { sqlite, _ in
                    held.arm()
                    return try sqlite.scalar(Self.slowStatement)
                }
            }
        }
        await held.waitUntilInside()
        // Another client's requests, while the first is inside its statement on its connection.
        #expect(try await store.count(of: "Item") == 500)
        let page = try await store.page(RecordQuery(entity: "Item", limit: 3))
        #expect(page.records.map(\.id.primaryKey) == [1, 2, 3])
        #expect(try await store.changeToken() != nil)
        #expect(!finished.value)
        held.release()
        await #expect(throws: CancellationError.self) { _ = try await slow.value }
    }

    @Test func eachRequestReadsOneSnapshotWhileTheAppCommits() async throws {
        let synthetic = try Self.items(100)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let reading = Task {
            try await store.perform { connection, _ in
                try connection.read { sqlite, _ in
                    let first = try sqlite.scalar("SELECT count(*) FROM ZITEM")?.int64
                    inside.signal()
                    resume.wait()
                    let second = try sqlite.scalar("SELECT count(*) FROM ZITEM")?.int64
                    return [first, second]
                }
            }
        }
        await Self.wait(for: inside)
        // The app commits while the request is between its two statements.
        let writer = try RawDatabase(path: synthetic.storeURL.path)
        try writer.execute("INSERT INTO ZITEM VALUES (101, 1, 1, 'new')")
        // A request that starts now reads on another connection, in the new snapshot.
        #expect(try await store.count(of: "Item") == 101)
        resume.signal()
        #expect(try await reading.value == [100, 100])
        #expect(try await store.count(of: "Item") == 101)
    }

    /// A store read from private copies: a request that starts after the app commits reads a new copy, on whichever
    /// connection, and the connection that was busy moves to that same copy at its next request.
    @Test func everyConnectionOfASnapshotStoreReadsTheSameCopyGeneration() async throws {
        let synthetic = try Self.items(20)
        let folder = synthetic.directory.url.path
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        #expect(store.accessDescription == "private snapshot")
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let holding = Task {
            try await store.perform { connection, _ in
                try connection.read { sqlite, _ in
                    inside.signal()
                    resume.wait()
                    return try sqlite.scalar("SELECT count(*) FROM ZITEM")?.int64
                }
            }
        }
        await Self.wait(for: inside)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try ReadCacheTests.write("INSERT INTO ZITEM VALUES (21, 1, 1, 'row 21')", to: synthetic)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        #expect(try await store.count(of: "Item") == 21) // another connection, on the new copy
        resume.signal()
        #expect(try await holding.value == 20) // the held request kept its copy to its end
        // Both connections busy at once: each reads the new copy.
        async let first = store.perform { connection, _ in try connection.read { sqlite, _ in try sqlite.scalar("SELECT count(*) FROM ZITEM")?.int64 } }
        async let second = store.perform { connection, _ in try connection.read { sqlite, _ in try sqlite.scalar("SELECT count(*) FROM ZITEM")?.int64 } }
        #expect(try await [first, second] == [21, 21])
    }

    /// Concurrent exports of a rollback-journal store read one private copy of its data version; a commit makes
    /// the next export take a new copy, while the running ones keep theirs; a copy goes when its last export does.
    @Test func exportsOfARollbackJournalStoreShareOneCopyPerDataVersion() async throws {
        let synthetic = try Self.items(30, walMode: false)
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        func export() async throws -> SQLiteRecordCursor {
            try #require(try await store.cursor(RecordQuery(entity: "Item"), relationships: [], batchSize: 10) as? SQLiteRecordCursor)
        }
        var first: SQLiteRecordCursor? = try await export()
        var second: SQLiteRecordCursor? = try await export()
        // Only the exports hold their copy (a reference kept here would keep it on disk).
        let sharedFolder = try #require(first?.copy?.directory)
        let sharedGeneration = try #require(first?.copy?.generation)
        #expect(second?.copy === first?.copy)

        let writer = try RawDatabase(path: synthetic.storeURL.path)
        try writer.execute("INSERT INTO ZITEM VALUES (31, 1, 1, 'saved while exporting')")
        var third: SQLiteRecordCursor? = try await export()
        #expect(third?.copy !== first?.copy)
        #expect(third?.copy?.generation == sharedGeneration + 1)
        let newerFolder = try #require(third?.copy?.directory)

        // Each export reads its own data version to the end.
        func keys(_ cursor: SQLiteRecordCursor) async throws -> [Int64] {
            var keys: [Int64] = []
            while let batch = try await cursor.next() { keys += batch.primaryKeys }
            return keys
        }
        #expect(try await keys(try #require(first)) == Array(1...30))
        #expect(try await keys(try #require(third)) == Array(1...31))
        first?.waitUntilIdle()
        first = nil
        #expect(FileManager.default.fileExists(atPath: sharedFolder)) // the second export still reads it
        #expect(try await keys(try #require(second)) == Array(1...30))
        second?.waitUntilIdle()
        second = nil
        #expect(!FileManager.default.fileExists(atPath: sharedFolder))
        // The latest copy goes with its last export too: the store keeps no copy for exports to come.
        third?.waitUntilIdle()
        third = nil
        #expect(!FileManager.default.fileExists(atPath: newerFolder))
    }

    @Test func thePoolIsSmallAndNamed() {
        #expect(ReadPool.size(cores: 1) == 2)
        #expect(ReadPool.size(cores: 2) == 3)
        #expect(ReadPool.size(cores: 16) == 3)
    }

    /// Waits, off the cooperative threads, for `semaphore`.
    static func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                semaphore.wait()
                continuation.resume()
            }
        }
    }

    final class Flag: @unchecked Sendable {
        // @unchecked: behind `lock`.
        private let lock = NSLock()
        private var isSet = false
        var value: Bool { lock.withLock { isSet } }
        func set() { lock.withLock { isSet = true } }
    }
}
