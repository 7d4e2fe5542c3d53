/// One relationship of an entity.
public struct RelationshipSchema: Sendable, Hashable {
    public var name: String
    /// The declared destination entity (records reached through it may be of its sub-entities).
    public var destination: String
    public var isToMany: Bool
    public var isOrdered: Bool
    /// The inverse relationship's name on the destination, when the model declares one.
    public var inverse: String?
    /// What deleting a record does to the records this relationship holds; nil when the store's model does not say
    /// (a model inferred from tables). A store deletes only records whose every rule it knows.
    public var deleteRule: ModelRelationship.DeleteRule?

    public init(name: String, destination: String, isToMany: Bool, isOrdered: Bool = false, inverse: String? = nil,
                deleteRule: ModelRelationship.DeleteRule? = nil) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.inverse = inverse
        self.deleteRule = deleteRule
    }
}
