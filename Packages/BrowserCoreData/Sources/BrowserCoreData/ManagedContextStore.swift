#if canImport(CoreData)
public import BrowserCore
public import CoreData
import Dispatch

/// A live `NSManagedObjectContext` as a `BrowserStore`: the running app's own data, read, and written when the host
/// turns writes on (`ManagedContextWrites`).
///
/// ```swift
/// let store = ManagedContextStore(context: container.viewContext)          // reads on a private queue
/// let books = try await store.page(RecordQuery(entity: "Book", limit: 20))
/// ```
///
/// Every touch of a context happens inside `await context.perform { }` (iOS 15, macOS 12): no thread blocks
/// waiting for it, and no managed object leaves the block; only BrowserCore's Sendable values do. Each request
/// is one `perform`, so a page's count and rows come from the same moment.
///
/// By default requests run on a private-queue context of the browser's own, on the given context's persistent
/// store coordinator, so the app's main queue never does the browser's work (see `ContextReading`).
public final class ManagedContextStore: BrowserStore, @unchecked Sendable {
    // @unchecked: the contexts are only used inside their own `perform`; the mutable caches are guarded by `lock`.

    public let reading: ContextReading
    private let givenContext: NSManagedObjectContext
    private let lock = NSLock()
    private var readerTask: Task<UncheckedSendable<NSManagedObjectContext>, any Error>?
    private var cachedSchema: StoreSchema?
    /// Made on the first `changeToken()`, once the coordinator is known (`SaveCounter`).
    private var saves: SaveCounter?
    /// Whether writes may go to a store NSPersistentCloudKitContainer mirrors (`CloudKitMirroring`).
    let allowsEditsThatSyncToICloud: Bool
    /// The most matching records a page sorted by a relationship's count is put together from (`CountSortedFetch`).
    let maximumCountSortedRecords: Int
    /// The app's context, which a save of the browser's own context is merged into (`ManagedContextWrites`).
    var appContext: NSManagedObjectContext { givenContext }

    /// - Parameters:
    ///   - context: any context of the app (a `viewContext`, a background context, a child context).
    ///   - reading: `.privateQueue` (default) reads saved data off the app's queues; `.givenContext` reads
    ///     through `context` itself so unsaved edits show, on its queue.
    ///   - allowsEditsThatSyncToICloud: writes to a store mirrored to CloudKit are refused unless this is true
    ///     (an edit there would sync to the user's iCloud and their other devices).
    ///   - maximumCountSortedRecords: a list sorted by a relationship's count (`books.@count`) is refused with a 400
    ///     when more records than this match: the adapter holds each one's ID and count in the app's memory to sort.
    public init(context: NSManagedObjectContext, reading: ContextReading = .privateQueue,
                allowsEditsThatSyncToICloud: Bool = false,
                maximumCountSortedRecords: Int = CountSortedFetch.maximumRecords) {
        self.givenContext = context
        self.maximumCountSortedRecords = maximumCountSortedRecords
        self.reading = reading
        self.allowsEditsThatSyncToICloud = allowsEditsThatSyncToICloud
    }

    // MARK: BrowserStore

    public func describe() async throws -> StoreDescription {
        let reading = self.reading
        let stores = try await read { context in
            (context.persistentStoreCoordinator?.persistentStores ?? []).map { (url: $0.url, type: $0.type) }
        }
        let places = stores.map { $0.url?.path ?? $0.type }
        // An in-memory store's URL is /dev/null: no file to be known by.
        let files = stores.compactMap(\.url).filter { $0.path != "/dev/null" }
        let identifier = try await read { context in
            context.persistentStoreCoordinator?.persistentStores.first?.identifier
        }
        let allowsICloud = allowsEditsThatSyncToICloud
        let refusal = try await read { context in
            Self.writeRefusal(in: context, reading: reading, allowsEditsThatSyncToICloud: allowsICloud)
        }
        let how = reading == .privateQueue ? "private-queue reader" : "the app's context"
        let summary = "Live Core Data context (\(how))" + (places.isEmpty ? "" : ": " + places.joined(separator: ", "))
        // Writes happen only when the host also turned them on (`Options.readOnly = false`).
        return StoreDescription(summary: summary, model: ModelOrigin(source: .live),
                                capabilities: refusal == nil ? [.read, .write] : .readOnly,
                                storeIdentifier: identifier, writeRefusal: refusal, files: files)
    }

