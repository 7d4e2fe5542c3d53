import BrowserCore

/// Builds a `StoreMapping` step by step: tables (one per root entity), the columns Core Data would allocate,
/// each entity's own attributes, each entity's own relationships (one switch over the ways Core Data stores a
/// relationship, format doc §8), then every entity with what it inherits. Every derived name is checked against
/// the store; what does not line up goes into the report.
struct StoreMappingBuilder {
    private let model: ModelDefinition
    private let catalog: StoreCatalog
    private let numbers: [String: Int64]
    /// The model's entities the store numbers, in entity-number order.
    private let entities: [EntityDefinition]
    private let byName: [String: EntityDefinition]
    private let children: [String: [String]]
    private var report = MappingReport()
    /// The table holding each entity's rows (its root's), as found in the store or as expected.
    private var tableOf: [String: String] = [:]
    /// Per entity, the column Core Data allocates to each stored property (`ColumnAllocation`).
    private var columns: [String: [String: String]] = [:]
    /// Per table (upper-cased), the columns (upper-cased) some property explains.
    private var claimed: [String: Set<String>] = [:]

    init(model: ModelDefinition, catalog: StoreCatalog) {
        self.model = model
        self.catalog = catalog
        let numbering = EntityNumbering.match(model, to: catalog)
        numbers = numbering.numbers
        report.entitiesMissingFromStore = numbering.missingFromStore
        report.entitiesMissingFromModel = numbering.missingFromModel
        report.parentMismatches = numbering.parentMismatches
        report.namesDifferFromMetadata = !catalog.versionHashes.isEmpty
            && Set(catalog.versionHashes.keys) != Set(model.entities.map(\.name))
        let numbers = numbering.numbers
        entities = model.entities.filter { numbers[$0.name] != nil }.sorted { numbers[$0.name]! < numbers[$1.name]! }
        byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [String]] = [:]
        for entity in entities {
            if let parent = entity.parent { children[parent, default: []].append(entity.name) }
        }
        self.children = children
    }

    mutating func build() -> StoreMapping {
        mapTables()
        allocateColumns()
        var ownAttributes: [String: [AttributeMapping]] = [:]
        var ownRelationships: [String: [RelationshipMapping]] = [:]
        // Every entity's attributes before any relationship, so the report lists them in that order.
        for entity in entities { ownAttributes[entity.name] = attributes(declaredBy: entity) }
        for entity in entities {
            ownRelationships[entity.name] = entity.relationships.filter { !$0.isTransient }.compactMap { relationship(relationship: $0, of: entity) }
        }
        reportUnexplainedColumns()

        var mappings: [String: EntityMapping] = [:]
        var schemas: [EntitySchema] = []
        for entity in entities {
            let lineage = model.lineage(of: entity.name).reversed()
            let attributes = lineage.flatMap { ownAttributes[$0.name] ?? [] }
            let relationships = lineage.flatMap { ownRelationships[$0.name] ?? [] }
            mappings[entity.name] = EntityMapping(
                name: entity.name, number: numbers[entity.name]!,
                table: tableOf[entity.name]!, subtreeNumbers: subtree(of: entity.name), coversWholeTable: entity.parent == nil,
                attributes: attributes,
                relationships: Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
                orderedColumns: catalog.table(tableOf[entity.name]!)?.orderedColumns ?? []
            )
            schemas.append(EntitySchema(
                name: entity.name, parent: entity.parent, isAbstract: entity.isAbstract,
                attributes: attributes.map { AttributeSchema(name: $0.name, type: $0.kind.attributeType, isOptional: $0.isOptional,
                                                         valueTransformerName: $0.valueTransformerName) },
                relationships: relationships.map(\.schema)
            ))
        }
        var names: [Int64: String] = [:]
        for (name, number) in numbers { names[number] = name }
        return StoreMapping(entities: mappings, schema: StoreSchema(entities: schemas), report: report, entityNamesByNumber: names)
    }

    // MARK: Tables and columns

    private func root(of name: String) -> String { model.lineage(of: name).last?.name ?? name }

    /// The numbers of the entity and all its descendants, sorted.
    private func subtree(of name: String) -> [Int64] {
        var result: [Int64] = []
        var stack = [name]
        var seen: Set<String> = []
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            if let number = numbers[next] { result.append(number) }
            stack += children[next] ?? []
        }
        return result.sorted()
    }

    /// One table per root entity: `Z` + its upper-cased name (format doc §5).
    private mutating func mapTables() {
        var reported: Set<String> = []
        for entity in entities {
            let rootName = root(of: entity.name)
            let expected = "Z" + rootName.uppercased()
            let table = catalog.table(expected)
            tableOf[entity.name] = table?.name ?? expected
            if table == nil, reported.insert(expected).inserted {
                report.missingTables.append("\(expected) (entity \(rootName))")
            }
        }
    }

    /// Columns of stored properties, allocated per table in Core Data's order.
    private mutating func allocateColumns() {
        var trees: [String: [EntityDefinition]] = [:]
        for entity in entities { trees[root(of: entity.name), default: []].append(entity) }
        for (_, tree) in trees {
            for (entity, keys) in ColumnAllocation.allocate(tree: tree, reserved: StoreMapping.fixedColumns) { columns[entity] = keys }
        }
    }

    /// The store's spelling of a column of `table`, marked as explained; nil when the table lacks it.
    private mutating func resolveColumn(_ name: String, in table: String) -> String? {
        guard let column = catalog.table(table)?.column(name) else { return nil }
        claimed[table.uppercased(), default: []].insert(column.name.uppercased())
        return column.name
    }

    /// Why a property has no storage: reported (when its table exists; a missing table is reported once) and
    /// returned for the value shown instead.
    private mutating func missingColumn(_ column: String, in table: String, for what: String) -> String {
        if catalog.table(table) != nil { report.missingColumns.append("\(table).\(column) (\(what))") }
        return "the store has no column \(table).\(column) for \(what)"
    }

    /// Columns of entity tables that no property explains (used to rank model versions).
    private mutating func reportUnexplainedColumns() {
        for table in Set(tableOf.values) {
            guard let info = catalog.table(table) else { continue }
            let used = claimed[table.uppercased(), default: []]
            for column in info.columns {
                let upper = column.name.uppercased()
                if !StoreMapping.fixedColumns.contains(upper) && !used.contains(upper) {
                    report.unexplainedColumns.append("\(info.name).\(column.name)")
                }
            }
        }
        report.unexplainedColumns.sort()
    }

    // MARK: Attributes

    /// The entity's own stored attributes; a composite attribute is one attribute per element (`address.street`).
    private mutating func attributes(declaredBy entity: EntityDefinition) -> [AttributeMapping] {
        let table = tableOf[entity.name]!
        var mapped: [AttributeMapping] = []
        for attribute in entity.attributes where StoreMapping.isStored(attribute) {
            let parts: [(name: String, definition: AttributeDefinition, optional: Bool)]
            if attribute.type == .composite {
                parts = attribute.elements.sorted { $0.name < $1.name }.map {
                    ("\(attribute.name).\($0.name)", $0, attribute.isOptional || $0.isOptional)
                }
            } else {
                parts = [(attribute.name, attribute, attribute.isOptional)]
            }
            for part in parts {
                let expected = columns[entity.name]?[part.name] ?? "Z" + part.definition.name.uppercased()
                let storage: ColumnStorage = resolveColumn(expected, in: table).map(ColumnStorage.column)
                    ?? .missing(missingColumn(expected, in: table, for: "\(entity.name).\(part.name)"))
                mapped.append(AttributeMapping(
                    name: part.name, kind: part.definition.type, isOptional: part.optional, storage: storage,
                    allowsExternalStorage: part.definition.allowsExternalStorage,
                    valueTransformerName: part.definition.valueTransformerName
                ))
            }
        }
        return mapped
    }

    // MARK: Relationships

    /// How a relationship is stored, decided from its cardinality and its inverse's (format doc §8).
    private enum Shape {
        /// A to-one: a foreign-key column in the source's table (or, for a one-to-one, the inverse's column).
        case toOne(inverse: (owner: EntityDefinition, definition: RelationshipDefinition)?)
        /// A to-many whose inverse is a to-one: the inverse's foreign key in the destination's table.
        case oneToMany(owner: EntityDefinition, inverse: RelationshipDefinition)
        /// A to-many whose inverse is a to-many: a join table named after either side.
        case manyToMany(owner: EntityDefinition, ownerNumber: Int64, inverse: RelationshipDefinition, inverseDestinationNumber: Int64)
        /// A to-many without inverse: `Z<source number><R>` in the destination's table.
        case toManyWithoutInverse
    }

    /// The relationship and its inverse's declaring entity, looked up from the destination up its lineage.
    private func declaring(_ relationship: String, from entity: String) -> (EntityDefinition, RelationshipDefinition)? {
        for ancestor in model.lineage(of: entity) {
            if let definition = byName[ancestor.name]?.relationships.first(where: { $0.name == relationship }) {
                return (byName[ancestor.name]!, definition)
            }
        }
        return nil
    }

    private func shape(of relationship: RelationshipDefinition) -> Shape {
        let inverse = relationship.inverse.flatMap { declaring($0, from: relationship.destination) }
        guard relationship.isToMany else { return .toOne(inverse: inverse.map { (owner: $0.0, definition: $0.1) }) }
        guard let (owner, definition) = inverse else { return .toManyWithoutInverse }
        if !definition.isToMany { return .oneToMany(owner: owner, inverse: definition) }
        guard let ownerNumber = numbers[owner.name], let inverseDestination = numbers[definition.destination] else {
            return .toManyWithoutInverse
        }
        return .manyToMany(owner: owner, ownerNumber: ownerNumber, inverse: definition, inverseDestinationNumber: inverseDestination)
    }

    /// The relationship's mapping on the entity that declares it; nil (and reported) when its destination is not
    /// in the store.
    private mutating func relationship(relationship: RelationshipDefinition, of entity: EntityDefinition) -> RelationshipMapping? {
        let destination = relationship.destination
        let what = "\(entity.name).\(relationship.name)"
        guard let destinationNumber = numbers[destination], let sourceNumber = numbers[entity.name] else {
            report.missingRelationshipStorage.append("\(what) (destination \(destination) is not in the store)")
            return nil
        }
        let table = tableOf[entity.name]!
        let destinationTable = tableOf[destination]!
        let name = relationship.name.uppercased()
        let inverseName: String?
        let storage: RelationshipStorage

        switch shape(of: relationship) {
        case .toOne(let inverse):
            inverseName = inverse?.definition.name
            let expected = columns[entity.name]?[relationship.name] ?? "Z" + name
            if let column = resolveColumn(expected, in: table) {
                // A destination with sub-entities also records the target's entity (`ZPAGE.Z1_BOOK`).
                let entityColumn = (children[destination] ?? []).isEmpty
                    ? nil : resolveColumn("Z\(destinationNumber)_" + column.dropFirst(), in: table)
                storage = .foreignKey(column: column, entityColumn: entityColumn)
            } else if let inverse, !inverse.definition.isToMany,
                      let inverseColumn = columns[inverse.owner.name]?[inverse.definition.name],
                      let resolved = resolveColumn(inverseColumn, in: destinationTable) {
                storage = .inverseForeignKey(column: resolved)
            } else {
                storage = .missing(missingColumn(expected, in: table, for: what))
            }

        case .oneToMany(let owner, let inverse):
            inverseName = inverse.name
            let expected = columns[owner.name]?[inverse.name] ?? "Z" + inverse.name.uppercased()
            if let column = resolveColumn(expected, in: destinationTable) {
                let order = relationship.isOrdered ? resolveColumn("Z_FOK_" + column.dropFirst(), in: destinationTable) : nil
                storage = .targetsReferToSource(column: column, orderColumn: order)
            } else {
                storage = .missing(missingColumn(expected, in: destinationTable, for: "\(owner.name).\(inverse.name)"))
            }

        case .manyToMany(let owner, let ownerNumber, let inverse, let inverseDestinationNumber):
            inverseName = inverse.name
            let otherName = inverse.name.uppercased()
            let reflexive = owner.name == entity.name && inverse.name == relationship.name
            let candidates = ["Z_\(sourceNumber)\(name)", "Z_\(ownerNumber)\(otherName)"]
            if let joinTable = candidates.lazy.compactMap({ [catalog] in catalog.table($0) }).first {
                let targetColumn = StoreMapping.joinColumn("Z_\(destinationNumber)\(name)", in: joinTable)
                let sourceColumn = reflexive
                    ? joinTable.column("REFLEXIVE")?.name
                    : StoreMapping.joinColumn("Z_\(inverseDestinationNumber)\(otherName)", in: joinTable)
                if let targetColumn, let sourceColumn {
                    let order = relationship.isOrdered ? joinTable.column("Z_FOK_" + targetColumn.dropFirst(2))?.name : nil
                    storage = .joinTable(table: joinTable.name, sourceColumn: sourceColumn, targetColumn: targetColumn,
                                         orderColumn: order, reflexive: reflexive)
                } else {
                    report.missingRelationshipStorage.append("\(what) (join table \(joinTable.name) lacks its columns)")
                    storage = .missing("join table \(joinTable.name) lacks the columns of \(what)")
                }
            } else {
                report.missingRelationshipStorage.append("\(what) (no join table \(candidates.joined(separator: " or ")))")
                storage = .missing("the store has no join table \(candidates.joined(separator: " or ")) for \(what)")
            }

        case .toManyWithoutInverse:
            inverseName = relationship.inverse.flatMap { declaring($0, from: destination)?.1.name }
            let expected = "Z\(sourceNumber)\(name)"
            if let column = resolveColumn(expected, in: destinationTable) {
                let order = relationship.isOrdered ? resolveColumn("Z_FOK_" + column.dropFirst(), in: destinationTable) : nil
                storage = .targetsReferToSource(column: column, orderColumn: order)
            } else {
                storage = .missing(missingColumn(expected, in: destinationTable, for: what))
            }
        }
        return RelationshipMapping(
            name: relationship.name, destination: destination, destinationSubtree: subtree(of: destination),
            isToMany: relationship.isToMany, isOrdered: relationship.isOrdered, inverse: inverseName, storage: storage,
            deleteRule: relationship.deleteRule, isOptional: relationship.isOptional,
            minCount: relationship.minCount, maxCount: relationship.maxCount
        )
    }
}
