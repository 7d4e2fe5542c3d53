/// Reads the `contents` XML of an Xcode 4+ `.xcdatamodel` (format doc §14).
enum XMLModelReader {
    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> ModelDefinition {
        let root = try MarkupParser.parse(bytes)
        guard root.name == "model" else {
            throw PropertyListError("not a Core Data model (root element <\(root.name)>, expected <model>)")
        }
        // Composite types are declared once at model level and referenced by name (MomXML's vocabulary; not
        // confirmed by an Xcode-written file, see format doc §14).
        var composites: [String: [AttributeDefinition]] = [:]
        for composite in root.children(named: "composite") {
            guard let name = composite.attributes["name"] else { continue }
            composites[name] = composite.children(named: "attribute").compactMap { attribute($0, composites: [:]) }
        }
        var entities: [EntityDefinition] = []
        for element in root.children(named: "entity") {
            guard let name = element.attributes["name"] else {
                throw PropertyListError("model has an <entity> without a name")
            }
            var entity = EntityDefinition(name: name)
            entity.parent = element.attributes["parentEntity"]
            entity.isAbstract = element.attributes["isAbstract"] == "YES"
            entity.renamingIdentifier = element.attributes["elementID"]
            for child in element.children {
                switch child.name {
                case "attribute", "compositeAttribute":
                    if let attribute = attribute(child, composites: composites) { entity.attributes.append(attribute) }
                case "relationship":
                    if let relationship = relationship(child) { entity.relationships.append(relationship) }
                default:
                    break // fetchedProperty, fetchIndex, uniquenessConstraints, userInfo: no storage
                }
            }
            entity.attributes.sort { $0.name < $1.name }
            entity.relationships.sort { $0.name < $1.name }
            entities.append(entity)
        }
        var identifiers: [String] = []
        if let identifier = root.attributes["userDefinedModelVersionIdentifier"] { identifiers = [identifier] }
        return ModelDefinition(entities: entities, versionIdentifiers: identifiers).normalized()
    }

    private static func attribute(_ element: MarkupElement, composites: [String: [AttributeDefinition]]) -> AttributeDefinition? {
        guard let name = element.attributes["name"] else { return nil }
        let typeName = element.attributes["attributeType"] ?? (element.name == "compositeAttribute" ? "Composite" : "Undefined")
        var definition = AttributeDefinition(
            name: name, type: AttributeKind(xmlName: typeName) ?? .undefined,
            isOptional: element.attributes["optional"] == "YES",
            isTransient: element.attributes["transient"] == "YES",
            allowsExternalStorage: element.attributes["allowsExternalBinaryDataStorage"] == "YES",
            valueTransformerName: element.attributes["valueTransformerName"]
        )
        if definition.type == .composite {
            if let compositeName = element.attributes["composite"], let elements = composites[compositeName] {
                definition.elements = elements
            } else {
                definition.elements = element.children(named: "attribute").compactMap { attribute($0, composites: composites) }
            }
        }
        return definition
    }

    private static func relationship(_ element: MarkupElement) -> RelationshipDefinition? {
        guard let name = element.attributes["name"], let destination = element.attributes["destinationEntity"] else {
            return nil
        }
        return RelationshipDefinition(
            name: name, destination: destination, inverse: element.attributes["inverseName"],
            isToMany: element.attributes["toMany"] == "YES",
            isOrdered: element.attributes["ordered"] == "YES",
            isOptional: element.attributes["optional"] == "YES",
            isTransient: element.attributes["transient"] == "YES"
        )
    }
}