    /// Why the context cannot be written, or nil when it can (asked again by every write, `ManagedContextWrites`).
    static func writeRefusal(in context: NSManagedObjectContext, reading: ContextReading,
                             allowsEditsThatSyncToICloud: Bool) -> String? {
        let stores = context.persistentStoreCoordinator?.persistentStores ?? []
        if stores.isEmpty { return "the context's coordinator has no persistent store" }
        if stores.allSatisfy(\.isReadOnly) { return "the app added its persistent store read-only" }
        if reading == .givenContext, context.parent != nil { return childContextRefusal }
        if !allowsEditsThatSyncToICloud, let mirrored = CloudKitMirroring.refusal(stores) { return mirrored }
        return nil
    }

    public func schema() async throws -> StoreSchema {
        if let cached = locked({ cachedSchema }) { return cached }
        // A model in use is immutable, so its description can be kept.
        let schema = try await read { context -> StoreSchema in
            guard let model = context.persistentStoreCoordinator?.managedObjectModel else {
                throw BrowserError.storeFailure("The context has no persistent store coordinator")
            }
            return ModelSchema.make(from: model)
        }
        locked { cachedSchema = schema }
        return schema
    }

    public func model() async throws -> ModelDescription {
        try await read { context -> ModelDescription in
            guard let model = context.persistentStoreCoordinator?.managedObjectModel else {
                throw BrowserError.storeFailure("The context has no persistent store coordinator")
            }
            return LiveModelDescription.make(from: model)
        }
    }

    /// Moves with every save that reaches the served coordinator's stores (`SaveCounter`), not with other Core Data
    /// stacks of the process: what `/api/events` polls while a browser listens.
    public func changeToken() async throws -> ChangeToken? {
        ChangeToken("saves-\(try await saveCounter().saves)")
    }

    /// The counter of the served coordinator's saves, made on first use: the coordinator is read on the reading
    /// context's queue (the app may give its context a coordinator after handing it over).
    private func saveCounter() async throws -> SaveCounter {
        if let counter = locked({ saves }) { return counter }
        let coordinator = try await read { context in
            guard let coordinator = context.persistentStoreCoordinator else {
                throw BrowserError.storeFailure("The context has no persistent store coordinator")
            }
            return UncheckedSendable(coordinator)
        }
        return locked {
            if let saves { return saves }
            let made = SaveCounter(coordinator: coordinator.value)
            saves = made
            return made
        }
    }

    public func count(of entity: String) async throws -> Int {
        try await read { context in try context.count(for: FetchRequests.count(of: entity)) }
    }

    public func page(_ query: RecordQuery) async throws -> RecordPage {
        let maximumCountSorted = maximumCountSortedRecords
        return try await read { context in
            try ExpressibleQuery.check(query, in: context)
            var targets: [NSManagedObjectID]?
            if let scope = query.scope {
                guard let reached = try Self.targets(of: scope, in: context) else { return RecordPage(total: 0, records: []) }
                if query.sortKeys.isEmpty, scope.isOrdered {
                    return try Self.orderedPage(query, targets: reached, in: context)
                }
                targets = reached
            }
            if query.sortKeys.contains(where: \.countsRelationship) {
                let ids = try CountSortedFetch.orderedIDs(query, restrictedTo: targets, maximumRecords: maximumCountSorted, in: context)
                let shown = Array(ids.dropFirst(query.offset).prefix(query.limit))
                return RecordPage(total: ids.count, records: try Self.records(shown, destination: query.entity, in: context))
            }
            let request = try FetchRequests.records(query, coordinator: context.persistentStoreCoordinator)
            request.predicate = try FetchRequests.predicate(query, restrictedTo: targets, coordinator: context.persistentStoreCoordinator)
            let total = try context.count(for: request)
            // One fetch for the page: the store applies LIMIT and OFFSET, never the whole table in memory.
            request.fetchLimit = query.limit
            request.fetchOffset = query.offset
            let objects = try context.fetch(request)
            return RecordPage(total: total, records: try objects.map(ManagedRecords.listRow))
        }
    }

    /// The `NSFetchRequest` the page runs, described (entity, predicate, sort descriptors, offset, limit,
    /// `includesSubentities`), with the page's time: what a developer would write to fetch the same records.
    public func explain(_ query: RecordQuery) async throws -> QueryExplanationDTO {
        let started = DispatchTime.now().uptimeNanoseconds
        let page = try await self.page(query)
        let milliseconds = RequestBudget.milliseconds(since: started)
        let maximumCountSorted = maximumCountSortedRecords
        let steps = try await read { context in
            try Self.fetchDescription(query, maximumCountSortedRecords: maximumCountSorted, in: context)
        }
        return QueryExplanationDTO(engine: "Core Data (the app's NSManagedObjectContext)", steps: steps,
                                   total: page.total, milliseconds: milliseconds)
    }

