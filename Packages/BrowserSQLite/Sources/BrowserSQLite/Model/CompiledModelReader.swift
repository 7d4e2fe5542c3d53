import BrowserCore
import BrowserFormats

/// Reads a compiled model: the `NSManagedObjectModel` keyed archive of a `.mom` file or of an inflated
/// `Z_MODELCACHE` (format doc §4 lists the keys).
enum CompiledModelReader {
    static func read(_ plist: PropertyListValue) throws(PropertyListError) -> ModelDefinition {
        let archive = try KeyedArchive(plist)
        guard let root = archive.root, archive.className(of: root) == "NSManagedObjectModel" else {
            throw PropertyListError("the archive's root is not an NSManagedObjectModel")
        }
        let entitiesValue = archive.value(root, "NSEntities")
        var entityObjects: [PropertyListValue]
        if let values = archive.value(entitiesValue, "values") {
            // NSKnownKeysDictionary1 (model caches): the entities are its `values` array.
            entityObjects = archive.members(of: values)
        } else {
            // NSMutableDictionary (compiled .mom): name → entity.
            entityObjects = archive.entries(of: entitiesValue).map(\.value)
        }
        // Archives do not promise an order; the store's entity numbers are what matter, not this order.
        entityObjects = entityObjects.filter { archive.string($0, "NSEntityName") != nil }

        var entities: [EntityDefinition] = []
        for object in entityObjects {
            guard let name = archive.string(object, "NSEntityName") else { continue }
            var entity = EntityDefinition(name: name)
            entity.parent = archive.string(archive.value(object, "NSSuperentity"), "NSEntityName")
            entity.isAbstract = archive.boolean(object, "NSIsAbstract") ?? false
            entity.renamingIdentifier = archive.string(object, "NSRenamingIdentifier")
            entity.className = archive.string(object, "NSClassNameForEntity")
            entity.fetchIndexes = fetchIndexes(of: object, in: archive)
            entity.uniquenessConstraints = archive.members(of: archive.value(object, "NSUniqueTuples")).map { tuple in
                archive.members(of: tuple).compactMap { $0.string ?? archive.string($0, "NSPropertyName") }
            }
            for (propertyName, property) in archive.entries(of: archive.value(object, "NSProperties"))
                .sorted(by: { $0.key < $1.key }) {
                if let attribute = attribute(property, named: propertyName, in: archive) {
                    entity.attributes.append(attribute)
                } else if let relationship = relationship(property, named: propertyName, in: archive) {
                    entity.relationships.append(relationship)
                }
                // Fetched properties (NSFetchedPropertyDescription) have no storage and are not listed.
            }
            entities.append(entity)
        }
        let identifiers = archive.members(of: archive.value(root, "NSVersionIdentifiers")).compactMap(\.string)
        var model = ModelDefinition(entities: entities, versionIdentifiers: identifiers.sorted())
        model.configurations = archive.entries(of: archive.value(root, "NSConfigurations")).map { name, members in
            ModelConfiguration(name: name, entities: archive.members(of: members).compactMap { archive.string($0, "NSEntityName") })
        }
        return model.normalized()
    }

    /// `_P` property flags: 2 = optional, 8 = transient (format doc §4, checked against the XML).
    private static func flags(_ property: PropertyListValue, in archive: KeyedArchive) -> (optional: Bool, transient: Bool) {
        let bits = archive.integer(property, "_P")
        let optional = archive.boolean(property, "NSIsOptional") ?? bits.map { $0 & 2 != 0 } ?? true
        let transient = archive.boolean(property, "NSIsTransient") ?? bits.map { $0 & 8 != 0 } ?? false
        return (optional, transient)
    }

    private static func attribute(_ property: PropertyListValue, named name: String, in archive: KeyedArchive) -> AttributeDefinition? {
        guard let code = archive.integer(property, "NSAttributeType") else { return nil }
        let (optional, transient) = flags(property, in: archive)
        // NSFlagsKey bit 4: allowsExternalBinaryDataStorage; older archives have a key of its own.
        let external = (archive.integer(property, "NSFlagsKey") ?? 0) & 4 != 0
            || (archive.boolean(property, "NSAllowsExternalBinaryDataStorage") ?? false)
        var definition = AttributeDefinition(
            name: archive.string(property, "NSPropertyName") ?? name, type: AttributeKind(code: Int(code)),
            isOptional: optional, isTransient: transient, allowsExternalStorage: external,
            valueTransformerName: archive.string(property, "NSValueTransformerName")
        )
        definition.renamingIdentifier = archive.string(property, "NSRenamingIdentifier")
        if let value = archive.value(property, "NSDefaultValue") {
            definition.defaultValue = ModelValueText.archived(value, kind: definition.type, in: archive)
        }
        (definition.minimum, definition.maximum) = bounds(of: property, kind: definition.type, in: archive)
        if archive.className(of: property) == "NSDerivedAttributeDescription" {
            definition.derivation = archive.value(property, "NSDerivationExpression").flatMap { expressionText($0, in: archive) }
                ?? "(derived)"
        }
        if definition.type == .composite {
            definition.elements = archive.members(of: archive.value(property, "NSCompositeElements")).compactMap {
                guard let elementName = archive.string($0, "NSPropertyName") else { return nil }
                return attribute($0, named: elementName, in: archive)
            }
        }
        return definition
    }

