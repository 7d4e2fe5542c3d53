import BrowserCore

/// The SQL of an export (`SQLiteRecordCursor`): one statement steps through every matching row in the list's
/// order, and each batch of rows asks for its relationships in a few set queries (the to-one records by key, the
/// to-many counts grouped by source), never one query per row.
extension RecordReader {
    /// How an export reads one entity's records.
    struct ExportPlan: Sendable {
        var sql: String
        var arguments: [SQLiteValue]
        var projection: Projection
        var entity: EntityMapping
        var relationships: [ExportedRelationship]
        /// The relationships' names, shared by every exported record (`RelatedValues.names`).
        var relationshipNames: [String]
    }

    /// A relationship an export lists, and where its value comes from.
    struct ExportedRelationship: Sendable {
        var name: String
        var isToMany: Bool
        var mapping: RelationshipMapping?
        /// For a to-one kept in the row's own foreign-key column: the column's position in the statement.
        var keyPosition: Int32?
    }

    /// The statement of every record of `query` in its order (the list's SQL without LIMIT / OFFSET), with the
    /// to-one foreign keys of `relationships` appended to the selected columns.
    func exportPlan(_ query: RecordQuery, of entity: EntityMapping, relationships: [RelationshipSchema]) throws -> ExportPlan {
        let list = try listSQL(query, of: entity)
        let projection = projection(for: entity)
        var extraColumns: [String] = []
        var exported: [ExportedRelationship] = []
        for relationship in relationships {
            let mapping = entity.relationships[relationship.name]
            var keyPosition: Int32?
            if !relationship.isToMany, case .foreignKey(let column, _)? = mapping?.storage {
                keyPosition = Int32(2 + projection.columns.count + extraColumns.count)
                extraColumns.append("\(list.table).\(quoteIdentifier(column))")
            }
            exported.append(ExportedRelationship(name: relationship.name, isToMany: relationship.isToMany,
                                                 mapping: mapping, keyPosition: keyPosition))
        }
        let select = ([projection.selectList(alias: list.table)] + extraColumns).joined(separator: ", ")
        return ExportPlan(sql: "SELECT \(select) FROM \(list.table)\(list.whereClause) ORDER BY \(list.orderClause)",
                          arguments: list.arguments + list.orderArguments,
                          projection: projection, entity: entity, relationships: exported,
                          relationshipNames: exported.map(\.name))
    }

    /// The records to-one relationships point to, kept across an export's batches: a million books name ten
    /// thousand authors, each read once instead of once per batch. Bounded; used on one cursor's queue only.
    final class TargetCache {
        static let capacity = 20_000
        /// One table per destination entity, so a row's lookup hashes only its key.
        final class Table {
            /// Where each key's target is in `targets`.
            var positions: [Int64: Int] = [:]
            /// The target as a batch holds it, and its concrete entity's number (checked against the
            /// relationship's destinations), read by position so a lookup copies no record.
            var targets: [(value: RelatedValue, entity: Int64)] = []
        }
        private var tables: [String: Table] = [:]
        private var count = 0

        func table(for entity: String) -> Table {
            if let table = tables[entity] { return table }
            let table = Table()
            tables[entity] = table
            return table
        }

        func store(_ record: StoredRecord, entity number: Int64, key: Int64, in table: Table) {
            if count >= Self.capacity {
                for table in tables.values {
                    table.positions.removeAll(keepingCapacity: true)
                    table.targets.removeAll(keepingCapacity: true)
                }
                count = 0
            }
            table.positions[key] = table.targets.count
            table.targets.append((.toOne(record), number))
            count += 1
        }
    }

    /// Where each attribute of a row lands among an export's slots (`ExportBatch.attributeNames`), per concrete
    /// entity: worked out once per entity met, not per row. The slots are the attributes of the exported
    /// entity's subtree by name, the exported entity's first; a row naming an entity outside it (a damaged
    /// `Z_ENT`) adds that entity's attributes. Used on one cursor's queue only.
    final class ExportLayout {
        struct EntityReader {
            /// The entity's index in `entities`.
            var entity: Int
            /// The attributes read from a column: slot, column position and how to decode it (plain values, so a
            /// row copies no attribute's strings).
            var columns: [(slot: Int, position: Int32, kind: AttributeKind, allowsExternalStorage: Bool)]
            /// The attributes whose column the store lacks: the same value for every row.
            var fixed: [(slot: Int, value: AttributeValue)]
        }

