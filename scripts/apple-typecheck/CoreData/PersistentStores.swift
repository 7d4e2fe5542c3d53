// The persistent store stack: coordinator, stores, container, store descriptions.

/// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator
open class NSPersistentStoreCoordinator: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/init(managedobjectmodel:)
    /// `init(managedObjectModel model: NSManagedObjectModel)`
    public init(managedObjectModel model: NSManagedObjectModel) { self.managedObjectModel = model }

    /// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/managedobjectmodel
    /// `var managedObjectModel: NSManagedObjectModel { get }`
    public let managedObjectModel: NSManagedObjectModel

    /// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/persistentstores
    /// `var persistentStores: [NSPersistentStore] { get }`
    open var persistentStores: [NSPersistentStore] { [] }

    /// https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/managedobjectid(forurirepresentation:)
    /// `func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID?`
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? { nil }
}

/// https://developer.apple.com/documentation/coredata/nspersistentstore
open class NSPersistentStore: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistentstore/url
    /// `var url: URL? { get set }`
    open var url: URL?
    /// https://developer.apple.com/documentation/coredata/nspersistentstore/type
    /// `var type: String { get }`
    open var type: String { "" }
    /// https://developer.apple.com/documentation/coredata/nspersistentstore/identifier
    /// `var identifier: String! { get set }`
    open var identifier: String!
    /// https://developer.apple.com/documentation/coredata/nspersistentstore/isreadonly
    /// `var isReadOnly: Bool { get set }`
    open var isReadOnly: Bool = false
    /// https://developer.apple.com/documentation/coredata/nspersistentstore/options
    /// `var options: [AnyHashable : Any]? { get }`
    open var options: [AnyHashable: Any]? { nil }
}

/// https://developer.apple.com/documentation/coredata/nssqlitestoretype — `let NSSQLiteStoreType: String`
public let NSSQLiteStoreType: String = "SQLite"
/// https://developer.apple.com/documentation/coredata/nsinmemorystoretype — `let NSInMemoryStoreType: String`
public let NSInMemoryStoreType: String = "InMemory"

/// https://developer.apple.com/documentation/coredata/nspersistentstoredescription
open class NSPersistentStoreDescription: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistentstoredescription/init(url:)
    /// `convenience init(url: URL)`
    public convenience init(url: URL) { self.init() }
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nspersistentstoredescription/type
    /// `var type: String { get set }`
    open var type: String = NSSQLiteStoreType
    /// https://developer.apple.com/documentation/coredata/nspersistentstoredescription/url
    /// `var url: URL? { get set }`
    open var url: URL?
    /// https://developer.apple.com/documentation/coredata/nspersistentstoredescription/shouldaddstoreasynchronously
    /// `var shouldAddStoreAsynchronously: Bool { get set }`
    open var shouldAddStoreAsynchronously: Bool = false
    /// https://developer.apple.com/documentation/coredata/nspersistentstoredescription/setoption(_:forkey:)
    /// `func setOption(_ option: NSObject?, forKey key: String)`
    open func setOption(_ option: NSObject?, forKey key: String) {}
}

/// https://developer.apple.com/documentation/coredata/nspersistentcontainer
open class NSPersistentContainer: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/init(name:)
    /// `convenience init(name: String)`
    public convenience init(name: String) { self.init(name: name, managedObjectModel: NSManagedObjectModel()) }
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/init(name:managedobjectmodel:)
    /// `init(name: String, managedObjectModel model: NSManagedObjectModel)`
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        managedObjectModel = model
        persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        viewContext = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    }
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/viewcontext
    /// `var viewContext: NSManagedObjectContext { get }`
    public let viewContext: NSManagedObjectContext
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/managedobjectmodel
    /// `var managedObjectModel: NSManagedObjectModel { get }`
    public let managedObjectModel: NSManagedObjectModel
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/persistentstorecoordinator
    /// `var persistentStoreCoordinator: NSPersistentStoreCoordinator { get }`
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/persistentstoredescriptions
    /// `var persistentStoreDescriptions: [NSPersistentStoreDescription] { get set }`
    open var persistentStoreDescriptions: [NSPersistentStoreDescription] = []
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/loadpersistentstores(completionhandler:)
    /// `func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void)`
    open func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {}
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/newbackgroundcontext()
    /// `func newBackgroundContext() -> NSManagedObjectContext`
    open func newBackgroundContext() -> NSManagedObjectContext { NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType) }
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/performbackgroundtask(_:)-25nok
    /// `func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async rethrows -> T`
    /// (iOS 15). The block is not `@Sendable` in either signature set (the page shows it without, and so did
    /// Xcode 16), and the method is `async` and nonisolated: called from the main actor, both the block formed
    /// there and the container it is called on are main-actor values sent to it, which Swift 6 refuses
    /// ("sending … risks causing data races"). The iOS demo therefore uses the completion form below.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    public func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async rethrows -> T {
        try block(newBackgroundContext())
    }

    #if XCODE16_SDK
    /// Xcode 16 form of https://developer.apple.com/documentation/coredata/nspersistentcontainer/performbackgroundtask(_:)-39sch
    /// `func performBackgroundTask(_ block: @escaping (NSManagedObjectContext) -> Void)` (see
    /// ManagedObjectContext.swift for the two signature sets).
    open func performBackgroundTask(_ block: @escaping (NSManagedObjectContext) -> Void) {
        block(newBackgroundContext())
    }
    #else
    /// https://developer.apple.com/documentation/coredata/nspersistentcontainer/performbackgroundtask(_:)-39sch
    /// `func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void)` (iOS 10)
    open func performBackgroundTask(_ block: @escaping @Sendable (NSManagedObjectContext) -> Void) {
        block(newBackgroundContext())
    }
    #endif
}
