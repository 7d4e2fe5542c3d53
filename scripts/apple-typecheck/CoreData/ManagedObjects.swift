// Managed objects, their IDs, and fetch requests.

/// https://developer.apple.com/documentation/coredata/nsfetchrequestresult — `protocol NSFetchRequestResult : NSObjectProtocol`
public protocol NSFetchRequestResult: AnyObject {}

extension NSNumber: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}

/// https://developer.apple.com/documentation/coredata/nsmanagedobjectid — `class NSManagedObjectID`.
/// Sendable: the SDK header marks it NS_SWIFT_SENDABLE (objc2's header translation, generated from the SDK
/// headers, lists it as Send + Sync; the adapter does not rely on it).
open class NSManagedObjectID: NSObject, NSFetchRequestResult, @unchecked Sendable {
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectid/urirepresentation() — `func uriRepresentation() -> URL`
    open func uriRepresentation() -> URL { fatalError() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectid/istemporaryid — `var isTemporaryID: Bool { get }`
    open var isTemporaryID: Bool { false }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectid/entity — `var entity: NSEntityDescription { get }`
    open var entity: NSEntityDescription { fatalError() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectid/persistentstore — `weak var persistentStore: NSPersistentStore? { get }`
    open weak var persistentStore: NSPersistentStore?
}

/// https://developer.apple.com/documentation/coredata/nsmanagedobject — not Sendable.
open class NSManagedObject: NSObject, NSFetchRequestResult {
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/init(entity:insertinto:)
    /// `init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?)`
    public init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) { super.init() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/init(context:)
    /// `convenience init(context moc: NSManagedObjectContext)`
    public convenience init(context moc: NSManagedObjectContext) { self.init(entity: NSEntityDescription(), insertInto: moc) }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/entity — `var entity: NSEntityDescription { get }`
    open var entity: NSEntityDescription { fatalError() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/objectid — `var objectID: NSManagedObjectID { get }`
    open var objectID: NSManagedObjectID { fatalError() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/isfault — `var isFault: Bool { get }`
    open var isFault: Bool { false }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/value(forkey:) — `func value(forKey key: String) -> Any?`
    open func value(forKey key: String) -> Any? { nil }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/setvalue(_:forkey:) — `func setValue(_ value: Any?, forKey key: String)`
    open func setValue(_ value: Any?, forKey key: String) {}
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/mutablesetvalue(forkey:) — `func mutableSetValue(forKey key: String) -> NSMutableSet`
    open func mutableSetValue(forKey key: String) -> NSMutableSet { NSMutableSet() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/objectids(forrelationshipnamed:)
    /// `func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID]` (iOS 8.3)
    open func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] { [] }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/changedvalues() — `func changedValues() -> [String : Any]`
    open func changedValues() -> [String: Any] { [:] }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobject/committedvalues(forkeys:)
    /// `func committedValues(forKeys keys: [String]?) -> [String : Any]` (a nil value is an `NSNull`)
    open func committedValues(forKeys keys: [String]?) -> [String: Any] { [:] }
}

/// https://developer.apple.com/documentation/coredata/nsfetchrequestresulttype
public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let managedObjectResultType = NSFetchRequestResultType([])
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// https://developer.apple.com/documentation/coredata/nspersistentstorerequest
open class NSPersistentStoreRequest: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistentstorerequest/affectedstores
    /// `var affectedStores: [NSPersistentStore]? { get set }`
    open var affectedStores: [NSPersistentStore]?
}

/// https://developer.apple.com/documentation/coredata/nspersistentstoreresult — `class NSPersistentStoreResult`
open class NSPersistentStoreResult: NSObject {}

/// https://developer.apple.com/documentation/coredata/nsfetchrequest
/// `class NSFetchRequest<ResultType> where ResultType : NSFetchRequestResult` — not Sendable.
///
/// The one place the stand-in does not copy Apple's declaration: it leaves `ResultType` unconstrained. Apple's
/// `NSFetchRequestResult` is an `@objc` protocol, so its existential conforms to it and
/// `NSFetchRequest<any NSFetchRequestResult>` (what the history API takes and returns) is valid there; a Swift
/// protocol on Linux cannot conform to itself, so the constraint would make that type unwritable here. The
/// methods that run requests (`fetch`, `count(for:)`) keep the constraint.
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest {
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/init(entityname:) — `convenience init(entityName: String)`
    public convenience init(entityName: String) { self.init() }
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/entity — `var entity: NSEntityDescription? { get set }`
    open var entity: NSEntityDescription?
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/predicate — `var predicate: NSPredicate? { get set }`
    open var predicate: NSPredicate?
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/sortdescriptors — `var sortDescriptors: [NSSortDescriptor]? { get set }`
    open var sortDescriptors: [NSSortDescriptor]?
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/fetchlimit — `var fetchLimit: Int { get set }`
    open var fetchLimit: Int = 0
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/fetchoffset — `var fetchOffset: Int { get set }`
    open var fetchOffset: Int = 0
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/includessubentities — `var includesSubentities: Bool { get set }`
    open var includesSubentities: Bool = true
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/includespendingchanges — `var includesPendingChanges: Bool { get set }`
    open var includesPendingChanges: Bool = true
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/returnsobjectsasfaults — `var returnsObjectsAsFaults: Bool { get set }`
    open var returnsObjectsAsFaults: Bool = true
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/resulttype — `var resultType: NSFetchRequestResultType { get set }`
    open var resultType: NSFetchRequestResultType = .managedObjectResultType
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/propertiestofetch — `var propertiesToFetch: [Any]? { get set }`
    /// ("attributes, to-one relationships, or expressions"; set after `entity`)
    open var propertiesToFetch: [Any]?
    /// https://developer.apple.com/documentation/coredata/nsfetchrequest/propertiestogroupby — `var propertiesToGroupBy: [Any]? { get set }`
    /// (iOS 5; needs `resultType` `.dictionaryResultType`)
    open var propertiesToGroupBy: [Any]?
}
