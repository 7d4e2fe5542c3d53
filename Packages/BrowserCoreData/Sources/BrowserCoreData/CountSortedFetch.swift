#if canImport(CoreData)
import BrowserCore
import CoreData

/// A page sorted by to-many relationships' counts (`sort=books.@count:desc`) in the live adapter, built only from
/// documented fetch features.
///
/// Core Data documents no sort descriptor over `@count` for a fetch, and a key path a store cannot run raises an
/// Objective-C exception that Swift cannot catch (it would end the app being inspected). What it does document is a
/// grouped dictionary fetch: `propertiesToFetch` takes "attributes, to-one relationships, or expressions"
/// (developer.apple.com/documentation/coredata/nsfetchrequest/propertiestofetch), and `propertiesToGroupBy` groups
/// the rows, with `resultType` `dictionaryResultType`, so that "Aggregates will operate on the groups specified in
/// propertiesToGroupBy" (developer.apple.com/documentation/coredata/nsfetchrequest/propertiestogroupby). So the
/// count of Author.books is one fetch of Book grouped by its to-one inverse `author`, with a `count:` expression
/// (NSExpressionDescription): one row per author that has books, holding the author's object ID and its count;
/// an author without books has no row and counts 0. A store that is not SQLite (in-memory, binary, XML) gets no
/// grouped fetch (Apple documents grouping for SQL): its records are counted one by one (`countsInMemory`).
///
/// The page is then put together here: the matching records' IDs, fetched in the order of the query's attribute
/// keys and the `objectID` tie-break (`FetchRequests.recordIDs`), stably re-sorted by the counts. That gives the
/// order every other store gives (counts, then the other keys, then the primary key) only when every count key
/// comes before every attribute key, so other orders are refused (`check`). The page's objects are fetched by ID.
///
/// Bounded: the IDs and counts of every matching record are held in the app's memory for the request, so more than
/// `maximumRecords` matching records are refused (a store-file copy sorts by counts in SQL, in any size).
@usableFromInline enum CountSortedFetch {
    /// The most matching records a count-sorted page is put together from: their object IDs and one count per
    /// key each, a few MB in the app being inspected at 50,000, and a second or so of fetching on a phone.
    @usableFromInline static let maximumRecords = 50_000

    /// The name of the count in each grouped row.
    private static let countName = "count"

    /// The to-many relationship a count key names on `entity` and its to-one inverse, which the count fetch groups
    /// by; a 400 for a relationship the adapter cannot count with a documented fetch.
    static func countedRelationship(_ key: SortKey, of entity: NSEntityDescription) throws
        -> (relationship: NSRelationshipDescription, inverse: NSRelationshipDescription, destination: NSEntityDescription) {
        let name = entity.name ?? "the entity"
        guard let relationship = entity.relationshipsByName[key.attribute], !relationship.isTransient,
              relationship.isToMany, let destination = relationship.destinationEntity else {
            throw BrowserError.badRequest("Cannot sort \(name) by \(key.keyPath): \(name) has no stored to-many relationship \"\(key.attribute)\"")
        }
        guard let inverse = relationship.inverseRelationship else {
            throw BrowserError.badRequest("Cannot sort \(name) by \(key.keyPath) in the running app: \(key.attribute) has no inverse "
                + "relationship, and Core Data's documented way to count per record groups the related records by their "
                + "to-one inverse. Browse a copy of the store file, which sorts by counts.")
        }
        guard !inverse.isToMany, let grouped = destination.relationshipsByName[inverse.name] else {
            throw BrowserError.badRequest("Cannot sort \(name) by \(key.keyPath) in the running app: \(key.attribute) is many-to-many "
                + "(its inverse \(inverse.name) is to-many), and a fetch can group only by attributes and to-one relationships "
                + "(NSFetchRequest.propertiesToGroupBy). Browse a copy of the store file, which sorts by counts.")
        }
        return (relationship, grouped, destination)
    }

