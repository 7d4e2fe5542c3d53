import Dispatch

/// How long the request a store is working for may take, passed to the store without changing the contract:
/// the server sets `deadline` around each request (`CoreDataBrowserServer.Options.requestTimeBudget`), and a store that can
/// stop a query midway (BrowserSQLite) stops it there and throws `BrowserError.unavailable`, so one slow search
/// cannot hold the store's queue, and every request behind it, for as long as it likes.
///
/// A store also stops when the request's task is cancelled (its client went away): nobody will read the answer.
public enum RequestBudget {
    /// `DispatchTime.now().uptimeNanoseconds` past which the request's store work stops; nil for no limit.
    @TaskLocal public static var deadline: UInt64?

    /// Milliseconds since `start` (a `DispatchTime.now().uptimeNanoseconds`), as `/api/…/explain` reports times.
    /// (DispatchTime, not ContinuousClock: the package supports iOS 15 and macOS 12.)
    public static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// Runs `body` with a deadline `seconds` from now (no deadline when `seconds` is nil).
    public static func withSeconds<T>(_ seconds: Double?, _ body: () async throws -> T) async rethrows -> T {
        guard let seconds else { return try await body() }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1_000_000_000)
        return try await $deadline.withValue(deadline, operation: body)
    }
}
