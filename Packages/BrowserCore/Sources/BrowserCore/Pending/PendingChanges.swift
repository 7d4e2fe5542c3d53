/// Unsaved edits of a live context (`GET /api/pending`): objects inserted, updated and deleted in the context the
/// app handed over, not yet saved. Only the live Core Data adapter has them; a store file has no unsaved state.
public struct PendingChanges: Sendable, Hashable {
    public var inserted: [PendingObject]
    public var updated: [PendingObject]
    public var deleted: [PendingObject]
    /// The name of the context read (`NSManagedObjectContext.name`), when it has one.
    public var contextName: String?
    /// What the client should know about the lists (for example that one was cut at the adapter's limit).
    public var notes: [String]

    public init(inserted: [PendingObject] = [], updated: [PendingObject] = [], deleted: [PendingObject] = [],
                contextName: String? = nil, notes: [String] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.contextName = contextName
        self.notes = notes
    }
}

/// One object with unsaved changes.
public struct PendingObject: Sendable, Hashable {
    /// The object ID's URI. An inserted object has a temporary ID (`x-coredata:///Entity/t…`) until it is saved:
    /// it names no stored record.
    public var uri: String
    public var entity: String
    public var isTemporary: Bool
    /// For updates: each changed attribute with its saved value and the pending one (`changedValues()` against
    /// `committedValues(forKeys:)`); for inserts: the values set; for deletes: empty.
    public var changes: [PendingValue]

    public init(uri: String, entity: String, isTemporary: Bool, changes: [PendingValue]) {
        self.uri = uri
        self.entity = entity
        self.isTemporary = isTemporary
        self.changes = changes
    }
}

/// One attribute or relationship of a pending object: what is saved and what will be.
public struct PendingValue: Sendable, Hashable, Encodable {
    public var name: String
    /// Nil for an inserted object (nothing saved yet).
    public var saved: AttributeValue?
    public var pending: AttributeValue

    public init(name: String, saved: AttributeValue?, pending: AttributeValue) {
        self.name = name
        self.saved = saved
        self.pending = pending
    }
}

/// What a store answers for `pendingChanges()`.
public enum StorePendingChanges: Sendable, Hashable {
    case changes(PendingChanges)
    case unavailable(String)
}
