#if canImport(CoreData)
import BrowserCore
import CoreData

/// Describes a managed object model in BrowserCore's neutral terms.
///
/// Transient properties are left out: they are not stored, so the store-file reader cannot see them either,
/// and both adapters must describe the same model.
enum ModelSchema {
    static func make(from model: NSManagedObjectModel) -> StoreSchema {
        StoreSchema(entities: model.entities.compactMap(entity))
    }

    private static func entity(_ description: NSEntityDescription) -> EntitySchema? {
        guard let name = description.name else { return nil }
        let attributes = description.attributesByName.values
            .filter { !$0.isTransient }
            .map { AttributeSchema(name: $0.name, type: attributeType($0.attributeType), isOptional: $0.isOptional,
                                 valueTransformerName: $0.valueTransformerName) }
            .sorted { $0.name < $1.name }
        let relationships = description.relationshipsByName.values
            .filter { !$0.isTransient }
            .map {
                RelationshipSchema(
                    name: $0.name, destination: $0.destinationEntity?.name ?? "", isToMany: $0.isToMany,
                    isOrdered: $0.isOrdered, inverse: $0.inverseRelationship?.name,
                    deleteRule: ModelRelationship.DeleteRule(code: Int($0.deleteRule.rawValue))
                )
            }
            .sorted { $0.name < $1.name }
        return EntitySchema(
            name: name, parent: description.superentity?.name, isAbstract: description.isAbstract,
            attributes: attributes, relationships: relationships
        )
    }

    /// The model editor's names for Core Data's attribute types (`NSAttributeType`).
    static func attributeType(_ type: NSAttributeType) -> AttributeType {
        switch type {
        case .integer16AttributeType: .integer16
        case .integer32AttributeType: .integer32
        case .integer64AttributeType: .integer64
        case .decimalAttributeType: .decimal
        case .doubleAttributeType: .double
        case .floatAttributeType: .float
        case .stringAttributeType: .string
        case .booleanAttributeType: .boolean
        case .dateAttributeType: .date
        case .binaryDataAttributeType: .binary
        case .UUIDAttributeType: .uuid
        case .URIAttributeType: .uri
        case .transformableAttributeType: .transformable
        case .objectIDAttributeType: .objectID
        // `undefinedAttributeType`, `compositeAttributeType` (iOS 17) and types newer than this code.
        default: .undefined
        }
    }
}

#endif
