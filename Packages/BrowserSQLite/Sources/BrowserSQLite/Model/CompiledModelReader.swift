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
        return ModelDefinition(entities: entities, versionIdentifiers: identifiers.sorted()).normalized()
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
            isOptional: optional, isTransient: transient
        )
    }
}
