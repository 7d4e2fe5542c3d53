/// One entity of the model.
///
/// `attributes` and `relationships` hold every property the entity has, inherited ones included (Core Data's
/// `attributesByName` does the same), so code that answers a request never walks the inheritance chain.
public struct EntitySchema: Sendable, Hashable {
    public var name: String
    /// The super-entity's name, `nil` for a root entity.
    public var parent: String?
    public var isAbstract: Bool
    public var attributes: [AttributeSchema]
    public var relationships: [RelationshipSchema]

    public init(
        name: String,
        parent: String? = nil,
        isAbstract: Bool = false,
        attributes: [AttributeSchema] = [],
        relationships: [RelationshipSchema] = []
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
    }

    public func attribute(named name: String) -> AttributeSchema? {
        attributes.first { $0.name == name }
    }

    public func relationship(named name: String) -> RelationshipSchema? {
        relationships.first { $0.name == name }
    }

    /// The String attributes, sorted by name: what "search all text" searches.
    public var searchableAttributes: [AttributeSchema] {
        attributes.filter { $0.type.isSearchable }.sorted { $0.name < $1.name }
    }
}
