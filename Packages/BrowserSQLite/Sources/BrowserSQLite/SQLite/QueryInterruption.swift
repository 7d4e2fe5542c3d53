import BrowserCore
import CSQLite
import Dispatch
import Foundation

/// Why, and whether, the statements of one request should stop: its task was cancelled (the client went away)
/// or its `RequestBudget` deadline passed. SQLite asks through its progress handler
/// (https://www.sqlite.org/c3ref/progress_handler.html) every `SQLiteConnection.progressInterval` virtual machine
/// instructions, so a scan of a million rows stops within microseconds of either, with `SQLITE_INTERRUPT`.
final class QueryInterruption: @unchecked Sendable {
    enum Reason: Sendable, Equatable {
        case cancelled
        case overBudget
    }

    private let deadline: UInt64?
    /// The request's interruption when this one is a shorter deadline inside it (a facet's): its reasons come first.
    private let enclosing: QueryInterruption?
    /// Set from any thread (the task's cancellation handler), read on the store's queue: behind `lock`.
    private let lock = NSLock()
    private var cancelled = false
    /// Tests: stop after this many progress checks, to interrupt a query midway without depending on time.
    private var checksBeforeStopping: Int?
    /// Tests: asked at every progress check, on the thread running the statement (it may wait there, holding the
    /// request inside its statement); a reason it returns stops the work.
    private let check: (@Sendable () -> Reason?)?

    init(deadline: UInt64? = RequestBudget.deadline) {
        self.deadline = deadline
        enclosing = nil
        check = nil
    }

    /// A part of a request that must stop earlier than the request (`deadline`), and also stops when the request
    /// does (`enclosing`): the caller tells the two apart with `enclosingReason`.
    init(deadline: UInt64?, within enclosing: QueryInterruption?) {
        self.deadline = deadline
        self.enclosing = enclosing
        check = nil
    }

    /// Stops after `checks` progress callbacks (test hook).
    init(stoppingAfterChecks checks: Int) {
        deadline = nil
        enclosing = nil
        checksBeforeStopping = checks
        check = nil
    }

    /// Asks `check` at every progress check (test hook).
    init(checking check: @escaping @Sendable () -> Reason?) {
        deadline = nil
        enclosing = nil
        self.check = check
    }

    /// Why the enclosing request should stop, when it should (nil for an interruption of a whole request).
    var enclosingReason: Reason? { enclosing?.reason }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    /// Why the work should stop now, or nil to go on.
    var reason: Reason? {
        if let stop = enclosing?.reason { return stop }
        if let check, let stop = check() { return stop }
        lock.lock()
        defer { lock.unlock() }
        if cancelled { return .cancelled }
        if let remaining = checksBeforeStopping {
            if remaining <= 0 { return .overBudget }
            checksBeforeStopping = remaining - 1
        }
        if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline { return .overBudget }
        return nil
    }

    /// The error a request stopped for this reason ends with.
    static func error(for reason: Reason) -> any Error {
        switch reason {
        case .cancelled:
            return CancellationError()
        case .overBudget:
            return BrowserError.unavailable(
                "The store stopped this request at its time budget (CoreDataBrowserServer.Options.requestTimeBudget): "
                    + "a search or sort over a large table took too long; narrow it (search one attribute) and retry")
        }
    }
}
