#if canImport(CoreData)
import CoreData

/// A Core Data stack for one test: an SQLite store at `/dev/null` (in memory, with the SQLite store's SQL
/// semantics: primary-key order, BINARY collation, CONTAINS[cd] in SQL), or in a file for the parity test.
struct TestStack {
    let container: NSPersistentContainer

    init(storeURL: URL = URL(fileURLWithPath: "/dev/null")) throws {
        container = NSPersistentContainer(name: "Test", managedObjectModel: TestModel.shared)
        let description = NSPersistentStoreDescription(url: storeURL)
        description.type = NSSQLiteStoreType
        description.shouldAddStoreAsynchronously = false
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }

    /// Inserts and saves on a background context; returns nothing that belongs to it.
    func seed(_ body: @escaping @Sendable (NSManagedObjectContext) throws -> Void) async throws {
        try await container.performBackgroundTask { context in
            try body(context)
            try context.save()
        }
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
}

#endif
