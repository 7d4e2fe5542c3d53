extension ModelDescription {
    /// The fields a `StoreSchema` does not carry: what a model described only by its schema cannot know.
    public static let fieldsASchemaLacks = [
        "entity.className", "entity.versionHash", "entity.fetchIndexes", "entity.uniquenessConstraints",
        "attribute.defaultValue", "attribute.minimum", "attribute.maximum", "attribute.allowsExternalStorage",
        "relationship.minCount", "relationship.maxCount", "relationship.deleteRule", "configurations",
        "versionIdentifiers",
    ]

    /// The model as far as a `StoreSchema` tells it: entities, inheritance, types, optionality, inverses. Each
    /// entity keeps the properties its parent does not have (a schema lists inherited ones too). Every field a
    /// schema lacks is nil and named in `unknown` with `reason`.
    public init(schema: StoreSchema, reason: String) {
        let entities = schema.entities.map { entity -> ModelEntity in
            let parent = entity.parent.flatMap(schema.entity(named:))
            let inheritedAttributes = Set(parent?.attributes.map(\.name) ?? [])
            let inheritedRelationships = Set(parent?.relationships.map(\.name) ?? [])
            return ModelEntity(
                name: entity.name, parent: entity.parent, isAbstract: entity.isAbstract,
                attributes: entity.attributes.filter { !inheritedAttributes.contains($0.name) }.map {
                    ModelAttribute(name: $0.name, type: $0.type.rawValue, isOptional: $0.isOptional,
                                   allowsExternalStorage: nil, valueTransformerName: $0.valueTransformerName)
                },
                relationships: entity.relationships.filter { !inheritedRelationships.contains($0.name) }.map {
                    ModelRelationship(name: $0.name, destination: $0.destination, inverse: $0.inverse,
                                      isToMany: $0.isToMany, isOrdered: $0.isOrdered)
                },
                fetchIndexes: nil, uniquenessConstraints: nil)
        }
        self.init(entities: entities, configurations: nil, versionIdentifiers: nil, storeVersionHashes: nil,
                  unknown: Dictionary(uniqueKeysWithValues: Self.fieldsASchemaLacks.map { ($0, reason) }))
    }
}
