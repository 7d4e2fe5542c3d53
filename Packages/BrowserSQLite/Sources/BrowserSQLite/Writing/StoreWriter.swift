import BrowserCore
import CSQLite

/// Inserts, updates and deletes records of a store file in SQL, keeping what Core Data keeps (docs/decisions/
/// store-file-writing.md): `Z_PRIMARYKEY.Z_MAX` for new keys, `Z_ENT` of the concrete entity, `Z_OPT` once per
/// changed record (`WriteSession`), both sides of every relationship (`RelationshipLinks`), the delete rules
/// (`DeletionPlan`), and the model's rules for the relationships a write changes. Every method runs inside one
/// `StoreConnection.write` transaction: an error anywhere rolls the whole request back.
struct StoreWriter: Sendable {
    let mapping: StoreMapping
    let storeIdentifier: String

    func insert(into entityName: String, _ changes: RecordChanges, in connection: SQLiteConnection) throws -> ObjectID {
        let session = WriteSession(connection: connection, mapping: mapping, storeIdentifier: storeIdentifier)
        guard let entity = mapping.entities[entityName] else { throw BrowserError.notFound("No entity named \"\(entityName)\"") }
        let targets = try resolveTargets(changes, of: entity, in: session)
        guard let root = mapping.entities.values.first(where: { $0.table == entity.table && $0.coversWholeTable }) else {
            throw BrowserError.storeFailure("No root entity for \(entity.table)")
        }
        // Core Data hands out `Z_MAX + 1` and records it on the root entity's row (format doc §2); the table's own
        // largest key is taken into account too, so a stale `Z_MAX` never hands out a key twice.
        let recorded = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(root.number)])?.int64 ?? 0
        let largest = try connection.scalar("SELECT max(Z_PK) FROM \(quoteIdentifier(entity.table))")?.int64 ?? 0
        let primaryKey = max(recorded, largest) + 1
        _ = try connection.rows("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(primaryKey), .integer(root.number)])

        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values: [SQLiteValue] = [.integer(primaryKey), .integer(entity.number), .integer(1)]
        for (column, value) in try attributeValues(changes, of: entity) {
            columns.append(column)
            values.append(value)
        }
        _ = try connection.rows("INSERT INTO \(quoteIdentifier(entity.table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) "
            + "VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))", values)
        let row = RowKey(table: entity.table, primaryKey: primaryKey)
        session.inserted.insert(row)
        try setRelationships(targets, of: primaryKey, entity: entity, in: session)
        try finish(session)
        return ObjectID(storeIdentifier: storeIdentifier, entity: entity.name, primaryKey: primaryKey)
    }

    func update(_ id: ObjectID, expecting version: Int64, _ changes: RecordChanges, in connection: SQLiteConnection) throws {
        let session = WriteSession(connection: connection, mapping: mapping, storeIdentifier: storeIdentifier)
        let entity = try existing(id, expecting: version, in: session)
        let targets = try resolveTargets(changes, of: entity, in: session)
        try session.set(try attributeValues(changes, of: entity), of: id.primaryKey, in: entity.table)
        try setRelationships(targets, of: id.primaryKey, entity: entity, in: session)
        try finish(session)
    }

    func deletionEffects(of id: ObjectID, in connection: SQLiteConnection) throws -> DeletionEffects {
        let session = WriteSession(connection: connection, mapping: mapping, storeIdentifier: storeIdentifier)
        let entity = try existing(id, expecting: nil, in: session)
        return try DeletionPlan.make(for: id.primaryKey, entity: entity, id: id, in: session).effects
    }

    func delete(_ id: ObjectID, expecting version: Int64, in connection: SQLiteConnection) throws -> DeletionEffects {
        let session = WriteSession(connection: connection, mapping: mapping, storeIdentifier: storeIdentifier)
        let entity = try existing(id, expecting: version, in: session)
        let plan = try DeletionPlan.make(for: id.primaryKey, entity: entity, id: id, in: session)
        guard plan.effects.blockedBy.isEmpty else {
            throw BrowserError.conflict(
                "\(id.uri) cannot be deleted: " + plan.effects.blockedBy.map { "\($0.entity).\($0.relationship) (\($0.count))" }.joined(separator: ", ")
                    + " still hold records (a Deny delete rule, or a required relationship it would leave empty); nothing was deleted",
                .blockedBy(plan.effects.blockedBy))
        }
        // Set-based, with the model's rules checked in the plan (`DeletionPlan.carryOut`).
        try plan.carryOut(in: session)
        return plan.effects
    }

    // MARK: Steps

    /// The record's entity, after checking that it exists and (when given) that its version is still `version`.
    /// A key Core Data handed out (at most the root's `Z_MAX`) whose row is gone was deleted since it was read:
    /// 409 with `.deleted`; any other missing record is 404.
    private func existing(_ id: ObjectID, expecting version: Int64?, in session: WriteSession) throws -> EntityMapping {
        guard id.storeIdentifier == storeIdentifier, let entity = mapping.entities[id.entity] else {
            throw BrowserError.notFound("No record \(id.uri)")
        }
        let row = try session.row(id.primaryKey, in: entity.table)
        if let row, row.entity.name != entity.name { throw BrowserError.notFound("No record \(id.uri)") }
        guard let found = row else {
            let root = mapping.entities.values.first { $0.table == entity.table && $0.coversWholeTable }
            let handedOut = try root.flatMap {
                try session.connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer($0.number)])?.int64
            } ?? 0
            if id.primaryKey >= 1, id.primaryKey <= handedOut {
                throw BrowserError.conflict("\(id.uri) was deleted since it was read; nothing was written", .deleted)
            }
            throw BrowserError.notFound("No record \(id.uri)")
        }
        if let version, found.version != version {
            throw BrowserError.conflict(
                "\(id.uri) changed since it was read (version \(version), now \(found.version)); nothing was written: reload it and try again",
                .versions(expected: version, current: found.version))
        }
        return found.entity
    }

    /// Each relationship's targets as primary keys, after checking that every target exists as the entity its ID
    /// names: a missing one is a 422 naming the relationship, before anything is written.
    private func resolveTargets(_ changes: RecordChanges, of entity: EntityMapping, in session: WriteSession) throws -> [(RelationshipMapping, [Int64])] {
        var problems: [FieldProblem] = []
        var resolved: [(RelationshipMapping, [Int64])] = []
        for (name, contents) in changes.relationships.sorted(by: { $0.key < $1.key }) {
            guard let relationship = entity.relationships[name], let destination = mapping.entities[relationship.destination] else {
                problems.append(.relationship(name, "\(entity.name) has no relationship \"\(name)\""))
                continue
            }
            var keys: [Int64] = []
            for target in contents.targets {
                let found = target.storeIdentifier == storeIdentifier ? try session.row(target.primaryKey, in: destination.table) : nil
                guard let found, found.entity.name == target.entity, destination.subtreeNumbers.contains(found.entity.number) else {
                    problems.append(.relationship(name, "no record \(target.uri) in the store"))
                    continue
                }
                keys.append(target.primaryKey)
            }
            resolved.append((relationship, keys))
        }
        guard problems.isEmpty else { throw BrowserError.invalidFields(problems) }
        return resolved
    }

    private func attributeValues(_ changes: RecordChanges, of entity: EntityMapping) throws -> [(column: String, value: SQLiteValue)] {
        var values: [(column: String, value: SQLiteValue)] = []
        for (name, value) in changes.attributes.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(named: name), let column = attribute.column else {
                throw BrowserError.invalidFields([.attribute(name, "\(entity.name) has no stored attribute \"\(name)\"")])
            }
            values.append((column, try StoredValueEncoding.encode(value, as: attribute)))
        }
        return values
    }

    private func setRelationships(_ targets: [(RelationshipMapping, [Int64])], of primaryKey: Int64, entity: EntityMapping,
                                  in session: WriteSession) throws {
        for (relationship, keys) in targets {
            try session.setContents(of: primaryKey, entity: entity, relationship, to: keys)
        }
    }

    /// The model's rules for what the request changed on other records, then one new version per changed record.
    private func finish(_ session: WriteSession) throws {
        let problems = try session.requiredRelationshipProblems()
        if !problems.isEmpty {
            throw BrowserError.conflict("Core Data would refuse this save: " + problems.map(\.message).joined(separator: "; ")
                + "; nothing was written",
                .blockedBy(problems.map { RelationshipEffect(entity: $0.entity.name, relationship: $0.relationship.name, count: 1) }))
        }
        try session.bumpVersions()
    }
}