        private(set) var names: [String] = []
        private var slots: [String: Int] = [:]
        private(set) var entities: [ExportBatch.Entity] = []
        private var readers: [Int64: EntityReader] = [:]
        /// For a row without a `Z_ENT`.
        private var fallbackReader: EntityReader?
        private let reader: RecordReader
        private let plan: ExportPlan

        init(reader: RecordReader, plan: ExportPlan) {
            self.reader = reader
            self.plan = plan
            _ = entityReader(for: plan.entity.number)
            for number in plan.projection.entities.keys.sorted() { _ = entityReader(for: number) }
        }

        /// The reader of a row whose `Z_ENT` is `number`: its entity as `RecordReader.record(in:)` resolves it
        /// (a number the model does not know reads as the exported entity).
        func entityReader(for number: Int64?) -> EntityReader {
            if let number, let known = readers[number] { return known }
            if number == nil, let fallbackReader { return fallbackReader }
            let projection = plan.projection
            let entity = number.flatMap { projection.entities[$0] }
                ?? number.flatMap { reader.mapping.entityNamesByNumber[$0] }.flatMap { reader.mapping.entities[$0] }
                ?? plan.entity
            var made = EntityReader(entity: index(of: entity), columns: [], fixed: [])
            for (attribute, position) in projection.readers[entity.number] ?? projection.attributeReaders(of: entity) {
                let slot = slot(for: attribute.name)
                switch attribute.storage {
                case .column:
                    // A column not selected (`record(in:)` leaves the attribute out): the slot stays nil.
                    guard let position else { continue }
                    made.columns.append((slot, position, attribute.kind, attribute.allowsExternalStorage))
                case .missing(let reason):
                    made.fixed.append((slot, .undecodable(reason)))
                }
            }
            if let number { readers[number] = made } else { fallbackReader = made }
            return made
        }

        private func slot(for name: String) -> Int {
            if let slot = slots[name] { return slot }
            slots[name] = names.count
            names.append(name)
            return names.count - 1
        }

        private func index(of entity: EntityMapping) -> Int {
            let described = ExportBatch.Entity(storeIdentifier: reader.storeIdentifier, name: entity.name)
            if let index = entities.firstIndex(of: described) { return index }
            entities.append(described)
            return entities.count - 1
        }
    }