    /// The request `page` runs for `query`, in words, built by the same code.
    static func fetchDescription(_ query: RecordQuery, maximumCountSortedRecords: Int,
                                 in context: NSManagedObjectContext) throws -> [String] {
        try ExpressibleQuery.check(query, in: context)
        var steps: [String] = []
        var targets: [NSManagedObjectID]?
        if let scope = query.scope {
            guard let reached = try Self.targets(of: scope, in: context) else {
                return ["The record \(scope.source.uri) is not in the store: the list is empty."]
            }
            if query.sortKeys.isEmpty, scope.isOrdered {
                return ["Page: the \(reached.count) records of the ordered relationship \(scope.relationship), in its order, "
                    + "fetched by object ID for offset \(query.offset) and limit \(query.limit) (a fetch request cannot sort by "
                    + "an ordered relationship's order)."]
            }
            targets = reached
            steps.append("Scope: the \(reached.count) records \(scope.source.shortForm) reaches through \(scope.relationship), "
                + "as SELF IN their object IDs.")
        }
        if query.sortKeys.contains(where: \.countsRelationship) {
            return steps + (try CountSortedFetch.describe(query, restrictedTo: targets, maximumRecords: maximumCountSortedRecords,
                                                          in: context))
        }
        let request = try FetchRequests.records(query, coordinator: context.persistentStoreCoordinator)
        request.predicate = try FetchRequests.predicate(query, restrictedTo: targets, coordinator: context.persistentStoreCoordinator)
        let predicate = request.predicate.map(\.predicateFormat) ?? "nil"
        steps.append("NSFetchRequest<NSManagedObject>(entityName: \"\(query.entity)\"), includesSubentities = "
            + "\(request.includesSubentities), includesPendingChanges = false")
        steps.append("predicate = " + (predicate.count > 2_000 ? String(predicate.prefix(2_000)) + "…" : predicate))
        let sort = (request.sortDescriptors ?? []).map { "NSSortDescriptor(key: \"\($0.key ?? "")\", ascending: \($0.ascending))" }
        steps.append("sortDescriptors = [" + sort.joined(separator: ", ") + "]")
        steps.append("fetchOffset = \(query.offset), fetchLimit = \(query.limit); the total is context.count(for:) of the "
            + "same request without them.")
        return steps
    }

    /// The record's offset in the query's order. Core Data cannot count "the rows before this one" for an
    /// arbitrary sort, so this fetches the IDs (not the objects) the query selects, in order, and finds the
    /// record among them: 16 bytes of memory a row, once per "show in list", acceptable for a debugging tool.
    public func position(of id: ObjectID, in query: RecordQuery) async throws -> Int? {
        let subtree = try await schema().subtree(of: query.entity)
        guard subtree.contains(id.entity) else { return nil }
        let maximumCountSorted = maximumCountSortedRecords
        return try await read { context in
            try ExpressibleQuery.check(query, in: context)
            guard let wanted = try Self.object(id, in: context)?.objectID else { return nil }
            var targets: [NSManagedObjectID]?
            if let scope = query.scope {
                guard let reached = try Self.targets(of: scope, in: context) else { return nil }
                if query.sortKeys.isEmpty, scope.isOrdered {
                    return try Self.ordered(query, targets: reached, in: context).firstIndex(of: wanted)
                }
                targets = reached
            }
            if query.sortKeys.contains(where: \.countsRelationship) {
                // The same ordered IDs the page is cut from.
                return try CountSortedFetch.orderedIDs(query, restrictedTo: targets, maximumRecords: maximumCountSorted, in: context)
                    .firstIndex(of: wanted)
            }
            return try context.fetch(FetchRequests.recordIDs(query, restrictedTo: targets, coordinator: context.persistentStoreCoordinator)).firstIndex(of: wanted)
        }
    }

    public func record(_ id: ObjectID) async throws -> StoredRecord? {
        guard try await schema().entity(named: id.entity) != nil else { return nil }
        return try await read { context in
            guard let object = try Self.object(id, in: context) else { return nil }
            var record = try ManagedRecords.record(object)
            // What a write must name (only this single-record read computes it: it reads every relationship's IDs).
            record.version = ObjectVersion.of(object)
            return record
        }
    }

