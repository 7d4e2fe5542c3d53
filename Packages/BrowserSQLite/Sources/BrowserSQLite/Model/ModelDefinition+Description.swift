import BrowserCore

extension ModelDefinition {
    /// The model for `/api/model`. `hashes` are the model's own entity hashes when its source holds them (a
    /// `.momd`'s `VersionInfo.plist`); `unknown` names what the source cannot tell (nil fields, with the reason).
    func modelDescription(hashes: [String: [UInt8]]?, storeHashes: [String: [UInt8]], unknown: [String: String]) -> ModelDescription {
        let optionalUnknown = unknown["attribute.optional"] != nil
        let countsUnknown = unknown["relationship.minCount"] != nil
        func attribute(_ definition: AttributeDefinition) -> ModelAttribute {
            ModelAttribute(
                name: definition.name, type: definition.type == .composite ? "Composite" : definition.type.attributeType.rawValue,
                isOptional: optionalUnknown ? nil : definition.isOptional, isTransient: definition.isTransient,
                defaultValue: definition.defaultValue, minimum: definition.minimum, maximum: definition.maximum,
                allowsExternalStorage: unknown["attribute.allowsExternalStorage"] != nil ? nil : definition.allowsExternalStorage,
                valueTransformerName: definition.valueTransformerName,
                renamingIdentifier: ModelDescription.renaming(definition.renamingIdentifier, of: definition.name),
                derivation: definition.derivation, elements: definition.elements.map(attribute))
        }
        let entities = entities.map { entity in
            ModelEntity(
                name: entity.name, parent: entity.parent, isAbstract: entity.isAbstract, className: entity.className,
                renamingIdentifier: ModelDescription.renaming(entity.renamingIdentifier, of: entity.name),
                versionHash: hashes?[entity.name],
                attributes: entity.attributes.map(attribute),
                relationships: entity.relationships.map { relationship in
                    ModelRelationship(
                        name: relationship.name, destination: relationship.destination, inverse: relationship.inverse,
                        isToMany: relationship.isToMany, isOrdered: relationship.isOrdered,
                        isOptional: optionalUnknown ? nil : relationship.isOptional, isTransient: relationship.isTransient,
                        minCount: countsUnknown ? nil : relationship.minCount,
                        maxCount: countsUnknown ? nil : relationship.maxCount,
                        deleteRule: relationship.deleteRule,
                        renamingIdentifier: ModelDescription.renaming(relationship.renamingIdentifier, of: relationship.name))
                },
                fetchIndexes: unknown["entity.fetchIndexes"] != nil ? nil : entity.fetchIndexes,
                uniquenessConstraints: unknown["entity.uniquenessConstraints"] != nil ? nil : entity.uniquenessConstraints)
        }
        return ModelDescription(
            entities: entities,
            configurations: unknown["configurations"] != nil ? nil : configurations,
            versionIdentifiers: unknown["versionIdentifiers"] != nil ? nil : versionIdentifiers,
            storeVersionHashes: storeHashes.isEmpty ? nil : storeHashes,
            unknown: unknown)
    }


    /// What each source of a model cannot tell (`ModelDescription.unknown`).
    enum Knowledge {
        static let xmlHashes = "an .xcdatamodel's XML holds no version hashes (Core Data computes them when it compiles the model, by a recipe it does not publish); the store's are in storeVersionHashes"
        static let momHashes = "a .mom file alone holds no version hashes (a .momd's VersionInfo.plist does)"
        static let cacheHashes = "the model cached in the store does not hold its own hashes; the store's are in storeVersionHashes"

        static let inferred: [String: String] = {
            let reason = "no model: " + InferredModel.note + "; the tables do not record this"
            let fields = ["entity.className", "entity.versionHash", "entity.fetchIndexes", "entity.uniquenessConstraints",
                          "attribute.optional", "attribute.defaultValue", "attribute.minimum", "attribute.maximum",
                          "attribute.allowsExternalStorage", "relationship.minCount", "relationship.maxCount",
                          "relationship.deleteRule", "configurations", "versionIdentifiers"]
            var unknown = Dictionary(uniqueKeysWithValues: fields.map { ($0, reason) })
            unknown["attribute.type"] = "guessed from the columns' declared SQL types (INTEGER is Integer 64, VARCHAR String…)"
            unknown["attribute.name"] = "guessed from column names (ZSTATUSID is statusid)"
            return unknown
        }()
    }
}