    /// Refuses a query whose attribute key comes before a count key: the counts are applied after the store sorted
    /// by the attribute keys, so they can only lead.
    static func checkKeyOrder(_ query: RecordQuery) throws {
        guard let firstAttribute = query.sortKeys.firstIndex(where: { !$0.countsRelationship }),
              let late = query.sortKeys[firstAttribute...].first(where: \.countsRelationship) else { return }
        throw BrowserError.badRequest("Cannot sort \(query.entity) by \(query.sortKeys[firstAttribute].keyPath) before "
            + "\(late.keyPath) in the running app: the live adapter sorts by relationship counts first (it counts in a fetch of "
            + "its own and orders the IDs the store sorted by attributes). Put the count keys first, or browse a copy of the "
            + "store file, which sorts by any order of keys.")
    }

    /// The IDs of every record the query selects (among `targets`, with a relationship scope), in its order: counts
    /// first, then the attribute keys and the tie-break as the store sorted them.
    static func orderedIDs(_ query: RecordQuery, restrictedTo targets: [NSManagedObjectID]?, maximumRecords: Int,
                           in context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let coordinator = context.persistentStoreCoordinator
        guard let entity = coordinator?.managedObjectModel.entitiesByName[query.entity] else {
            throw BrowserError.notFound("No entity named \"\(query.entity)\"")
        }
        let request = try FetchRequests.recordIDs(query, restrictedTo: targets, coordinator: coordinator)
        let total = try context.count(for: request)
        guard total <= maximumRecords else {
            throw BrowserError.badRequest("Cannot sort \(query.entity) by \(query.sortKeys.map(\.keyPath).joined(separator: ", ")) "
                + "in the running app: \(total) records match, and the live adapter sorts by a relationship's count only up to "
                + "\(maximumRecords) (it holds every matching record's ID and count in the app's memory). Narrow the list with a "
                + "filter, or browse a copy of the store file, which sorts by counts in any size.")
        }
        let ids = try context.fetch(request)
        guard !ids.isEmpty else { return [] }
        let countKeys = query.sortKeys.filter(\.countsRelationship)
        let counts = FetchRequests.sortsInSQL(coordinator)
            ? try groupedCounts(countKeys, of: entity, ids: ids, restricted: query.matchFilter != nil || targets != nil, in: context)
            : try countsInMemory(countKeys, entity: query.entity, ids: ids, in: context)
        // Stable: records with equal counts keep the store's order (the attribute keys, then the tie-break).
        let keyed = ids.enumerated().map { index, id in (id: id, index: index, counts: counts.map { $0[id] ?? 0 }) }
        return keyed.sorted { left, right in
            for (position, key) in countKeys.enumerated() where left.counts[position] != right.counts[position] {
                return key.order == .ascending ? left.counts[position] < right.counts[position]
                    : left.counts[position] > right.counts[position]
            }
            return left.index < right.index
        }.map(\.id)
    }

    /// Each count key's count per record, from one grouped fetch per key (SQLite stores). The fetch counts for
    /// every source when the list is the whole entity; otherwise only for the listed records, so the rows it returns
    /// never outnumber the records counted before.
    private static func groupedCounts(_ keys: [SortKey], of entity: NSEntityDescription, ids: [NSManagedObjectID], restricted: Bool,
                                      in context: NSManagedObjectContext) throws -> [[NSManagedObjectID: Int]] {
        try keys.map { key in
            let counted = try countedRelationship(key, of: entity)
            let wholeEntity = !restricted && counted.inverse.destinationEntity?.name == entity.name
            var byID: [NSManagedObjectID: Int] = [:]
            for row in try context.fetch(countRequest(counted, among: wholeEntity ? nil : ids)) {
                // A to-one in a dictionary row is the related object's ID; the group of unrelated records has none.
                guard let source = row[counted.inverse.name] as? NSManagedObjectID else { continue }
                byID[source] = (row[countName] as? NSNumber)?.intValue ?? 0
            }
            return byID
        }
    }

    /// Each count key's count per record, read from the records themselves: the in-memory, binary and XML stores.
    /// Apple documents `propertiesToGroupBy` for "a select statement … in an SQL database", so those stores are not
    /// handed a grouped fetch; they hold their whole object graph in memory already, and the records are at most
    /// `maximumRecords`. `objectIDs(forRelationshipNamed:)` reads the IDs without faulting in the related objects.
    private static func countsInMemory(_ keys: [SortKey], entity: String, ids: [NSManagedObjectID],
                                       in context: NSManagedObjectContext) throws -> [[NSManagedObjectID: Int]] {
        let objects = ids.isEmpty ? [] : try context.fetch(FetchRequests.objects(ids, destination: entity))
        return keys.map { key in
            Dictionary(objects.map { ($0.objectID, $0.objectIDs(forRelationshipNamed: key.attribute).count) },
                       uniquingKeysWith: { first, _ in first })
        }
    }

