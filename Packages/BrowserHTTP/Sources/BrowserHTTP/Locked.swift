import Foundation

/// A value guarded by a lock, for state shared between the event-loop thread, Swift
/// concurrency tasks and callers of the public API.
///
/// `@unchecked Sendable` because the compiler cannot see that every access to `value`
/// goes through `lock`; that discipline is what makes sharing it safe.
/// (`Synchronization.Mutex` would express this statically but needs macOS 15/iOS 18.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
