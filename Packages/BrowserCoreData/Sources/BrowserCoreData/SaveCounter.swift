#if canImport(CoreData)
import CoreData

/// Counts the app's saves, so `ManagedContextStore.changeToken()` moves when its data does (`/api/events`,
/// Live): `NSManagedObjectContextDidSave` of any context, and `NSPersistentStoreRemoteChange` (another process,
/// CloudKit, a batch operation) when the app turned on remote change notifications for its store.
///
/// Every save of the process counts, a child context's too (it reaches no store): telling them apart would mean
/// reading the saving context's coordinator on the notification's thread, off the context's queue, which Core
/// Data's concurrency checks forbid. A save that changed nothing the browser shows costs one refresh of the page.
/// The observers only bump a counter under a lock.
final class SaveCounter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`; the observer tokens are set once in init and read in deinit.
    private let lock = NSLock()
    private var count = 0
    private var observers: [any NSObjectProtocol] = []

    init() {
        let center = NotificationCenter.default
        for name in [Notification.Name.NSManagedObjectContextDidSave, .NSPersistentStoreRemoteChange] {
            observers.append(center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                self?.increment()
            })
        }
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    private func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var saves: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
#endif
