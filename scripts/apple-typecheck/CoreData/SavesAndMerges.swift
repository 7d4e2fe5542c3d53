// What the adapter uses to hand the browser's saves to the app's context, and to tell the served coordinator's saves
// from other stacks' (the keys and the notification are declared by CoreData on Apple platforms). None take a block,
// so both signature sets (see ManagedObjectContext.swift) share them.

extension Notification.Name {
    /// https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nsmanagedobjectcontextdidsaveobjectids
    /// `static let NSManagedObjectContextDidSaveObjectIDs: NSNotification.Name` (iOS 10.3): the saved context's
    /// inserted, updated and deleted object IDs; "It's safe to capture the dictionary's contents."
    public static let NSManagedObjectContextDidSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
}

/// https://developer.apple.com/documentation/coredata/nsinsertedobjectidskey — `let NSInsertedObjectIDsKey: String` (iOS 10.3)
public let NSInsertedObjectIDsKey: String = "inserted_objectIDs"
/// https://developer.apple.com/documentation/coredata/nsupdatedobjectidskey — `let NSUpdatedObjectIDsKey: String` (iOS 10.3)
public let NSUpdatedObjectIDsKey: String = "updated_objectIDs"
/// https://developer.apple.com/documentation/coredata/nsdeletedobjectidskey — `let NSDeletedObjectIDsKey: String` (iOS 10.3)
public let NSDeletedObjectIDsKey: String = "deleted_objectIDs"

/// https://developer.apple.com/documentation/coredata/nsinsertedobjectskey — `let NSInsertedObjectsKey: String`
public let NSInsertedObjectsKey: String = "inserted"
/// https://developer.apple.com/documentation/coredata/nsupdatedobjectskey — `let NSUpdatedObjectsKey: String`
public let NSUpdatedObjectsKey: String = "updated"
/// https://developer.apple.com/documentation/coredata/nsdeletedobjectskey — `let NSDeletedObjectsKey: String`
public let NSDeletedObjectsKey: String = "deleted"

extension NSManagedObjectContext {
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/mergechanges(fromremotecontextsave:into:)
    /// `class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable : Any],
    ///       into contexts: [NSManagedObjectContext])` (iOS 9)
    public class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any],
                                   into contexts: [NSManagedObjectContext]) {}
}

extension NSPersistentStore {
    /// https://developer.apple.com/documentation/coredata/nspersistentstore/persistentstorecoordinator
    /// `weak var persistentStoreCoordinator: NSPersistentStoreCoordinator? { get }`
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? { nil }
}
