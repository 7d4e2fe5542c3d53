import BrowserCore
import BrowserFormats

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
            entity.className = element.attributes["representedClassName"]
            for child in element.children {
                switch child.name {
                case "attribute", "compositeAttribute":
                    if let attribute = attribute(child, composites: composites) { entity.attributes.append(attribute) }
                case "relationship":
                    if let relationship = relationship(child) { entity.relationships.append(relationship) }
                case "fetchIndex":
                    entity.fetchIndexes.append(ModelFetchIndex(
                        name: child.attributes["name"] ?? "",
                        elements: child.children(named: "fetchIndexElement").compactMap { element in
                            guard let property = element.attributes["property"] else { return nil }
                            return ModelFetchIndex.Element(property: property, type: element.attributes["type"] ?? "Binary",
                                                           ascending: element.attributes["order"] != "descending")
                        }))
                case "uniquenessConstraints":
                    for constraint in child.children(named: "uniquenessConstraint") {
                        entity.uniquenessConstraints.append(constraint.children(named: "constraint").compactMap { $0.attributes["value"] })
                    }
                default:
                    break // fetchedProperty, userInfo: no storage
                }
            }
            entity.attributes.sort { $0.name < $1.name }
            entity.relationships.sort { $0.name < $1.name }
            entities.append(entity)
        }
        var identifiers: [String] = []
        if let identifier = root.attributes["userDefinedModelVersionIdentifier"] { identifiers = [identifier] }
        var model = ModelDefinition(entities: entities, versionIdentifiers: identifiers)
        model.configurations = root.children(named: "configuration").compactMap { configuration in
            guard let name = configuration.attributes["name"] else { return nil }
            return ModelConfiguration(name: name, entities: configuration.children(named: "memberEntity").compactMap { $0.attributes["name"] })
        }
        return model.normalized()
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
        definition.defaultValue = element.attributes["defaultValueString"]
            ?? element.attributes["defaultDateTimeInterval"].flatMap(Double.init).map(ModelValueText.date)
        definition.minimum = element.attributes["minValueString"] ?? element.attributes["minDateTimeInterval"].flatMap(Double.init).map(ModelValueText.date)
        definition.maximum = element.attributes["maxValueString"] ?? element.attributes["maxDateTimeInterval"].flatMap(Double.init).map(ModelValueText.date)
        definition.renamingIdentifier = element.attributes["elementID"]
        if element.attributes["derived"] == "YES" { definition.derivation = element.attributes["derivationExpression"] }
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
        let isToMany = element.attributes["toMany"] == "YES"
        // The editor writes no minCount for 0, no maxCount for an unbounded to-many, and maxCount="1" on to-ones.
        let maxCount = element.attributes["maxCount"].flatMap(Int.init)
        return RelationshipDefinition(
            name: name, destination: destination, inverse: element.attributes["inverseName"],
            isToMany: isToMany,
            isOrdered: element.attributes["ordered"] == "YES",
            isOptional: element.attributes["optional"] == "YES",
            isTransient: element.attributes["transient"] == "YES",
            minCount: element.attributes["minCount"].flatMap(Int.init) ?? 0,
            maxCount: isToMany ? (maxCount == 0 ? nil : maxCount) : 1,
            deleteRule: element.attributes["deletionRule"].flatMap(ModelRelationship.DeleteRule.init(rawValue:)),
            renamingIdentifier: element.attributes["elementID"]
        )
    }
}
