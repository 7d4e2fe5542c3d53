import Foundation

/// A value guarded by a lock, for state shared between the event-loop thread, Swift
/// concurrency tasks and callers of the public API. Public so that the assembly (CoreDataBrowser) guards its own
/// shared state with this one type rather than a hand-written lock per value.
///
/// `@unchecked Sendable` because the compiler cannot see that every access to `value`
/// goes through `lock`; that discipline is what makes sharing it safe.
/// (`Synchronization.Mutex` would express this statically but needs macOS 15/iOS 18, and `NSLock.withLock`
/// iOS 16; the packages support iOS 15.) Never held across a suspension: `body` is synchronous.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
