/// One relationship of an entity.
public struct RelationshipSchema: Sendable, Hashable {
    public var name: String
    /// The declared destination entity (records reached through it may be of its sub-entities).
    public var destination: String
    public var isToMany: Bool
    public var isOrdered: Bool
    /// The inverse relationship's name on the destination, when the model declares one.
    public var inverse: String?

    public init(name: String, destination: String, isToMany: Bool, isOrdered: Bool = false, inverse: String? = nil) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.inverse = inverse
    }
}
