#if canImport(CoreData)
import BrowserCore
import CoreData

/// Describes the app's `NSManagedObjectModel` for `/api/model`: everything `NSEntityDescription` and its properties
/// say, each entity with the properties it declares itself.
///
/// Minimum and maximum values are left unknown: a model keeps them only as validation predicates
/// (`validationPredicates`), whose shape the compiled-model reader interprets from the archive but which would here
/// mean reading `NSComparisonPredicate`s of any form; `unknown` says so.
enum LiveModelDescription {
    static let boundsReason = "a live model keeps minimum and maximum only as validation predicates, which are not read"

    static func make(from model: NSManagedObjectModel) -> ModelDescription {
        let configurations = model.configurations.filter { $0 != "PF_DEFAULT_CONFIGURATION_NAME" }.sorted().map { name in
            ModelConfiguration(name: name, entities: (model.entities(forConfigurationName: name) ?? []).compactMap(\.name))
        }
        return ModelDescription(
            entities: model.entities.compactMap(entity),
            configurations: configurations,
            versionIdentifiers: model.versionIdentifiers.compactMap { $0.base as? String }.sorted(),
            storeVersionHashes: nil,
            unknown: ["attribute.minimum": boundsReason, "attribute.maximum": boundsReason])
    }

    private static func entity(_ description: NSEntityDescription) -> ModelEntity? {
        guard let name = description.name else { return nil }
        var attributes: [ModelAttribute] = []
        var relationships: [ModelRelationship] = []
        // Only what the entity declares (its parent's properties are the parent's), whether or not `properties`
        // lists inherited ones: Apple's documentation does not say.
        let inherited = Set(description.superentity?.propertiesByName.keys.map { $0 } ?? [])
        for property in description.properties where !inherited.contains(property.name) {
            if let attribute = property as? NSAttributeDescription {
                attributes.append(ModelAttribute(
                    name: attribute.name, type: ModelSchema.attributeType(attribute.attributeType).rawValue,
                    isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                    defaultValue: attribute.defaultValue.map { text($0, type: attribute.attributeType) },
                    allowsExternalStorage: attribute.allowsExternalBinaryDataStorage,
                    valueTransformerName: attribute.valueTransformerName,
                    renamingIdentifier: ModelDescription.renaming(attribute.renamingIdentifier, of: attribute.name),
                    derivation: (attribute as? NSDerivedAttributeDescription)?.derivationExpression.map { "\($0)" }))
            } else if let relationship = property as? NSRelationshipDescription {
                relationships.append(ModelRelationship(
                    name: relationship.name, destination: relationship.destinationEntity?.name ?? "",
                    inverse: relationship.inverseRelationship?.name, isToMany: relationship.isToMany,
                    isOrdered: relationship.isOrdered, isOptional: relationship.isOptional,
                    isTransient: relationship.isTransient, minCount: relationship.minCount,
                    // Core Data's 0 is "no limit" for a to-many.
                    maxCount: relationship.maxCount <= 0 ? nil : relationship.maxCount,
                    deleteRule: ModelRelationship.DeleteRule(code: Int(relationship.deleteRule.rawValue)),
                    renamingIdentifier: ModelDescription.renaming(relationship.renamingIdentifier, of: relationship.name)))
            }
        }
        return ModelEntity(
            name: name, parent: description.superentity?.name, isAbstract: description.isAbstract,
            className: description.managedObjectClassName,
            renamingIdentifier: ModelDescription.renaming(description.renamingIdentifier, of: name),
            versionHash: Array(description.versionHash),
            attributes: attributes.sorted { $0.name < $1.name },
            relationships: relationships.sorted { $0.name < $1.name },
            fetchIndexes: description.indexes.map { index in
                ModelFetchIndex(name: index.name, elements: index.elements.map { element in
                    ModelFetchIndex.Element(property: element.propertyName ?? "",
                                            type: element.collationType == .rTree ? "R-Tree" : "Binary",
                                            ascending: element.isAscending)
                })
            },
            // Each member is a property name or an NSPropertyDescription.
            uniquenessConstraints: description.uniquenessConstraints.map { constraint in
                constraint.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name }
            })
    }


    /// The default value as the model editor writes it (see `ModelAttribute.defaultValue`).
    private static func text(_ value: Any, type: NSAttributeType) -> String {
        if type == .booleanAttributeType, let flag = value as? Bool { return flag ? "YES" : "NO" }
        if let date = value as? Date { return ISO8601Timestamp.string(from: date) }
        if let decimal = value as? Decimal { return decimal.description }
        if let text = value as? String { return text }
        if let number = value as? Int64 { return String(number) }
        if let number = value as? Double { return String(number) }
        if let uuid = value as? UUID { return uuid.uuidString }
        return "<\(Swift.type(of: value))>"
    }
}

#endif
