// Persistent history: the request, its result, transactions and their changes (the members the adapter and its
// tests use). None of these take a block, so both signature sets (see ManagedObjectContext.swift) share them.

/// https://developer.apple.com/documentation/coredata/nspersistenthistorytrackingkey — `let NSPersistentHistoryTrackingKey: String`
/// (iOS 11). Tracking is off unless a store is added with this option set to true.
public let NSPersistentHistoryTrackingKey: String = "NSPersistentHistoryTrackingKey"

/// https://developer.apple.com/documentation/coredata/nspersistenthistoryresulttype
/// `enum NSPersistentHistoryResultType : Int` (NS_ENUM of NSInteger, not frozen).
public enum NSPersistentHistoryResultType: Int, Sendable {
    case statusOnly = 0
    case objectIDs = 1
    case count = 2
    case transactionsOnly = 3
    case changesOnly = 4
    case transactionsAndChanges = 5
}

/// https://developer.apple.com/documentation/coredata/nspersistenthistorychangetype
/// `enum NSPersistentHistoryChangeType : Int` (NS_ENUM of NSInteger, not frozen).
public enum NSPersistentHistoryChangeType: Int, Sendable {
    case insert = 0
    case update = 1
    case delete = 2
}

/// https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest — `class NSPersistentHistoryChangeRequest`
/// (a `NSPersistentStoreRequest`, not Sendable).
open class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest {
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest/fetchhistory(withfetch:)
    /// `class func fetchHistory(withFetch fetchRequest: NSFetchRequest<any NSFetchRequestResult>) -> Self` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open class func fetchHistory(withFetch fetchRequest: NSFetchRequest<any NSFetchRequestResult>) -> Self { fatalError() }

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest/fetchhistory(after:)-9cuj5
    /// `class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self` (iOS 11)
    open class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self { fatalError() }

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest/fetchhistory(after:)-qi5b
    /// `class func fetchHistory(after date: Date) -> Self` (iOS 11)
    open class func fetchHistory(after date: Date) -> Self { fatalError() }

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest/resulttype
    /// `var resultType: NSPersistentHistoryResultType { get set }` (default `.transactionsAndChanges`)
    open var resultType: NSPersistentHistoryResultType = .transactionsAndChanges

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychangerequest/fetchrequest
    /// `var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? { get set }` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open var fetchRequest: NSFetchRequest<any NSFetchRequestResult>?
}

/// https://developer.apple.com/documentation/coredata/nspersistenthistoryresult — `class NSPersistentHistoryResult`
open class NSPersistentHistoryResult: NSPersistentStoreResult {
    /// https://developer.apple.com/documentation/coredata/nspersistenthistoryresult/result — `var result: Any? { get }`
    open var result: Any? { nil }
}

/// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction — `class NSPersistentHistoryTransaction`
/// (`NSObject, NSCopying`; not Sendable).
open class NSPersistentHistoryTransaction: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/fetchrequest
    /// `class var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? { get }` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open class var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? { nil }

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/entitydescription(with:)
    /// `class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription?` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? { nil }

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/timestamp — `var timestamp: Date { get }`
    open var timestamp: Date { Date() }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/changes
    /// `var changes: [NSPersistentHistoryChange]? { get }`
    open var changes: [NSPersistentHistoryChange]? { nil }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/transactionnumber
    /// `var transactionNumber: Int64 { get }`
    open var transactionNumber: Int64 { 0 }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/bundleid — `var bundleID: String { get }`
    open var bundleID: String { "" }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/processid — `var processID: String { get }`
    open var processID: String { "" }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/contextname — `var contextName: String? { get }`
    open var contextName: String? { nil }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorytransaction/author — `var author: String? { get }`
    open var author: String? { nil }
}

/// https://developer.apple.com/documentation/coredata/nspersistenthistorychange — `class NSPersistentHistoryChange`
/// (`NSObject, NSCopying`; not Sendable).
open class NSPersistentHistoryChange: NSObject {
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/fetchrequest
    /// `class var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? { get }` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open class var fetchRequest: NSFetchRequest<any NSFetchRequestResult>? { nil }

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/entitydescription(with:)
    /// `class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription?` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? { nil }

    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/transaction
    /// `var transaction: NSPersistentHistoryTransaction? { get }`
    open var transaction: NSPersistentHistoryTransaction? { nil }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/changeid — `var changeID: Int64 { get }`
    open var changeID: Int64 { 0 }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/changedobjectid
    /// `@NSCopying var changedObjectID: NSManagedObjectID { get }`
    open var changedObjectID: NSManagedObjectID { fatalError() }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/changetype
    /// `var changeType: NSPersistentHistoryChangeType { get }`
    open var changeType: NSPersistentHistoryChangeType { .insert }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/tombstone — `var tombstone: [AnyHashable : Any]? { get }`
    open var tombstone: [AnyHashable: Any]? { nil }
    /// https://developer.apple.com/documentation/coredata/nspersistenthistorychange/updatedproperties
    /// `var updatedProperties: Set<NSPropertyDescription>? { get }`
    open var updatedProperties: Set<NSPropertyDescription>? { nil }
}