    public func blob(of id: ObjectID, attribute: String) async throws -> BlobLookup {
        guard try await schema().entity(named: id.entity) != nil else { return .noRecord }
        let found: Data?? = try await read { context in
            guard let object = try Self.object(id, in: context) else { return nil }
            guard let description = object.entity.attributesByName[attribute] else {
                throw BrowserError.notFound("\(id.entity) has no attribute \"\(attribute)\"")
            }
            return .some(try ManagedRecords.bytes(
                object.value(forKey: attribute), of: description, recordName: "\(id.entity) \(id.shortForm)"))
        }
        guard let found else { return .noRecord }
        guard let data = found else { return .noValue }
        return .value(InMemoryBlob(data))
    }

    public func related(from id: ObjectID, through name: String, limit: Int) async throws -> RelatedRecords {
        guard try await schema().entity(named: id.entity) != nil else {
            throw BrowserError.notFound("No record \(id.uri)")
        }
        return try await read { context in
            let scope = RelationshipScope(source: id, relationship: name, isOrdered: false)
            guard let ids = try Self.targets(of: scope, in: context, sortedByKey: true) else {
                throw BrowserError.notFound("No record \(id.uri)")
            }
            let shown = Array(ids.prefix(max(limit, 0)))
            guard !shown.isEmpty, let source = try Self.object(id, in: context),
                  let destination = source.entity.relationshipsByName[name]?.destinationEntity?.name else {
                return RelatedRecords(total: ids.count, records: [])
            }
            return RelatedRecords(total: ids.count, records: try Self.records(shown, destination: destination, in: context))
        }
    }

    // MARK: History and unsaved edits

    /// Core Data's persistent history of the store, read through the reading context when the app turned
    /// tracking on (`ContextHistory`); otherwise why there is none.
    public func history(_ query: HistoryQuery) async throws -> StoreHistory {
        try await read { context in try ContextHistory.read(query, in: context) }
    }

    /// The given context's unsaved inserts, updates and deletes (`PendingEdits`). The private reader has none to
    /// show: it is a context of the browser's own and sees what is saved.
    public func pendingChanges() async throws -> StorePendingChanges {
        guard reading == .givenContext else { return .unavailable(PendingEdits.privateReader) }
        return .changes(try await read { context in PendingEdits.read(in: context) })
    }

    // MARK: Relationships

    /// The IDs the scope's source reaches through its relationship, in the relationship's order when it is
    /// ordered (else by primary key when `sortedByKey`), without faulting in any target; nil when the source
    /// is not in the store. Unsaved (temporary) IDs are left out.
    private static func targets(of scope: RelationshipScope, in context: NSManagedObjectContext,
                                sortedByKey: Bool = false) throws -> [NSManagedObjectID]? {
        guard let source = try object(scope.source, in: context) else { return nil }
        guard let relationship = source.entity.relationshipsByName[scope.relationship] else {
            throw BrowserError.notFound("\(scope.source.entity) has no relationship \"\(scope.relationship)\"")
        }
        var ids: [NSManagedObjectID]
        if relationship.isToMany {
            // The IDs come from the relationship's foreign keys or join table: no destination object is faulted
            // in, however many there are.
            ids = source.objectIDs(forRelationshipNamed: scope.relationship)
            if !relationship.isOrdered, sortedByKey {
                // An unordered relationship has no order; list it by primary key, as the SQLite reader does.
                ids.sort { ManagedRecords.primaryKey($0) < ManagedRecords.primaryKey($1) }
            }
        } else {
            // A to-one's target is a fault; its objectID does not fire it.
            ids = (source.value(forKey: scope.relationship) as? NSManagedObject).map { [$0.objectID] } ?? []
        }
        ids.removeAll { $0.isTemporaryID }
        return ids
    }

    /// An ordered relationship's targets that the query's filter keeps, in the relationship's order (reversed
    /// for `desc`): the store sorts by attributes, not by a relationship's order, so the order is applied here.
    private static func ordered(_ query: RecordQuery, targets: [NSManagedObjectID],
                                in context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        var kept = targets
        if query.matchFilter != nil {
            let matching = Set(try context.fetch(FetchRequests.recordIDs(query, restrictedTo: targets, coordinator: context.persistentStoreCoordinator)))
            kept.removeAll { !matching.contains($0) }
        }
        return query.tieBreak == .descending ? kept.reversed() : kept
    }

    private static func orderedPage(_ query: RecordQuery, targets: [NSManagedObjectID],
                                    in context: NSManagedObjectContext) throws -> RecordPage {
        let kept = try ordered(query, targets: targets, in: context)
        let shown = Array(kept.dropFirst(query.offset).prefix(query.limit))
        return RecordPage(total: kept.count, records: try records(shown, destination: query.entity, in: context))
    }