    /// The grouped fetch counting one relationship per source record: on the relationship's destination, grouped by
    /// the to-one inverse, fetching the inverse (each source's object ID) and `count:` of it. With `sources`, only
    /// the rows of those sources.
    static func countRequest(_ counted: (relationship: NSRelationshipDescription, inverse: NSRelationshipDescription,
                                         destination: NSEntityDescription),
                             among sources: [NSManagedObjectID]?) -> NSFetchRequest<NSDictionary> {
        let request = NSFetchRequest<NSDictionary>()
        // The entity itself, not its name: propertiesToFetch must be set after the request's entity
        // (developer.apple.com/documentation/coredata/nsfetchrequest/propertiestofetch, "Special Considerations").
        request.entity = counted.destination
        request.resultType = .dictionaryResultType
        request.includesSubentities = true
        request.includesPendingChanges = false
        let count = NSExpressionDescription()
        count.name = countName
        count.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: counted.inverse.name)])
        count.expressionResultType = .integer64AttributeType
        request.propertiesToFetch = [counted.inverse, count]
        request.propertiesToGroupBy = [counted.inverse]
        if let sources {
            request.predicate = NSComparisonPredicate(
                leftExpression: NSExpression(forKeyPath: counted.inverse.name),
                rightExpression: NSExpression(forConstantValue: sources), modifier: .direct, type: .in, options: [])
        }
        return request
    }

    /// What `orderedIDs` and the page fetch run, in words (`explain`).
    static func describe(_ query: RecordQuery, restrictedTo targets: [NSManagedObjectID]?, maximumRecords: Int,
                         in context: NSManagedObjectContext) throws -> [String] {
        let coordinator = context.persistentStoreCoordinator
        guard let entity = coordinator?.managedObjectModel.entitiesByName[query.entity] else {
            throw BrowserError.notFound("No entity named \"\(query.entity)\"")
        }
        let request = try FetchRequests.recordIDs(query, restrictedTo: targets, coordinator: coordinator)
        let sort = (request.sortDescriptors ?? []).map { "NSSortDescriptor(key: \"\($0.key ?? "")\", ascending: \($0.ascending))" }
        var steps = ["IDs: NSFetchRequest<NSManagedObjectID>(entityName: \"\(query.entity)\"), resultType = "
            + ".managedObjectIDResultType, includesSubentities = true, includesPendingChanges = false, predicate = "
            + (request.predicate.map { String($0.predicateFormat.prefix(2_000)) } ?? "nil")
            + ", sortDescriptors = [" + sort.joined(separator: ", ") + "]; counted first with context.count(for:), refused "
            + "above \(maximumRecords) records."]
        for key in query.sortKeys where key.countsRelationship {
            let counted = try countedRelationship(key, of: entity)
            guard FetchRequests.sortsInSQL(coordinator) else {
                steps.append("Counts of \(key.attribute): the listed objects fetched by object ID, each counted with "
                    + "objectIDs(forRelationshipNamed:) (a store that is not SQLite gets no grouped fetch).")
                continue
            }
            steps.append("Counts of \(key.attribute): NSFetchRequest<NSDictionary> on \(counted.destination.name ?? ""), "
                + "resultType = .dictionaryResultType, propertiesToFetch = [\(counted.inverse.name), NSExpressionDescription "
                + "\"\(countName)\" = count:(\(counted.inverse.name)) as .integer64AttributeType], propertiesToGroupBy = "
                + "[\(counted.inverse.name)], includesSubentities = true; a record without a row counts 0.")
        }
        let order = query.sortKeys.filter(\.countsRelationship)
            .map { "\($0.keyPath) \($0.order == .ascending ? "ascending" : "descending")" }.joined(separator: ", ")
        steps.append("Order: the IDs stably sorted by \(order) (Core Data has no documented sort descriptor over @count), so "
            + "equal counts keep the fetch's order.")
        steps.append("Page: the IDs at offset \(query.offset), limit \(query.limit), fetched by object ID in that order.")
        return steps
    }
}

#endif
