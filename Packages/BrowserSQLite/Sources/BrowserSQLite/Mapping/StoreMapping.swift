import BrowserCore

/// A model matched to a store's tables: per entity, its number, table, columns and relationship storage, plus
/// the BrowserCore schema and a report of what did not line up.
///
/// Column names are not recorded anywhere in a store (format doc §7), so they are derived from the model the way
/// Core Data derives them (`ColumnAllocation`) and then *checked* against the table: a derived column that does
/// not exist is reported, never replaced by a guess.
struct StoreMapping: Sendable {
    var entities: [String: EntityMapping]
    var schema: StoreSchema
    var report: MappingReport
    /// Concrete entity names by store entity number, to name each row's entity from its `Z_ENT`.
    var entityNamesByNumber: [Int64: String]

    static let fixedColumns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

    static func build(model: ModelDefinition, catalog: StoreCatalog) -> StoreMapping {
        let numbering = EntityNumbering.match(model, to: catalog)
        var report = MappingReport()
        report.entitiesMissingFromStore = numbering.missingFromStore
        report.entitiesMissingFromModel = numbering.missingFromModel
        report.parentMismatches = numbering.parentMismatches
        report.namesDifferFromMetadata = !catalog.versionHashes.isEmpty
            && Set(catalog.versionHashes.keys) != Set(model.entities.map(\.name))

        let numbers = numbering.numbers
        let entities = model.entities.filter { numbers[$0.name] != nil }.sorted { numbers[$0.name]! < numbers[$1.name]! }
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [String]] = [:]
        for entity in entities {
            if let parent = entity.parent { children[parent, default: []].append(entity.name) }
        }
        func root(of name: String) -> String { model.lineage(of: name).last?.name ?? name }
        func subtree(of name: String) -> [Int64] {
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

        // Tables, one per root entity.
        var tableOf: [String: String] = [:]
        var tableExists: [String: Bool] = [:]
        for entity in entities {
            let rootName = root(of: entity.name)
            let expected = "Z" + rootName.uppercased()
            let table = catalog.table(expected)
            tableOf[entity.name] = table?.name ?? expected
            if table == nil, tableExists[expected] == nil {
                report.missingTables.append("\(expected) (entity \(rootName))")
            }
            tableExists[expected] = table != nil
        }

        // Columns of stored properties, allocated per table in Core Data's order.
        var columns: [String: [String: String]] = [:] // entity → property key → column
        var trees: [String: [EntityDefinition]] = [:]
        for entity in entities { trees[root(of: entity.name), default: []].append(entity) }
        for (_, tree) in trees {
            let allocated = ColumnAllocation.allocate(tree: tree, reserved: fixedColumns)
            for (entity, keys) in allocated { columns[entity] = keys }
        }

        var claimed: [String: Set<String>] = [:] // table (upper-cased) → columns (upper-cased)
        func resolveColumn(_ name: String, in table: String) -> String? {
            guard let column = catalog.table(table)?.column(name) else { return nil }
            claimed[table.uppercased(), default: []].insert(column.name.uppercased())
            return column.name
        }
        func tableIsPresent(_ table: String) -> Bool { catalog.table(table) != nil }

        // Attributes: each entity's own, then everything inherited.
        var ownAttributes: [String: [AttributeMapping]] = [:]
        for entity in entities {
            let table = tableOf[entity.name]!
            var mapped: [AttributeMapping] = []
            for attribute in entity.attributes where Self.isStored(attribute) {
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
                    let storage: ColumnStorage
                    if let column = resolveColumn(expected, in: table) {
                        storage = .column(column)
                    } else {
                        if tableIsPresent(table) {
                            report.missingColumns.append("\(table).\(expected) (\(entity.name).\(part.name))")
                        }
                        storage = .missing("the store has no column \(table).\(expected) for \(entity.name).\(part.name)")
                    }
                    mapped.append(AttributeMapping(
                        name: part.name, kind: part.definition.type, isOptional: part.optional, storage: storage,
                        allowsExternalStorage: part.definition.allowsExternalStorage,
                        valueTransformerName: part.definition.valueTransformerName
                    ))
                }
            }
            ownAttributes[entity.name] = mapped
        }