    private static func relationship(_ property: PropertyListValue, named name: String, in archive: KeyedArchive) -> RelationshipDefinition? {
        let destinationObject = archive.value(property, "NSDestinationEntity")
        guard let destination = archive.string(destinationObject, "NSEntityName")
            ?? archive.string(property, "_NSDestinationEntityName")
        else { return nil }
        let (optional, transient) = flags(property, in: archive)
        let inverse = archive.string(archive.value(property, "NSInverseRelationship"), "NSPropertyName")
            ?? archive.string(property, "_NSInverseRelationshipName")
        // Core Data's isToMany is maxCount != 1 (0 or -1 unbounded, or a limit such as 10000).
        let maxCount = archive.integer(property, "NSMaxCount") ?? 1
        return RelationshipDefinition(
            name: archive.string(property, "NSPropertyName") ?? name, destination: destination, inverse: inverse,
            isToMany: maxCount != 1, isOrdered: archive.boolean(property, "NSIsOrdered") ?? false,
            isOptional: optional, isTransient: transient,
            minCount: Int(archive.integer(property, "NSMinCount") ?? 0),
            maxCount: maxCount <= 0 ? nil : Int(maxCount),
            deleteRule: archive.integer(property, "NSDeleteRule").flatMap { ModelRelationship.DeleteRule(code: Int($0)) },
            renamingIdentifier: archive.string(property, "NSRenamingIdentifier")
        )
    }

    /// `NSFetchIndexDescriptions`: name, then per element the property, its type (0 binary, 1 R-tree) and order.
    private static func fetchIndexes(of entity: PropertyListValue, in archive: KeyedArchive) -> [ModelFetchIndex] {
        archive.members(of: archive.value(entity, "NSFetchIndexDescriptions")).map { index in
            ModelFetchIndex(
                name: archive.string(index, "NSIndexName") ?? "",
                elements: archive.members(of: archive.value(index, "NSIndexElements")).compactMap { element in
                    guard let property = archive.string(element, "NSPropertyName")
                        ?? archive.string(archive.value(element, "NSProperty"), "NSPropertyName") else { return nil }
                    return ModelFetchIndex.Element(
                        property: property,
                        type: archive.integer(element, "NSFetchIndexElementType") == 1 ? "R-Tree" : "Binary",
                        ascending: archive.boolean(element, "NSAscending") ?? true)
                })
        }
    }

    /// The model editor's minimum and maximum become validation predicates in the compiled model: `SELF >= min`,
    /// `SELF <= max` (numbers, dates) or `length >= min` (strings, data), alone or in an AND. Other predicates are
    /// the app's own rules, not bounds.
    private static func bounds(of property: PropertyListValue, kind: AttributeKind, in archive: KeyedArchive) -> (String?, String?) {
        var minimum: String?
        var maximum: String?
        var pending = archive.members(of: archive.value(property, "NSValidationPredicates"))
        while let predicate = pending.popLast() {
            if archive.className(of: predicate) == "NSCompoundPredicate" {
                if archive.integer(predicate, "NSCompoundPredicateType") == 1 {
                    pending.append(contentsOf: archive.members(of: archive.value(predicate, "NSSubpredicates")))
                }
                continue
            }
            guard archive.className(of: predicate) == "NSComparisonPredicate",
                  let constant = archive.value(archive.value(predicate, "NSRightExpression"), "NSConstantValue"),
                  let text = ModelValueText.archived(constant, kind: kind == .date ? .date : nil, in: archive) else { continue }
            // NSPredicate.Operator: 1 lessThanOrEqualTo, 3 greaterThanOrEqualTo.
            switch archive.integer(archive.value(predicate, "NSPredicateOperator"), "NSOperatorType") {
            case 3: minimum = text
            case 1: maximum = text
            default: break
            }
        }
        return (minimum, maximum)
    }

    /// A derivation expression as text, for the common key-path forms (`pages.@count`, `author.name`).
    private static func expressionText(_ expression: PropertyListValue, in archive: KeyedArchive) -> String? {
        if let keyPath = archive.string(expression, "NSKeyPath") { return keyPath }
        let arguments = archive.members(of: archive.value(expression, "NSArguments"))
        let parts = arguments.compactMap { expressionText($0, in: archive) }
        if let selector = archive.string(expression, "NSSelectorName"), selector != "valueForKey:", !parts.isEmpty {
            // The collection functions as the model editor writes them (`pages.@count`).
            let aggregates = ["count:": "@count", "sum:": "@sum", "average:": "@avg", "max:": "@max", "min:": "@min"]
            if let aggregate = aggregates[selector], parts.count == 1 { return "\(parts[0]).\(aggregate)" }
            return "\(selector)(\(parts.joined(separator: ", ")))"
        }
        return parts.isEmpty ? nil : parts.joined(separator: ".")
    }
}
