import Foundation

/// `GET /api/model`: the whole model with each entity's record count. Every documented key is always present;
/// `null` means "none", or "not known" for the fields `unknown` names (with the reason).
public struct ModelDTO: Encodable, Sendable {
    public var source: ModelOrigin?
    public var versionIdentifiers: [String]?
    public var configurations: [ModelConfiguration]?
    /// Entity name → base64 of the hash the store's metadata records.
    public var storeVersionHashes: [String: String]?
    public var unknown: [String: String]
    public var entities: [ModelEntityDTO]

    public init(_ model: ModelDescription, source: ModelOrigin?, counts: [String: Int]) {
        self.source = source
        versionIdentifiers = model.versionIdentifiers
        configurations = model.configurations?.sorted { $0.name < $1.name }
        storeVersionHashes = model.storeVersionHashes?.mapValues { Data($0).base64EncodedString() }
        unknown = model.unknown
        var children: [String: [String]] = [:]
        for entity in model.entities {
            if let parent = entity.parent { children[parent, default: []].append(entity.name) }
        }
        entities = model.entities.sorted { $0.name < $1.name }.map { entity in
            ModelEntityDTO(entity, subentities: (children[entity.name] ?? []).sorted(), count: counts[entity.name],
                           storeHash: model.storeVersionHashes?[entity.name])
        }
    }

    private enum CodingKeys: String, CodingKey {
        case source, versionIdentifiers, configurations, storeVersionHashes, unknown, entities
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(versionIdentifiers, forKey: .versionIdentifiers)
        try container.encode(configurations, forKey: .configurations)
        try container.encode(storeVersionHashes, forKey: .storeVersionHashes)
        try container.encode(unknown, forKey: .unknown)
        try container.encode(entities, forKey: .entities)
    }
}

public struct ModelEntityDTO: Encodable, Sendable {
    public var name: String
    public var parent: String?
    public var subentities: [String]
    public var isAbstract: Bool
    public var className: String?
    public var renamingIdentifier: String?
    /// Records of the entity and its sub-entities.
    public var count: Int?
    public var versionHash: String?
    /// Whether the model's hash equals the store's; nil when either is unknown.
    public var matchesStore: Bool?
    public var attributes: [ModelAttributeDTO]
    public var relationships: [ModelRelationshipDTO]
    public var fetchIndexes: [ModelFetchIndex]?
    public var uniquenessConstraints: [[String]]?

    init(_ entity: ModelEntity, subentities: [String], count: Int?, storeHash: [UInt8]?) {
        name = entity.name
        parent = entity.parent
        self.subentities = subentities
        isAbstract = entity.isAbstract
        className = entity.className
        renamingIdentifier = entity.renamingIdentifier
        self.count = count
        versionHash = entity.versionHash.map { Data($0).base64EncodedString() }
        if let own = entity.versionHash, let storeHash { matchesStore = own == storeHash }
        fetchIndexes = entity.fetchIndexes
        uniquenessConstraints = entity.uniquenessConstraints
        let indexes = entity.fetchIndexes
        let constraints = entity.uniquenessConstraints
        attributes = entity.attributes.sorted { $0.name < $1.name }.map { attribute in
            ModelAttributeDTO(
                attribute,
                fetchIndexes: indexes.map { $0.filter { $0.elements.first?.property == attribute.name }.map(\.name) },
                unique: constraints.map { $0.contains([attribute.name]) })
        }
        relationships = entity.relationships.sorted { $0.name < $1.name }.map(ModelRelationshipDTO.init)
    }

    private enum CodingKeys: String, CodingKey {
        case name, parent, subentities, isAbstract = "abstract", className, renamingIdentifier, count, versionHash,
             matchesStore, attributes, relationships, fetchIndexes, uniquenessConstraints
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(parent, forKey: .parent)
        try container.encode(subentities, forKey: .subentities)
        try container.encode(isAbstract, forKey: .isAbstract)
        try container.encode(className, forKey: .className)
        try container.encode(renamingIdentifier, forKey: .renamingIdentifier)
        try container.encode(count, forKey: .count)
        try container.encode(versionHash, forKey: .versionHash)
        try container.encode(matchesStore, forKey: .matchesStore)
        try container.encode(attributes, forKey: .attributes)
        try container.encode(relationships, forKey: .relationships)
        try container.encode(fetchIndexes, forKey: .fetchIndexes)
        try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
    }
}

public struct ModelAttributeDTO: Encodable, Sendable {
    public var attribute: ModelAttribute
    /// The entity's fetch indexes that start with this attribute (so serve a sort or a match on it); nil when the
    /// fetch indexes are unknown.
    public var fetchIndexes: [String]?
    /// Whether a uniqueness constraint consists of this attribute alone; nil when the constraints are unknown.
    public var unique: Bool?

    init(_ attribute: ModelAttribute, fetchIndexes: [String]?, unique: Bool?) {
        self.attribute = attribute
        self.fetchIndexes = fetchIndexes
        self.unique = unique
    }

    private enum CodingKeys: String, CodingKey {
        case name, type, optional, transient, defaultValue, minimum, maximum, externalStorage, transformer,
             renamingIdentifier, derivation, elements, fetchIndexes, unique
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attribute.name, forKey: .name)
        try container.encode(attribute.type, forKey: .type)
        try container.encode(attribute.isOptional, forKey: .optional)
        try container.encode(attribute.isTransient, forKey: .transient)
        try container.encode(attribute.defaultValue, forKey: .defaultValue)
        try container.encode(attribute.minimum, forKey: .minimum)
        try container.encode(attribute.maximum, forKey: .maximum)
        try container.encode(attribute.allowsExternalStorage, forKey: .externalStorage)
        try container.encode(attribute.valueTransformerName, forKey: .transformer)
        try container.encode(attribute.renamingIdentifier, forKey: .renamingIdentifier)
        try container.encode(attribute.derivation, forKey: .derivation)
        if !attribute.elements.isEmpty {
            try container.encode(attribute.elements.map { ModelAttributeDTO($0, fetchIndexes: nil, unique: nil) }, forKey: .elements)
        }
        try container.encode(fetchIndexes, forKey: .fetchIndexes)
        try container.encode(unique, forKey: .unique)
    }
}

public struct ModelRelationshipDTO: Encodable, Sendable {
    public var relationship: ModelRelationship

    init(_ relationship: ModelRelationship) {
        self.relationship = relationship
    }

    private enum CodingKeys: String, CodingKey {
        case name, destination, inverse, toMany, ordered, optional, transient, minCount, maxCount, deleteRule,
             renamingIdentifier
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let relationship = relationship
        try container.encode(relationship.name, forKey: .name)
        try container.encode(relationship.destination, forKey: .destination)
        try container.encode(relationship.inverse, forKey: .inverse)
        try container.encode(relationship.isToMany, forKey: .toMany)
        try container.encode(relationship.isOrdered, forKey: .ordered)
        try container.encode(relationship.isOptional, forKey: .optional)
        try container.encode(relationship.isTransient, forKey: .transient)
        try container.encode(relationship.minCount, forKey: .minCount)
        try container.encode(relationship.maxCount, forKey: .maxCount)
        try container.encode(relationship.deleteRule, forKey: .deleteRule)
        try container.encode(relationship.renamingIdentifier, forKey: .renamingIdentifier)
    }
}
