#if canImport(CoreData)
import CoreData

/// What a save of the browser's own context wrote, as object IDs, and how it reaches the app's context.
///
/// Why (decision): the browser writes through a private context on the app's coordinator, so the store has the edit
/// but the app's context still holds the objects' old snapshots. Unless it merges other contexts' saves (the app's
/// choice: `automaticallyMergesChangesFromParent`), it shows the old values, and its next save of one of those objects
/// fails with a merge conflict under the default `NSErrorMergePolicy` (Xcode's template `saveContext()` then calls
/// `fatalError`). The browser therefore merges its own save into the context it was handed, as Apple's API for
/// changes made elsewhere does: `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`
/// (developer.apple.com/documentation/coredata/nsmanagedobjectcontext/mergechanges(fromremotecontextsave:into:)),
/// with the inserted, updated and deleted IDs under `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and
/// `NSDeletedObjectsKey`. Like `mergeChanges(fromContextDidSave:)`, a merge "refreshes any objects which have been
/// updated in the other context, faults in any newly-inserted objects, and invokes delete(_:) on those which have been
/// deleted"; objects the app has not loaded are not touched. A refresh keeps the app's own unsaved changes of an
/// object on top of the new values, so what the app then saves over the browser's edit is its merge policy's
/// business, as after any other context's save.
///
/// The IDs come from `NSManagedObjectContextDidSaveObjectIDs` of the browser's context (posted on its queue during
/// `save()`, "safe to capture"), so cascades and inverse updates Core Data made are included.
final class SavedObjectIDs: @unchecked Sendable {
    // @unchecked: `saved` is guarded by `lock`; object IDs are immutable and may cross threads.
    private let lock = NSLock()
    private var saved: [String: Set<NSManagedObjectID>] = [:]

    /// Records the saves of `context` until the returned observer is removed.
    func observe(_ context: NSManagedObjectContext) -> any NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSaveObjectIDs, object: context, queue: nil) { [self] note in
            record(note.userInfo)
        }
    }

    private func record(_ userInfo: [AnyHashable: Any]?) {
        let pairs = [(NSInsertedObjectIDsKey, NSInsertedObjectsKey), (NSUpdatedObjectIDsKey, NSUpdatedObjectsKey),
                     (NSDeletedObjectIDsKey, NSDeletedObjectsKey)]
        lock.lock()
        defer { lock.unlock() }
        for (from, to) in pairs {
            guard let ids = userInfo?[from] as? Set<NSManagedObjectID>, !ids.isEmpty else { continue }
            saved[to, default: []].formUnion(ids)
        }
    }

    /// The saved IDs by merge key, or nil when nothing was saved.
    var changes: UncheckedSendable<[AnyHashable: Any]>? {
        lock.lock()
        defer { lock.unlock() }
        guard !saved.isEmpty else { return nil }
        return UncheckedSendable(Dictionary(uniqueKeysWithValues: saved.map { (AnyHashable($0.key), $0.value as Any) }))
    }

    /// Merges the changes into `context` and each of its parents, every one on its own queue, the root first (a child
    /// refreshes from its parent, which must already be current). Waits for the app's queue: the write answers once
    /// the app's context shows it.
    static func merge(_ changes: UncheckedSendable<[AnyHashable: Any]>, into context: NSManagedObjectContext) async {
        var chain: [UncheckedSendable<NSManagedObjectContext>] = []
        var next: UncheckedSendable<NSManagedObjectContext>? = UncheckedSendable(context)
        while let current = next {
            chain.append(current)
            next = await current.value.perform { current.value.parent.map(UncheckedSendable.init) }
        }
        for current in chain.reversed() {
            await current.value.perform {
                NSManagedObjectContext.mergeChanges(fromRemoteContextSave: changes.value, into: [current.value])
            }
        }
    }
}

#endif