        // Relationships, mapped on the entity that declares them.
        func declaring(_ relationship: String, from entity: String) -> (EntityDefinition, RelationshipDefinition)? {
            for ancestor in model.lineage(of: entity) {
                if let definition = byName[ancestor.name]?.relationships.first(where: { $0.name == relationship }) {
                    return (byName[ancestor.name]!, definition)
                }
            }
            return nil
        }
        var ownRelationships: [String: [RelationshipMapping]] = [:]
        for entity in entities {
            let table = tableOf[entity.name]!
            var mapped: [RelationshipMapping] = []
            for relationship in entity.relationships where !relationship.isTransient {
                let destination = relationship.destination
                guard let destinationNumber = numbers[destination], let sourceNumber = numbers[entity.name] else {
                    report.missingRelationshipStorage.append("\(entity.name).\(relationship.name) (destination \(destination) is not in the store)")
                    continue
                }
                let destinationTable = tableOf[destination]!
                let inverse = relationship.inverse.flatMap { declaring($0, from: destination) }
                let inverseOwner = inverse?.0, inverseDefinition = inverse?.1
                let name = relationship.name.uppercased()
                var storage: RelationshipStorage
                let what = "\(entity.name).\(relationship.name)"

                if !relationship.isToMany {
                    let expected = columns[entity.name]?[relationship.name] ?? "Z" + name
                    if let column = resolveColumn(expected, in: table) {
                        var entityColumn: String?
                        if !(children[destination] ?? []).isEmpty {
                            entityColumn = resolveColumn("Z\(destinationNumber)_" + column.dropFirst(), in: table)
                        }
                        storage = .foreignKey(column: column, entityColumn: entityColumn)
                    } else if let owner = inverseOwner, let definition = inverseDefinition, !definition.isToMany,
                              let inverseColumn = columns[owner.name]?[definition.name].flatMap({ resolveColumn($0, in: destinationTable) }) {
                        storage = .inverseForeignKey(column: inverseColumn)
                    } else {
                        if tableIsPresent(table) { report.missingColumns.append("\(table).\(expected) (\(what))") }
                        storage = .missing("the store has no column \(table).\(expected) for \(what)")
                    }
                } else if let owner = inverseOwner, let definition = inverseDefinition, !definition.isToMany {
                    // One-to-many: the targets' foreign key of the inverse to-one.
                    let expected = columns[owner.name]?[definition.name] ?? "Z" + definition.name.uppercased()
                    if let column = resolveColumn(expected, in: destinationTable) {
                        let order = relationship.isOrdered ? resolveColumn("Z_FOK_" + column.dropFirst(), in: destinationTable) : nil
                        storage = .targetsReferToSource(column: column, orderColumn: order)
                    } else {
                        if tableIsPresent(destinationTable) {
                            report.missingColumns.append("\(destinationTable).\(expected) (\(owner.name).\(definition.name))")
                        }
                        storage = .missing("the store has no column \(destinationTable).\(expected) for \(owner.name).\(definition.name)")
                    }
                } else if let owner = inverseOwner, let definition = inverseDefinition, let ownerNumber = numbers[owner.name],
                          let inverseDestinationNumber = numbers[definition.destination] {
                    // Many-to-many: a join table named after either side (format doc §8).
                    let inverseName = definition.name.uppercased()
                    let reflexive = owner.name == entity.name && definition.name == relationship.name
                    let candidates = ["Z_\(sourceNumber)\(name)", "Z_\(ownerNumber)\(inverseName)"]
                    if let joinTable = candidates.lazy.compactMap({ catalog.table($0) }).first {
                        let targetColumn = Self.joinColumn("Z_\(destinationNumber)\(name)", in: joinTable)
                        let sourceColumn = reflexive
                            ? joinTable.column("REFLEXIVE")?.name
                            : Self.joinColumn("Z_\(inverseDestinationNumber)\(inverseName)", in: joinTable)
                        if let targetColumn, let sourceColumn {
                            let order = relationship.isOrdered
                                ? joinTable.column("Z_FOK_" + targetColumn.dropFirst(2))?.name : nil
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
                } else {
                    // To-many without inverse: `Z<source number><R>` in the destination's table.
                    let expected = "Z\(sourceNumber)\(name)"
                    if let column = resolveColumn(expected, in: destinationTable) {
                        let order = relationship.isOrdered ? resolveColumn("Z_FOK_" + column.dropFirst(), in: destinationTable) : nil
                        storage = .targetsReferToSource(column: column, orderColumn: order)
                    } else {
                        if tableIsPresent(destinationTable) {
                            report.missingColumns.append("\(destinationTable).\(expected) (\(what))")
                        }
                        storage = .missing("the store has no column \(destinationTable).\(expected) for \(what)")
                    }
                }
                mapped.append(RelationshipMapping(
                    name: relationship.name, destination: destination,
                    destinationSubtree: subtree(of: destination), isToMany: relationship.isToMany,
                    isOrdered: relationship.isOrdered, inverse: inverseDefinition?.name, storage: storage
                ))
            }
            ownRelationships[entity.name] = mapped
        }

        // Columns of entity tables that no property explains (used to rank model versions).
        for table in Set(tableOf.values) {
            guard let info = catalog.table(table) else { continue }
            let used = claimed[table.uppercased(), default: []]
            for column in info.columns {
                let upper = column.name.uppercased()
                if !fixedColumns.contains(upper) && !used.contains(upper) {
                    report.unexplainedColumns.append("\(info.name).\(column.name)")
                }
            }
        }
        report.unexplainedColumns.sort()

        var mappings: [String: EntityMapping] = [:]
        var schemas: [EntitySchema] = []
        for entity in entities {
            let lineage = model.lineage(of: entity.name).reversed()
            let attributes = lineage.flatMap { ownAttributes[$0.name] ?? [] }
            let relationships = lineage.flatMap { ownRelationships[$0.name] ?? [] }
            let subtreeNumbers = subtree(of: entity.name)
            let isRoot = entity.parent == nil
            mappings[entity.name] = EntityMapping(
                name: entity.name, number: numbers[entity.name]!,
                table: tableOf[entity.name]!, subtreeNumbers: subtreeNumbers, coversWholeTable: isRoot,
                attributes: attributes,
                relationships: Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
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
        return StoreMapping(entities: mappings, schema: StoreSchema(entities: schemas), report: report,
                            entityNamesByNumber: names)
    }

    /// Transient attributes and ObjectID attributes (transient by nature) have no column (format doc §7).
    static func isStored(_ attribute: AttributeDefinition) -> Bool {
        !attribute.isTransient && attribute.type != .objectID
    }

    /// A join table's column: the expected name, or that name with the numeric suffix Core Data adds to repeated
    /// join-column names (`Z_34REPRESENTATIVEASSETS1`) when exactly one such column exists in this join table.
    private static func joinColumn(_ expected: String, in table: StoreCatalog.Table) -> String? {
        if let column = table.column(expected) { return column.name }
        let prefix = expected.uppercased()
        let suffixed = table.columns.filter {
            let upper = $0.name.uppercased()
            return upper.hasPrefix(prefix) && upper.count > prefix.count
                && upper.dropFirst(prefix.count).allSatisfy { $0.isASCII && $0.isNumber }
        }
        return suffixed.count == 1 ? suffixed[0].name : nil
    }
}
