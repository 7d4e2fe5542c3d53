// NSManagedObjectContext as Apple's SDK declares it for Swift (the members the adapter and the demo use).
// Bodies are never run: this module exists to be compiled against.

/// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontextconcurrencytype
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    @available(*, deprecated)
    case confinementConcurrencyType = 0
    case privateQueueConcurrencyType = 1
    case mainQueueConcurrencyType = 2
}

/// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext — `nonisolated class NSManagedObjectContext`.
/// Not `Sendable` (no conformance is listed; Swift 6 code keeps it inside `perform`). Capturing one in the
/// `@Sendable` block of the `@preconcurrency` `perform` is a warning here as it is there, and an error with
/// warnings as errors, which the check and the package builds use.
open class NSManagedObjectContext: NSObject {
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/init(concurrencytype:)
    /// `init(concurrencyType ct: NSManagedObjectContextConcurrencyType)`
    public init(concurrencyType ct: NSManagedObjectContextConcurrencyType) { super.init() }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/persistentstorecoordinator
    /// `var persistentStoreCoordinator: NSPersistentStoreCoordinator? { get set }`
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator?

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/concurrencytype
    /// `var concurrencyType: NSManagedObjectContextConcurrencyType { get }`
    open var concurrencyType: NSManagedObjectContextConcurrencyType { .privateQueueConcurrencyType }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/name
    /// `var name: String? { get set }`
    open var name: String?

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/transactionauthor
    /// `var transactionAuthor: String? { get set }` (iOS 11)
    open var transactionAuthor: String?

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/insertedobjects
    /// `var insertedObjects: Set<NSManagedObject> { get }`
    open var insertedObjects: Set<NSManagedObject> { [] }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/updatedobjects
    /// `var updatedObjects: Set<NSManagedObject> { get }`
    open var updatedObjects: Set<NSManagedObject> { [] }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/deletedobjects
    /// `var deletedObjects: Set<NSManagedObject> { get }`
    open var deletedObjects: Set<NSManagedObject> { [] }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/automaticallymergeschangesfromparent
    /// `var automaticallyMergesChangesFromParent: Bool { get set }`
    open var automaticallyMergesChangesFromParent: Bool = false

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/haschanges
    /// `var hasChanges: Bool { get }`
    open var hasChanges: Bool { false }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/parent
    /// `var parent: NSManagedObjectContext? { get set }` (iOS 5)
    open var parent: NSManagedObjectContext?

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/scheduledtasktype
    /// `enum ScheduledTaskType` (iOS 15, macOS 12), Equatable & Hashable.
    public enum ScheduledTaskType: Hashable, Sendable {
        case immediate
        case enqueued
    }

    // The blocks of `perform` and `performAndWait` come in two signature sets, chosen by the compilation
    // condition XCODE16_SDK (run.sh builds this module once without it and once with it, and checks every
    // client against both):
    // - default, the current SDK (iOS 26 / Xcode 26): the blocks are `@Sendable`, as Apple's documentation
    //   pages cited below show them today;
    // - XCODE16_SDK, the SDKs before iOS 26 (Xcode 16): the same declarations with the block NOT `@Sendable`.
    //   Apple's pages only show the newest SDK, so this set is not copied from a page: it is the previous SDK's
    //   form as reported by a user building with Xcode 16, kept because code that passes one set can fail the other (a
    //   closure that is not `@Sendable` and is formed on the main actor is main-actor isolated, and handing it
    //   to a nonisolated `async` method is a "sending … risks causing data races" error).

    #if XCODE16_SDK
    /// Xcode 16 form of https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/perform(schedule:_:)
    /// `func perform<T>(schedule: NSManagedObjectContext.ScheduledTaskType = .immediate,
    ///       _ block: @escaping () throws -> T) async rethrows -> T`
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    public nonisolated func perform<T>(
        schedule: NSManagedObjectContext.ScheduledTaskType = .immediate,
        _ block: @escaping () throws -> T
    ) async rethrows -> T {
        try block()
    }

    /// Xcode 16 form of https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/performandwait(_:)-6aaf1
    /// `func performAndWait<T>(_ block: () throws -> T) rethrows -> T`
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    public nonisolated func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try block()
    }
    #else
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/perform(schedule:_:)
    /// `@preconcurrency nonisolated func perform<T>(schedule: NSManagedObjectContext.ScheduledTaskType = .immediate,
    ///       _ block: @escaping @Sendable () throws -> T) async rethrows -> T`
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @preconcurrency
    public nonisolated func perform<T>(
        schedule: NSManagedObjectContext.ScheduledTaskType = .immediate,
        _ block: @escaping @Sendable () throws -> T
    ) async rethrows -> T {
        try block()
    }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/performandwait(_:)-6aaf1
    /// `@preconcurrency nonisolated func performAndWait<T>(_ block: @Sendable () throws -> T) rethrows -> T`
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @preconcurrency
    public nonisolated func performAndWait<T>(_ block: @Sendable () throws -> T) rethrows -> T {
        try block()
    }
    #endif

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/count(for:)-3r91z
    /// `nonisolated func count<T>(for request: NSFetchRequest<T>) throws -> Int where T : NSFetchRequestResult`
    public nonisolated func count<T>(for request: NSFetchRequest<T>) throws -> Int where T: NSFetchRequestResult { 0 }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/fetch(_:)-4ea3d
    /// `func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] where T : NSFetchRequestResult`
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] where T: NSFetchRequestResult { [] }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/execute(_:)
    /// `func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult`
    open func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult { NSPersistentStoreResult() }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/existingobject(with:)
    /// `func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject`
    open func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject { fatalError() }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/object(with:)
    /// `func object(with objectID: NSManagedObjectID) -> NSManagedObject`
    open func object(with objectID: NSManagedObjectID) -> NSManagedObject { fatalError() }

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/save()
    /// `func save() throws`
    open func save() throws {}

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/processpendingchanges()
    /// `func processPendingChanges()`
    open func processPendingChanges() {}

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/reset()
    /// `func reset()`
    open func reset() {}

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/rollback()
    /// `func rollback()` — discards insertions and deletions, restores updated objects to their last committed
    /// values, and empties the undo stack.
    open func rollback() {}

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/refresh(_:mergechanges:)
    /// `func refresh(_ object: NSManagedObject, mergeChanges flag: Bool)`
    open func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {}

    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/delete(_:)
    /// `func delete(_ object: NSManagedObject)`
    open func delete(_ object: NSManagedObject) {}
}

// MARK: Notifications the adapter observes (names declared by CoreData on Apple platforms)

extension Notification.Name {
    /// https://developer.apple.com/documentation/foundation/nsnotification/name/1506380-nsmanagedobjectcontextdidsave
    /// `static let NSManagedObjectContextDidSave: NSNotification.Name`
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// https://developer.apple.com/documentation/foundation/nsnotification/name/3180044-nspersistentstoreremotechange
    /// `static let NSPersistentStoreRemoteChange: NSNotification.Name`
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}
