#if canImport(CoreData)
import CoreData

/// A Core Data stack for one test: an SQLite store at `/dev/null` (in memory, with the SQLite store's SQL
/// semantics: primary-key order, BINARY collation, CONTAINS[cd] in SQL), or in a file for the parity and
/// history tests, or a store of another type (Core Data's in-memory store sorts and filters in memory).
struct TestStack {
    let container: NSPersistentContainer

    /// - Parameters:
    ///   - historyTracking: adds the store with `NSPersistentHistoryTrackingKey` on, as an app does.
    ///   - cloudKitContainer: sets the description's `cloudKitContainerOptions` to this CloudKit container, as an app
    ///     whose store `NSPersistentCloudKitContainer` mirrors does (the plain container used here syncs nothing).
    init(storeURL: URL = URL(fileURLWithPath: "/dev/null"), storeType: String = NSSQLiteStoreType,
         historyTracking: Bool = false, cloudKitContainer: String? = nil) throws {
        container = NSPersistentContainer(name: "Test", managedObjectModel: TestModel.shared)
        let description = NSPersistentStoreDescription(url: storeURL)
        description.type = storeType
        description.shouldAddStoreAsynchronously = false
        if historyTracking {
            description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        }
        if let cloudKitContainer {
            description.cloudKitContainerOptions = NSPersistentCloudKitContainerOptions(containerIdentifier: cloudKitContainer)
        }
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }

    /// Inserts and saves on a background context; returns nothing that belongs to it. `author` and `contextName`
    /// become the saved transaction's author and context name in the persistent history.
    func seed(author: String? = nil, contextName: String? = nil,
              _ body: @escaping @Sendable (NSManagedObjectContext) throws -> Void) async throws {
        try await container.performBackgroundTask { context in
            context.transactionAuthor = author
            context.name = contextName
            try body(context)
            try context.save()
        }
    }

    /// A fresh folder for store files, removed afterwards.
    static func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("BrowserCoreDataTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }
}

/// Builders used inside `seed`.
extension NSManagedObjectContext {
    @discardableResult
    func insertRecord(_ entity: String, _ values: [String: Any?]) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: self)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    /// The first saved object of `entity` (or a sub-entity) whose String attribute `key` is `value` (a fetch,
    /// then a look in Swift: the stand-in the tests compile against on Linux has no `NSPredicate(format:)`).
    func first(_ entity: String, where key: String = "name", is value: String) throws -> NSManagedObject? {
        try fetch(NSFetchRequest<NSManagedObject>(entityName: entity)).first { $0.value(forKey: key) as? String == value }
    }
}

#endif
