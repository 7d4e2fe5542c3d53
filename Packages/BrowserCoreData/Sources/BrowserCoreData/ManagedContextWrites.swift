#if canImport(CoreData)
public import BrowserCore
import CoreData

/// Writes through the API on a live context, with the in-memory store's semantics
/// (`InMemoryStore+Writes`), Core Data doing the work: each write is one `perform` on the writing context that
/// checks the record's version (`ObjectVersion`), sets the changes (`ManagedChanges`) or deletes, and `save()`s
/// with `transactionAuthor` "CoreDataBrowser", so the app's persistent history says who made the change. On any
/// failure the context is rolled back: nothing is half-written.
///
/// The writing context is the reading one (`ContextReading`):
/// - `.privateQueue`: the browser's own private-queue context on the app's coordinator; a save reaches the store
///   directly, and what it wrote is then merged into the context the app handed over, and its parents, each on its
///   own queue (`SavedObjectIDs`), before the write answers: the app sees the edit, and its next save does not fail
///   on the rows the browser changed (the app's default `NSErrorMergePolicy` would otherwise refuse it).
///   The browser's context keeps Core Data's default merge policy, `NSErrorMergePolicy`, so a row changed between
///   the version check and the save fails the save (409) instead of being overwritten.
/// - `.givenContext`: the app's own context. Saving it saves everything it holds, so a write is refused (409) while
///   it has unsaved changes of the app's: the browser never saves the app's half-done edits, and rolling back a
///   failed write discards only the browser's. A child context is refused (its save would only reach its parent).
///   The app's merge policy applies to the save, and the app's undo manager, if it has one, records the edit.
extension ManagedContextStore {
    /// The `transactionAuthor` of every save the browser makes: the author of its transactions in the app's history.
    public static let transactionAuthor = "CoreDataBrowser"

    public func insert(into entity: String, _ changes: RecordChanges) async throws -> ObjectID {
        try await write { context in
            guard let description = context.persistentStoreCoordinator?.managedObjectModel.entitiesByName[entity],
                  !description.isAbstract else {
                // Inserting into an abstract entity is an exception in Core Data; validation refuses it before.
                throw BrowserError.notFound("No concrete entity \"\(entity)\"")
            }
            let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
            try ManagedChanges.apply(changes, to: object, in: context)
            try Self.save(context, writing: object, purpose: .insert)
            // Permanent after the save.
            return try ManagedRecords.objectID(object.objectID)
        }
    }

    public func update(_ id: ObjectID, expecting version: Int64, _ changes: RecordChanges) async throws {
        let ownsContext = reading == .privateQueue
        try await write { context in
            let object = try Self.current(id, expecting: version, in: context)
            try ManagedChanges.apply(changes, to: object, in: context)
            do {
                try Self.save(context, writing: object, purpose: .update)
            } catch let error as BrowserError where error.kind == .conflict {
                context.rollback()
                throw Self.withCurrentVersion(error, of: id, expected: version, in: context, ownsContext: ownsContext)
            }
        }
    }

    public func deletionEffects(of id: ObjectID) async throws -> DeletionEffects {
        try await read { context in
            guard let object = try Self.object(id, in: context) else { throw BrowserError.notFound("No record \(id.uri)") }
            return try LiveDeletion.effects(of: object, id: id, in: context)
        }
    }

    public func delete(_ id: ObjectID, expecting version: Int64) async throws -> DeletionEffects {
        let ownsContext = reading == .privateQueue
        return try await write { context in
            let object = try Self.current(id, expecting: version, in: context)
            let effects = try LiveDeletion.effects(of: object, id: id, in: context)
            guard effects.blockedBy.isEmpty else {
                throw BrowserError.conflict(
                    "\(id.uri) cannot be deleted: a Deny rule keeps it while "
                        + effects.blockedBy.map { "\($0.entity).\($0.relationship) holds \($0.count)" }.joined(separator: ", "),
                    .blockedBy(effects.blockedBy))
            }
            // Core Data applies the delete rules itself (Cascade, Nullify) when it processes the delete.
            context.delete(object)
            do {
                try Self.save(context, writing: nil, purpose: .delete)
            } catch let error as BrowserError where error.kind == .conflict && error.details == nil {
                context.rollback()
                throw Self.withCurrentVersion(error, of: id, expected: version, in: context, ownsContext: ownsContext)
            }
            return effects
        }
    }