    /// The records with these IDs in one fetch, in the order of `ids`.
    static func records(_ ids: [NSManagedObjectID], destination: String,
                                in context: NSManagedObjectContext) throws -> [StoredRecord] {
        guard !ids.isEmpty else { return [] }
        let objects = try context.fetch(FetchRequests.objects(ids, destination: destination))
        let byID = Dictionary(objects.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        return try ids.compactMap { byID[$0] }.map(ManagedRecords.listRow)
    }

    // MARK: Contexts

    /// The saved object with this ID, only if it is of exactly `id.entity`; nil when the ID names another
    /// store or no such row.
    static func object(_ id: ObjectID, in context: NSManagedObjectContext) throws -> NSManagedObject? {
        guard let uri = URL(string: id.uri),
              let coordinator = context.persistentStoreCoordinator,
              let objectID = coordinator.managedObjectID(forURIRepresentation: uri)
        else { return nil }
        return try context.fetch(FetchRequests.record(objectID, entity: id.entity)).first
    }

    /// Runs `body` on the reading context's queue. `T: Sendable` is what keeps managed objects inside.
    ///
    /// A request whose client left (its task is cancelled) or whose `RequestBudget` ran out while it waited for the
    /// context's queue (a `viewContext`'s is the app's main queue) is not started: it ends with `CancellationError`
    /// or a 503. A fetch Core Data has started cannot be stopped; BrowserSQLite's can.
    func read<T: Sendable>(_ body: @escaping @Sendable (NSManagedObjectContext) throws -> T) async throws -> T {
        let context = try await readingContext()
        let ownsContext = reading == .privateQueue
        let deadline = RequestBudget.deadline
        let left = RequestLeft()
        try Self.checkStillWanted(left, deadline: deadline)
        return try await withTaskCancellationHandler {
            try await context.value.perform {
                try Self.checkStillWanted(left, deadline: deadline)
                // The browser's own context forgets what it fetched, so the next request reads current rows and
                // memory does not grow with what was browsed. The app's context is never reset.
                defer { if ownsContext { context.value.reset() } }
                return try body(context.value)
            }
        } onCancel: {
            left.mark()
        }
    }

    private static func checkStillWanted(_ left: RequestLeft, deadline: UInt64?) throws {
        if left.hasLeft || Task.isCancelled { throw CancellationError() }
        if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline {
            throw BrowserError.unavailable(
                "The request waited for the app's Core Data context past its time budget "
                    + "(CoreDataBrowserServer.Options.requestTimeBudget) and was not started; retry when the app is less busy")
        }
    }

    /// The context requests read through. The private reader is made once and shared by concurrent requests
    /// (one task); a failed attempt is not kept, so the next request tries again (the app may have given the
    /// context its coordinator or store since).
    private func readingContext() async throws -> UncheckedSendable<NSManagedObjectContext> {
        if reading == .givenContext { return UncheckedSendable(givenContext) }
        let given = UncheckedSendable(givenContext)
        let task = locked { () -> Task<UncheckedSendable<NSManagedObjectContext>, any Error> in
            if let readerTask { return readerTask }
            let made = Task { try await Self.makeReader(beside: given) }
            readerTask = made
            return made
        }
        do {
            return try await task.value
        } catch {
            // Only this attempt is forgotten: a newer one another request started is left alone.
            locked { if readerTask == task { readerTask = nil } }
            throw error
        }
    }

    /// `NSLock.withLock` needs iOS 16; this package supports iOS 15.
    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A private-queue context on the given context's coordinator. The coordinator is read on the given
    /// context's queue, and the new context is configured on its own.
    private static func makeReader(beside given: UncheckedSendable<NSManagedObjectContext>) async throws
        -> UncheckedSendable<NSManagedObjectContext> {
        let coordinator = await given.value.perform { UncheckedSendable(given.value.persistentStoreCoordinator) }
        guard coordinator.value != nil else {
            throw BrowserError.storeFailure("The context has no persistent store coordinator")
        }
        let reader = UncheckedSendable(NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType))
        await reader.value.perform {
            reader.value.persistentStoreCoordinator = coordinator.value
            reader.value.name = "CoreDataBrowser reader"
        }
        return reader
    }
}

/// Set when a request's task is cancelled (its client left), read on the context's queue.
private final class RequestLeft: @unchecked Sendable {
    // @unchecked: `left` is only touched under `lock`.
    private let lock = NSLock()
    private var left = false

    func mark() {
        lock.lock()
        left = true
        lock.unlock()
    }

    var hasLeft: Bool {
        lock.lock()
        defer { lock.unlock() }
        return left
    }
}

#endif
