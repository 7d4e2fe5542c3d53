/// Restricts a query to the records that one record reaches through one of its relationships: the records pane
/// of "Author p3 ▸ books", paged, sorted and searched like any list.
///
/// Built only by `RelationshipScope.validated`, so a store can trust that the source entity has the relationship
/// and that the query's entity is its destination or one of the destination's sub-entities.
public struct RelationshipScope: Sendable, Hashable {
    public var source: ObjectID
    public var relationship: String
    /// Whether the relationship keeps an order: a scoped query without `sort` then lists the records in that
    /// order (not by primary key), as the app sees them.
    public var isOrdered: Bool

    public init(source: ObjectID, relationship: String, isOrdered: Bool) {
        self.source = source
        self.relationship = relationship
        self.isOrdered = isOrdered
    }

    /// Checks `id` and `relationship` against the model: `entity` must be the relationship's destination or
    /// below it.
    public static func validated(source rawID: String, relationship name: String?, listing entity: String,
                                 in schema: StoreSchema) throws(BrowserError) -> RelationshipScope {
        let id = try ObjectID(uri: rawID)
        guard let sourceEntity = schema.entity(named: id.entity) else {
            throw .notFound("No record \(rawID): the model has no entity \"\(id.entity)\"")
        }
        guard let name, !name.isEmpty else {
            throw .badRequest("Missing rel: name the relationship of \(sourceEntity.name) to follow")
        }
        guard let relationship = sourceEntity.relationship(named: name) else {
            throw .notFound("\(sourceEntity.name) has no relationship \"\(name)\"")
        }
        guard schema.subtree(of: relationship.destination).contains(entity) else {
            throw .badRequest("\(sourceEntity.name).\(name) leads to \(relationship.destination), not \(entity)")
        }
        return RelationshipScope(source: id, relationship: name, isOrdered: relationship.isOrdered)
    }
}