    // MARK: Steps

    /// Runs a write on the writing context's queue: refused when the store cannot be written (`writeRefusal`: a
    /// store mirrored to CloudKit among others) or while the app's own context holds unsaved changes, with the
    /// browser's transaction author for its save, rolled back on any failure (the author is put back after); then
    /// merges what the browser's own context saved into the app's context (`SavedObjectIDs`).
    func write<T: Sendable>(_ body: @escaping @Sendable (NSManagedObjectContext) throws -> T) async throws -> T {
        let ownsContext = reading == .privateQueue
        let reading = self.reading
        let allowsICloud = allowsEditsThatSyncToICloud
        let saved = SavedObjectIDs()
        let attempt: @Sendable (NSManagedObjectContext) throws -> T = { context in
            // Asked again here: the app may have added a mirrored or read-only store since `describe()`.
            if let refusal = Self.writeRefusal(in: context, reading: reading, allowsEditsThatSyncToICloud: allowsICloud) {
                throw BrowserError.forbidden("This store cannot be written: " + refusal)
            }
            // The browser's own context: what its save wrote is handed to the app's context below.
            let observation = ownsContext ? saved.observe(context) : nil
            defer { if let observation { NotificationCenter.default.removeObserver(observation) } }
            if !ownsContext, context.hasChanges {
                throw BrowserError.conflict(
                    "The app's context has unsaved changes, and saving the browser's write would save them too: nothing "
                        + "was written. Save or discard them in the app, or serve the context with reading: .privateQueue, "
                        + "which writes through a context of the browser's own")
            }
            let author = context.transactionAuthor
            context.transactionAuthor = Self.transactionAuthor
            // Apple's example resets the author after saving; the app's own author is put back.
            defer { context.transactionAuthor = author }
            do {
                return try body(context)
            } catch {
                context.rollback()
                throw error
            }
        }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await read(attempt))
        } catch {
            outcome = .failure(error)
        }
        // Whatever the write answers, a save that happened reaches the app's context.
        if let changes = saved.changes { await SavedObjectIDs.merge(changes, into: appContext) }
        return try outcome.get()
    }

    static let childContextRefusal = "The app's context is a child context (it has a parent), so its save would only "
        + "reach the parent, not the store: serve it with reading: .privateQueue to write"

    /// The saved record, if its version is still `expected`.
    private static func current(_ id: ObjectID, expecting expected: Int64, in context: NSManagedObjectContext) throws -> NSManagedObject {
        guard let object = try object(id, in: context) else {
            throw BrowserError.notFound("No record \(id.uri): it may have been deleted since it was read")
        }
        let current = ObjectVersion.of(object)
        guard current == expected else {
            throw BrowserError.conflict(
                "\(id.uri) changed since it was read (version \(expected), now \(current)): nothing was written",
                .versions(expected: expected, current: current))
        }
        return object
    }

    private static func save(_ context: NSManagedObjectContext, writing object: NSManagedObject?, purpose: SaveFailure.Purpose) throws {
        do {
            try context.save()
        } catch {
            throw SaveFailure.error(error, writing: object, purpose: purpose)
        }
    }

    /// A conflict Core Data found while saving, with the record's version as the store now has it (or `.deleted`),
    /// read after the rollback: the client can show what changed.
    private static func withCurrentVersion(_ error: BrowserError, of id: ObjectID, expected: Int64,
                                           in context: NSManagedObjectContext, ownsContext: Bool) -> BrowserError {
        // The browser's own context forgets everything; the app's only has this object's snapshot dropped (it had no
        // unsaved changes, or the write was refused), so the next read of it is current.
        if ownsContext { context.reset() }
        guard let object = try? object(id, in: context) else { return .conflict(error.message, .deleted) }
        if !ownsContext { context.refresh(object, mergeChanges: false) }
        let current = ObjectVersion.of(object)
        return current == expected ? error : .conflict(error.message, .versions(expected: expected, current: current))
    }
}

#endif
