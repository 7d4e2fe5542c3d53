/// `GET /api/pending`.
public struct PendingChangesDTO: Encodable, Sendable, Hashable {
    /// False when the store has no unsaved state to show (a store file, or a live store reading private
    /// contexts); `reason` says why.
    public var available: Bool
    public var reason: String?
    public var contextName: String?
    public var inserted: [PendingObjectDTO]
    public var updated: [PendingObjectDTO]
    public var deleted: [PendingObjectDTO]
    public var notes: [String]
}

public struct PendingObjectDTO: Encodable, Sendable, Hashable {
    public var id: String
    public var entity: String
    public var temporary: Bool
    public var changes: [PendingValue]

    init(_ object: PendingObject) {
        id = object.uri
        entity = object.entity
        temporary = object.isTemporary
        changes = object.changes
    }
}
