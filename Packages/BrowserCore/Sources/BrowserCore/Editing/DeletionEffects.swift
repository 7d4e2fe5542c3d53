/// What deleting a record does under the model's delete rules: what `GET /api/object/delete-preview` shows before
/// the person confirms ("also deletes 3 Pages, clears author on 12 Books"), and what `DELETE /api/object` did.
public struct DeletionEffects: Sendable, Hashable, Codable {
    /// The record itself.
    public var id: String
    /// Records deleted with it by Cascade rules (transitively), counted by entity, sorted by entity name.
    public var cascades: [EntityCount]
    /// Relationships of records that stay and lose a deleted record (Nullify rules), counted in records per
    /// destination entity and relationship (a tag that loses four deleted books counts once).
    public var clears: [RelationshipEffect]
    /// What blocks the delete: Deny rules whose relationship still holds records, and (store files) records whose
    /// required relationship the delete would leave empty. While this is not empty, the delete is refused (409).
    public var blockedBy: [RelationshipEffect]

    public init(id: String, cascades: [EntityCount] = [], clears: [RelationshipEffect] = [], blockedBy: [RelationshipEffect] = []) {
        self.id = id
        self.cascades = cascades.sorted { $0.entity < $1.entity }
        self.clears = clears.sorted { ($0.entity, $0.relationship) < ($1.entity, $1.relationship) }
        self.blockedBy = blockedBy.sorted { ($0.entity, $0.relationship) < ($1.entity, $1.relationship) }
    }
}

public struct EntityCount: Sendable, Hashable, Codable {
    public var entity: String
    public var count: Int

    public init(entity: String, count: Int) {
        self.entity = entity
        self.count = count
    }
}

/// A relationship of `entity`'s records and how many of them it concerns.
public struct RelationshipEffect: Sendable, Hashable, Codable {
    public var entity: String
    public var relationship: String
    public var count: Int

    public init(entity: String, relationship: String, count: Int) {
        self.entity = entity
        self.relationship = relationship
        self.count = count
    }
}