    /// The next `limit` rows of the plan's statement with their relationships; nil when the statement is done.
    /// Each row's values go straight into the batch's slots (the values `record(in:)` would put in a record).
    func exportBatch(_ statement: SQLiteStatement, plan: ExportPlan, layout: ExportLayout, limit: Int,
                     targets cache: TargetCache, in connection: SQLiteConnection) throws -> ExportBatch? {
        var attributeCount = layout.names.count
        var values: [AttributeValue?] = []
        values.reserveCapacity(limit * attributeCount)
        var keys: [Int64] = []
        keys.reserveCapacity(limit)
        var entityIndexes: [Int] = []
        entityIndexes.reserveCapacity(limit)
        // The foreign keys of the to-one relationships kept in the row, by the relationship's position in the plan.
        var foreignKeys = [[Int64?]](repeating: [], count: plan.relationships.count)
        // Which relationships those are, and their columns (looked up once: a relationship's mapping is a large
        // value to copy per row).
        let keyColumns = plan.relationships.enumerated().compactMap { index, relationship in
            relationship.keyPosition.map { (index: index, column: $0) }
        }
        for (index, _) in keyColumns { foreignKeys[index].reserveCapacity(limit) }
        while keys.count < limit, try statement.step() {
            let entity = layout.entityReader(for: statement.value(at: 1).int64)
            if layout.names.count != attributeCount {
                values = Self.widened(values, rows: keys.count, from: attributeCount, to: layout.names.count)
                attributeCount = layout.names.count
            }
            let row = values.count
            values.append(contentsOf: repeatElement(nil, count: attributeCount))
            for (slot, position, kind, allowsExternalStorage) in entity.columns {
                values[row + slot] = decoder.decode(statement, column: position, kind: kind,
                                                    allowsExternalStorage: allowsExternalStorage)
            }
            for (slot, value) in entity.fixed { values[row + slot] = value }
            keys.append(statement.value(at: 0).int64 ?? 0)
            entityIndexes.append(entity.entity)
            for (index, column) in keyColumns {
                foreignKeys[index].append(statement.value(at: column).int64)
            }
        }
        guard !keys.isEmpty else { return nil }

        // What each record's relationships hold: row after row, in the plan's order (`ExportBatch.related`).
        let relationshipCount = plan.relationships.count
        var related = [RelatedValue?](repeating: nil, count: keys.count * relationshipCount)
        for (position, relationship) in plan.relationships.enumerated() {
            func fill(_ value: (Int) -> RelatedValue) {
                for index in keys.indices { related[index * relationshipCount + position] = value(index) }
            }
            guard let mapping = relationship.mapping else {
                // A relationship of the exported entity that its mapping lacks cannot happen; say so rather than crash.
                fill { _ in .unreadable("not in the store's mapping") }
                continue
            }
            if case .missing(let reason) = mapping.storage {
                fill { _ in .unreadable(reason) }
                continue
            }
            if relationship.isToMany {
                let counts = try relatedCounts(of: keys, through: mapping, in: connection)
                fill { .toMany(count: counts[keys[$0]] ?? 0) }
            } else {
                // Every row points to none until its target is found (written in place: a record is a value whose
                // copies each retain its strings, shared by every row, so none is copied twice).
                fill { _ in .toOne(nil) }
                try toOneTargets(of: keys, foreignKeys: relationship.keyPosition == nil ? nil : foreignKeys[position],
                                 through: mapping, cache: cache, in: connection) { index, target in
                    related[index * relationshipCount + position] = target
                }
            }
        }
        return ExportBatch(attributeNames: layout.names, relationshipNames: plan.relationshipNames, entities: layout.entities,
                           entityIndexes: entityIndexes, primaryKeys: keys, values: values, related: related)
    }

    /// Rows of `from` values each, padded to `to` values each (slots added at the end of a row keep the others).
    private static func widened(_ values: [AttributeValue?], rows: Int, from: Int, to: Int) -> [AttributeValue?] {
        var wider: [AttributeValue?] = []
        wider.reserveCapacity(rows * to)
        for row in 0..<rows {
            wider.append(contentsOf: values[row * from ..< (row + 1) * from])
            wider.append(contentsOf: repeatElement(nil, count: to - from))
        }
        return wider
    }

