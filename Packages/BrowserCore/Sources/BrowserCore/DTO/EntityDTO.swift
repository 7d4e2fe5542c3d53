/// One element of `GET /api/entities`.
public struct EntityDTO: Encodable, Sendable, Hashable {
    public var name: String
    public var parent: String?
    /// An abstract entity has no records of its own; its list holds its sub-entities' records.
    public var isAbstract: Bool
    public var count: Int
    /// The String attribute that names its records (`DisplayAttributeChoice`), null when none does.
    public var summaryAttribute: String?
    public var attributes: [AttributeDTO]
    public var relationships: [RelationshipDTO]

    public init(name: String, parent: String?, isAbstract: Bool = false, count: Int, summaryAttribute: String? = nil,
                attributes: [AttributeDTO], relationships: [RelationshipDTO]) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.count = count
        self.summaryAttribute = summaryAttribute
        self.attributes = attributes
        self.relationships = relationships
    }

    // `parent` and `summaryAttribute` are always present (null when none) so clients need not test for the key.
    private enum CodingKeys: String, CodingKey {
        case name, parent, isAbstract = "abstract", count, summaryAttribute, attributes, relationships
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(parent, forKey: .parent)
        try container.encode(isAbstract, forKey: .isAbstract)
        try container.encode(summaryAttribute, forKey: .summaryAttribute)
        try container.encode(count, forKey: .count)
        try container.encode(attributes, forKey: .attributes)
        try container.encode(relationships, forKey: .relationships)
    }
}

public struct AttributeDTO: Encodable, Sendable, Hashable {
    public var name: String
    public var type: String
    public var optional: Bool
    /// A Transformable attribute's value transformer as the model names it (`NSSecureUnarchiveFromData`, an app's
    /// own `CoverTransformer`); absent when it names none (Core Data then archives with NSKeyedUnarchiveFromData).
    public var transformer: String?

    public init(_ attribute: AttributeSchema) {
        name = attribute.name
        type = attribute.type.rawValue
        optional = attribute.isOptional
        transformer = attribute.type == .transformable ? attribute.valueTransformerName : nil
    }
}

public struct RelationshipDTO: Encodable, Sendable, Hashable {
    public var name: String
    public var destination: String
    public var toMany: Bool
    public var ordered: Bool

    public init(_ relationship: RelationshipSchema) {
        name = relationship.name
        destination = relationship.destination
        toMany = relationship.isToMany
        ordered = relationship.isOrdered
    }
}
