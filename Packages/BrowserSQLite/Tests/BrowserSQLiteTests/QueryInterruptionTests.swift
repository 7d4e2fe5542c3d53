import BrowserCore
@testable import BrowserSQLite
import CSQLite
import Dispatch
import Foundation
import Testing

/// A request's statements stop when its client leaves or its time budget runs out (`QueryInterruption`), and the
/// store answers the next request as usual.
struct QueryInterruptionTests {
    /// Counts to `n` in SQLite's virtual machine: millions of instructions, no table needed.
    static func counting(to n: Int) -> String {
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT \(n)) SELECT count(*) FROM c"
    }

    @Test func theProgressHandlerStopsAStatementMidway() throws {
        let connection = try SQLiteConnection(path: ":memory:", readOnly: false)
        connection.interruption = QueryInterruption(stoppingAfterChecks: 3)
        #expect {
            try connection.scalar(Self.counting(to: 50_000_000))
        } throws: { ($0 as? SQLiteError)?.primaryCode == SQLITE_INTERRUPT }
        // Without a stop condition the same connection finishes the work.
        connection.interruption = nil
        #expect(try connection.scalar(Self.counting(to: 100_000))?.int64 == 100_000)
    }

    /// What a cancelled task does (`SQLiteStore.perform`'s cancellation handler calls `cancel()`) and what a passed
    /// deadline does, while a statement runs: counting to 2 billion takes minutes, each stop comes within a second.
    @Test(arguments: ["cancelled", "deadline"])
    func aRunningStatementStopsWhenItsRequestIsCancelledOrOverBudget(reason: String) throws {
        let connection = try SQLiteConnection(path: ":memory:", readOnly: false)
        let interruption = QueryInterruption(
            deadline: reason == "deadline" ? DispatchTime.now().uptimeNanoseconds + 200_000_000 : nil)
        connection.interruption = interruption
        if reason == "cancelled" {
            // A thread of its own: the statement below holds one of the cooperative pool's threads, and on Linux
            // DispatchQueue.global() is that same pool.
            Thread.detachNewThread {
                usleep(200_000)
                interruption.cancel()
            }
        }
        let started = DispatchTime.now().uptimeNanoseconds
        #expect {
            try connection.scalar(Self.counting(to: 2_000_000_000))
        } throws: { ($0 as? SQLiteError)?.primaryCode == SQLITE_INTERRUPT }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        #expect(seconds >= 0.15 && seconds < 5, "stopped after \(seconds) s")
        #expect(interruption.reason == (reason == "cancelled" ? .cancelled : .overBudget))
    }

    @Test func aRequestPastItsBudgetIsAnsweredWithoutRunningAndTheNextOneIsServed() async throws {
        let synthetic = try SyntheticRelationshipTests.makeInheritanceStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let past = DispatchTime.now().uptimeNanoseconds
        await #expect {
            try await RequestBudget.$deadline.withValue(past) { try await store.page(RecordQuery(entity: "Media")) }
        } throws: { ($0 as? BrowserError)?.kind == .unavailable && ($0 as? BrowserError)?.statusCode == 503 }
        #expect(try await store.page(RecordQuery(entity: "Media")).total == 5)
        // A budget that has not run out changes nothing.
        let counted = try await RequestBudget.withSeconds(60) { try await store.count(of: "Book") }
        #expect(counted == 2)
    }

    @Test func aCancelledRequestStopsWithCancellationError() async throws {
        let synthetic = try SyntheticRelationshipTests.makeInheritanceStore()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() } // the client left before the store got to it
            return try await store.page(RecordQuery(entity: "Media"))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await store.page(RecordQuery(entity: "Media")).total == 5)
    }
}