    /// The record each source's to-one relationship points to (as `RelatedValue.toOne`), given to `found` with
    /// the source's position in `sources` (sources pointing to none are not given).
    private func toOneTargets(of sources: [Int64], foreignKeys: [Int64?]?, through relationship: RelationshipMapping,
                              cache: TargetCache, in connection: SQLiteConnection,
                              found: (Int, RelatedValue) -> Void) throws {
        guard let destination = mapping.entities[relationship.destination] else { return }
        if let foreignKeys {
            // The key is in the source row: each key is looked up among the targets met in earlier batches, and
            // those not met yet are read in one query. A key the query does not return (a dangling key, a row of
            // another entity) points to no record, and is asked again if met again.
            let table = cache.table(for: destination.name)
            var missing: Set<Int64> = []
            var unresolved: [Int] = []
            for (index, key) in foreignKeys.enumerated() {
                guard let key else { continue }
                if let position = table.positions[key] {
                    if relationship.destinationSubtree.contains(table.targets[position].entity) {
                        found(index, table.targets[position].value)
                    }
                } else {
                    missing.insert(key)
                    unresolved.append(index)
                }
            }
            guard !missing.isEmpty else { return }
            var read: [Int64: StoredRecord] = [:]
            for record in try records(Array(missing), of: destination, in: connection) {
                guard let number = mapping.entities[record.entity]?.number else { continue }
                cache.store(record, entity: number, key: record.id.primaryKey, in: table)
                if relationship.destinationSubtree.contains(number) { read[record.id.primaryKey] = record }
            }
            for index in unresolved {
                if let target = foreignKeys[index].flatMap({ read[$0] }) { found(index, .toOne(target)) }
            }
            return
        }
        // The key is in the target's row (a one-to-one whose inverse holds it).
        let column: String
        switch relationship.storage {
        case .inverseForeignKey(let name), .targetsReferToSource(let name, _): column = name
        default: return
        }
        let positions = Dictionary(sources.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let projection = projection(for: destination)
        var arguments = sources.map(SQLiteValue.integer)
        let sql = "SELECT \(projection.selectList(alias: "d")), d.\(quoteIdentifier(column)) FROM \(quoteIdentifier(destination.table)) AS d "
            + "WHERE d.\(quoteIdentifier(column)) IN (\(placeholders(sources.count))) AND \(subtreeCondition(relationship, destination, &arguments)) "
            + "ORDER BY d.\"Z_PK\""
        let statement = try connection.prepare(sql)
        try statement.bind(arguments)
        let sourcePosition = Int32(2 + projection.columns.count)
        // The first target by key is the one `related` lists.
        var given = [Bool](repeating: false, count: sources.count)
        while try statement.step() {
            guard let source = statement.value(at: sourcePosition).int64, let index = positions[source], !given[index] else { continue }
            given[index] = true
            found(index, .toOne(record(in: statement, projection: projection, fallback: destination)))
        }
    }

    /// How many records each source key reaches through a to-many relationship (sources reaching none are absent).
    private func relatedCounts(of sources: [Int64], through relationship: RelationshipMapping,
                               in connection: SQLiteConnection) throws -> [Int64: Int] {
        guard let destination = mapping.entities[relationship.destination] else { return [:] }
        let target = quoteIdentifier(destination.table)
        var arguments: [SQLiteValue] = sources.map(SQLiteValue.integer)
        let list = placeholders(sources.count)
        let sql: String
        switch relationship.storage {
        case .inverseForeignKey(let column), .targetsReferToSource(let column, _):
            let key = "d.\(quoteIdentifier(column))"
            sql = "SELECT \(key), COUNT(*) FROM \(target) AS d WHERE \(key) IN (\(list)) AND "
                + "\(subtreeCondition(relationship, destination, &arguments)) GROUP BY \(key)"
        case .joinTable(let table, let sourceColumn, let targetColumn, _, let reflexive):
            let join = quoteIdentifier(table)
            let sourceKey = quoteIdentifier(sourceColumn), targetKey = quoteIdentifier(targetColumn)
            if reflexive {
                // A relationship that is its own inverse may hold a pair in either column (as `related` reads it).
                arguments += sources.map(SQLiteValue.integer)
                sql = "SELECT p.s, COUNT(*) FROM (SELECT \(sourceKey) AS s, \(targetKey) AS t FROM \(join) WHERE \(sourceKey) IN (\(list)) "
                    + "UNION SELECT \(targetKey), \(sourceKey) FROM \(join) WHERE \(targetKey) IN (\(list))) AS p "
                    + "JOIN \(target) AS d ON d.\"Z_PK\" = p.t WHERE \(subtreeCondition(relationship, destination, &arguments)) GROUP BY p.s"
            } else {
                sql = "SELECT j.\(sourceKey), COUNT(*) FROM \(join) AS j JOIN \(target) AS d ON d.\"Z_PK\" = j.\(targetKey) "
                    + "WHERE j.\(sourceKey) IN (\(list)) AND \(subtreeCondition(relationship, destination, &arguments)) GROUP BY j.\(sourceKey)"
            }
        case .foreignKey, .missing:
            return [:]
        }
        var counts: [Int64: Int] = [:]
        for row in try connection.rows(sql, arguments) {
            if let source = row[0].int64 { counts[source] = Int(row[1].int64 ?? 0) }
        }
        return counts
    }

    /// The destination rows a relationship may reach (as `related` tests them): "1" when the destination is its
    /// table's root and the relationship reaches its whole subtree.
    private func subtreeCondition(_ relationship: RelationshipMapping, _ destination: EntityMapping,
                                  _ arguments: inout [SQLiteValue]) -> String {
        destination.coversWholeTable && relationship.destinationSubtree == destination.subtreeNumbers
            ? "1"
            : entityCondition(relationship.destinationSubtree, alias: "d", arguments: &arguments) ?? "1"
    }

    private func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
