#if canImport(CoreData)
import BrowserCore
import CoreData

/// The fetch requests the adapter runs. Names come from a `RecordQuery` that BrowserCore validated against
/// this model, so every key path here is an attribute of the entity.
enum FetchRequests {
    /// The records a page query selects, sub-entities included, without limit (for `count(for:)`); `page`
    /// adds the limit and offset. Sorted by the attribute, then (SQLite stores only) by primary key in the same direction.
    /// `coordinator` resolves the record IDs a filter compares to-one relationships with.
    static func records(_ query: RecordQuery, coordinator: NSPersistentStoreCoordinator?) throws -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: query.entity)
        request.includesSubentities = true
        // Unsaved inserts have temporary IDs that cannot be linked to; both reading modes leave them out.
        request.includesPendingChanges = false
        request.predicate = try query.matchFilter.map { try FilterPredicate.make($0, coordinator: coordinator) }
        let ascending = query.tieBreak == .ascending
        var sort: [NSSortDescriptor] = []
        // A relationship's count is no sort descriptor: `CountSortedFetch` orders by counts after this fetch.
        for key in query.sortKeys where !key.countsRelationship {
            sort.append(NSSortDescriptor(key: key.attribute, ascending: key.order == .ascending))
        }
        if sortsInSQL(coordinator) {
            // The tie-breaker: `objectID` sorts by the primary key (Z_PK) in the SQLite store, so equal values keep
            // one order and pages never overlap.
            sort.append(NSSortDescriptor(key: "objectID", ascending: ascending))
        }
        request.sortDescriptors = sort
        return request
    }

    /// Whether every store of the coordinator is an SQLite store, which turns sort descriptors into SQL.
    ///
    /// Only there is `objectID` a sort key (decision). The in-memory, binary and XML stores sort in memory with the
    /// descriptors' comparison selector (Core Data Programming Guide, "Persistent Store Types and Behaviors",
    /// developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/PersistentStoreFeatures.html:
    /// "In the XML, binary, and in-memory stores, evaluation of the predicate and sort descriptors is performed in
    /// Objective-C"), `NSManagedObjectID` has no `compare:`, and "Sorting raises an exception if the objects don't
    /// respond to the sort descriptor's comparison selector"
    /// (developer.apple.com/documentation/foundation/nssortdescriptor): an exception that would end the app. Those
    /// stores get no tie-breaker: no key every object answers `compare:` for exists (attributes may be nil, and
    /// the URI of an ID sorts `p10` before `p9`), and those stores hold their whole object graph in memory, so they
    /// are small enough that ties between pages are a rare, visible oddity rather than a crash.
    static func sortsInSQL(_ coordinator: NSPersistentStoreCoordinator?) -> Bool {
        let stores = coordinator?.persistentStores ?? []
        return !stores.isEmpty && stores.allSatisfy { $0.type == NSSQLiteStoreType }
    }

    /// The IDs of the records a query selects, in its order, without limit: for a record's position, and for the
    /// records of an ordered relationship, which the store cannot sort by the relationship's order itself.
    static func recordIDs(_ query: RecordQuery, restrictedTo ids: [NSManagedObjectID]?,
                          coordinator: NSPersistentStoreCoordinator?) throws -> NSFetchRequest<NSManagedObjectID> {
        let request = NSFetchRequest<NSManagedObjectID>(entityName: query.entity)
        request.resultType = .managedObjectIDResultType
        request.includesSubentities = true
        request.includesPendingChanges = false
        request.predicate = try predicate(query, restrictedTo: ids, coordinator: coordinator)
        request.sortDescriptors = try records(query, coordinator: coordinator).sortDescriptors
        return request
    }

    /// The query's filter, and with a relationship scope `SELF IN` the scope's targets.
    static func predicate(_ query: RecordQuery, restrictedTo ids: [NSManagedObjectID]?,
                          coordinator: NSPersistentStoreCoordinator?) throws -> NSPredicate? {
        let filter = try query.matchFilter.map { try FilterPredicate.make($0, coordinator: coordinator) }
        guard let ids else { return filter }
        let scope = FilterPredicate.objects(in: ids)
        return filter.map { NSCompoundPredicate(andPredicateWithSubpredicates: [$0, scope]) } ?? scope
    }

    /// How many records of the entity there are, sub-entities included.
    static func count(of entity: String) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.includesSubentities = true
        request.includesPendingChanges = false
        return request
    }

    /// The one record with this ID, only if it is of exactly this entity (as the store-file reader checks
    /// `Z_ENT`): a fetch rather than `existingObject(with:)`, which would resolve `Book/p7` to an AudioBook row.
    static func record(_ id: NSManagedObjectID, entity: String) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.includesSubentities = false
        request.includesPendingChanges = false
        request.predicate = FilterPredicate.objects(in: [id])
        request.fetchLimit = 1
        return request
    }

    /// The records with these IDs, of the destination entity or its sub-entities, in one fetch.
    static func objects(_ ids: [NSManagedObjectID], destination: String) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: destination)
        request.includesSubentities = true
        request.includesPendingChanges = false
        request.predicate = FilterPredicate.objects(in: ids)
        return request
    }
}

#endif
