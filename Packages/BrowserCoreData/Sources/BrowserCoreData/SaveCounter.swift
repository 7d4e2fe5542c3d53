#if canImport(CoreData)
import CoreData

/// Counts the saves that reach the served coordinator's stores, so `ManagedContextStore.changeToken()` moves when
/// its data does (`/api/events`, Live), and not when another Core Data stack of the process saves.
///
/// - `NSManagedObjectContextDidSaveObjectIDs` (iOS 10.3) of any context counts when an object ID it lists belongs to
///   one of this coordinator's stores. Apple: "It's safe to capture the dictionary's contents"
///   (developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsmanagedobjectcontextdidsaveobjectids),
///   and object IDs are immutable and may cross threads, so the check reads no context off its queue (which the
///   plain `NSManagedObjectContextDidSave`, carrying managed objects, would need). A child context's save of saved
///   objects counts too (their IDs are the store's): one refresh of the page; one that only inserted has temporary
///   IDs of no store and does not, and its parent's save, which reaches the store, does.
/// - `NSPersistentStoreRemoteChange` (another process, CloudKit, a batch operation, when the app turned on remote
///   change notifications for its store), observed for this coordinator only: "This notification's object is the
///   changed store coordinator"
///   (developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nspersistentstoreremotechange).
///
/// The observers only compare identities and bump a counter under a lock.
final class SaveCounter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`; the observer tokens are set once in init and read in deinit.
    private let lock = NSLock()
    private var count = 0
    private var observers: [any NSObjectProtocol] = []

    /// - Parameter coordinator: the served coordinator; only its identity is kept (the app's context keeps it alive).
    init(coordinator: NSPersistentStoreCoordinator) {
        let served = ObjectIdentifier(coordinator)
        let center = NotificationCenter.default
        observers.append(center.addObserver(forName: .NSManagedObjectContextDidSaveObjectIDs, object: nil, queue: nil) { [weak self] note in
            if Self.savedObjects(of: note.userInfo, belongTo: served) { self?.increment() }
        })
        observers.append(center.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { [weak self] _ in
            self?.increment()
        })
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    /// Whether the save listed an object of one of the coordinator's stores.
    private static func savedObjects(of userInfo: [AnyHashable: Any]?, belongTo served: ObjectIdentifier) -> Bool {
        for key in [NSInsertedObjectIDsKey, NSUpdatedObjectIDsKey, NSDeletedObjectIDsKey] {
            guard let ids = userInfo?[key] as? Set<NSManagedObjectID> else { continue }
            if ids.contains(where: { id in id.persistentStore?.persistentStoreCoordinator.map(ObjectIdentifier.init) == served }) {
                return true
            }
        }
        return false
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
