import BrowserCore

/// What deleting a record does under the model's delete rules, worked out from the store before anything is
/// written: `deletionEffects` shows it, `delete` carries it out (`carryOut`) in the same transaction it was
/// computed in.
///
/// The rules as Core Data applies them: **Cascade** deletes the targets too (transitively); **Nullify** removes the
/// deleted record from each surviving target's inverse; **Deny** refuses the delete while the relationship holds a
/// record that is not itself being deleted; **No Action** leaves the targets as they are, their inverse still
/// naming the deleted record (Core Data's documented meaning: the app must clean up). A surviving target whose
/// required relationship would be left empty (or below its minimum) blocks the delete too, as Core Data's
/// validation of that save would.
///
/// **Set-based.** A cascade may reach tens of thousands of records (an author's 30,000 books), so nothing here is
/// done per record: the records to delete are gathered level by level in a temporary table (`temp.browser_deleting`,
/// one `INSERT … SELECT` per cascade relationship and level), the surviving targets that lose a deleted record in
/// another (`temp.browser_losing`), and the effects, the unlinking, the deletes and the new versions are a few
/// statements per entity and relationship over those sets (`RelationshipPairs`). The temporary tables live in the
/// connection's own temporary database, never in the store's file.
struct DeletionPlan {
    /// A relationship of the deleted records of one entity whose pairs are removed (every rule but No Action).
    private struct Removal {
        var entity: EntityMapping
        var relationship: RelationshipMapping
    }

    var effects: DeletionEffects
    /// The tables rows are deleted from.
    private var tables: [String] = []
    private var removals: [Removal] = []

    static func make(for primaryKey: Int64, entity: EntityMapping, id: ObjectID, in session: WriteSession) throws -> DeletionPlan {
        let connection = session.connection
        let mapping = session.mapping
        var plan = DeletionPlan(effects: DeletionEffects(id: id.uri))
        try connection.execute("""
            CREATE TEMP TABLE IF NOT EXISTS browser_deleting (tbl TEXT NOT NULL, pk INTEGER NOT NULL, ent INTEGER NOT NULL,
                level INTEGER NOT NULL, PRIMARY KEY (tbl, pk)) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS browser_losing (tbl TEXT NOT NULL, pk INTEGER NOT NULL, ent INTEGER NOT NULL,
                inverse TEXT NOT NULL, PRIMARY KEY (tbl, pk, inverse)) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS browser_changed (tbl TEXT NOT NULL, pk INTEGER NOT NULL,
                PRIMARY KEY (tbl, pk)) WITHOUT ROWID;
            DELETE FROM temp.browser_deleting; DELETE FROM temp.browser_losing; DELETE FROM temp.browser_changed;
            """)
        _ = try connection.rows("INSERT INTO temp.browser_deleting VALUES (?, ?, ?, 0)",
                                [.text(entity.table), .integer(primaryKey), .integer(entity.number)])

        // The cascade, one level of the graph at a time: each level's records of one entity are a set, and each of
        // its Cascade relationships adds the set's targets not gathered yet as the next level.
        var level: Int64 = 0
        while true {
            let groups = try deletedGroups(level: level, in: session)
            if groups.isEmpty { break }
            for group in groups {
                for relationship in group.entity.relationships.values.sorted(by: { $0.name < $1.name })
                where relationship.deleteRule == .cascade {
                    guard let destination = mapping.entities[relationship.destination] else { continue }
                    let targets = try RelationshipPairs(relationship, of: group.entity, in: mapping).targets(of: group.rows)
                    _ = try connection.rows("INSERT OR IGNORE INTO temp.browser_deleting SELECT ?, Z_PK, Z_ENT, ? FROM "
                        + "\(quoteIdentifier(destination.table)) WHERE Z_PK IN (\(targets.sql))",
                        [.text(destination.table), .integer(level + 1)] + targets.arguments)
                }
            }
            level += 1
        }

        var cascades: [EntityCount] = []
        for row in try connection.rows("SELECT ent, count(*) FROM temp.browser_deleting WHERE level > 0 GROUP BY ent") {
            cascades.append(EntityCount(entity: try entityNamed(row[0].int64, in: mapping).name, count: Int(row[1].int64 ?? 0)))
        }
        plan.tables = try connection.rows("SELECT DISTINCT tbl FROM temp.browser_deleting ORDER BY tbl").compactMap { $0[0].string }

        var blocked: [String: [String: Int]] = [:]
        for group in try deletedGroups(level: nil, in: session) {
            for relationship in group.entity.relationships.values.sorted(by: { $0.name < $1.name }) {
                guard let destination = mapping.entities[relationship.destination] else { continue }
                let pairs = try RelationshipPairs(relationship, of: group.entity, in: mapping)
                let surviving = pairs.targets(of: group.rows, excluding: deletedKeys(in: destination.table))
                switch relationship.deleteRule {
                case .deny:
                    // Counted in pairs, as a record would count its related records one by one.
                    let held = try connection.scalar("SELECT count(*) FROM (\(surviving.sql))", surviving.arguments)?.int64 ?? 0
                    if held > 0 {
                        blocked[group.entity.name, default: [:]][relationship.name, default: 0] += Int(held)
                        continue
                    }
                case .noAction, nil:
                    continue
                default:
                    break
                }
                plan.removals.append(Removal(entity: group.entity, relationship: relationship))
                guard let inverse = WriteRefusal.inverse(of: relationship, in: mapping) else { continue }
                _ = try connection.rows("INSERT OR IGNORE INTO temp.browser_losing SELECT ?, Z_PK, Z_ENT, ? FROM "
                    + "\(quoteIdentifier(destination.table)) WHERE Z_PK IN (\(surviving.sql))",
                    [.text(destination.table), .text(inverse.name)] + surviving.arguments)
            }
        }

        // Counted in records that lose something (a tag losing four deleted books is one tag changed), as every store counts.
        var clears: [RelationshipEffect] = []
        for row in try connection.rows("SELECT tbl, ent, inverse, count(*) FROM temp.browser_losing GROUP BY tbl, ent, inverse ORDER BY tbl, ent, inverse") {
            let losing = try entityNamed(row[1].int64, in: mapping)
            let inverseName = row[2].string ?? ""
            clears.append(RelationshipEffect(entity: losing.name, relationship: inverseName, count: Int(row[3].int64 ?? 0)))
            // A surviving record whose required relationship would be left empty, or below its minimum.
            guard let inverse = losing.relationships[inverseName], let destination = mapping.entities[inverse.destination] else { continue }
            let required = !inverse.isOptional || (inverse.isToMany && inverse.minCount > 0)
            guard required else { continue }
            let remaining = try RelationshipPairs(inverse, of: losing, in: mapping)
                .count(from: "losing.pk", excluding: deletedKeys(in: destination.table))
            let below = try connection.scalar(
                "SELECT count(*) FROM temp.browser_losing AS losing WHERE tbl = ? AND ent = ? AND inverse = ? AND (\(remaining.sql)) < ?",
                [row[0], row[1], row[2]] + remaining.arguments + [.integer(Int64(max(1, inverse.minCount)))])?.int64 ?? 0
            if below > 0 { blocked[losing.name, default: [:]][inverseName, default: 0] += Int(below) }
        }
        // Two sub-entities' relationships of one name lose the same records: merged, as one relationship's count.
        var mergedClears: [String: [String: Int]] = [:]
        for clear in clears { mergedClears[clear.entity, default: [:]][clear.relationship, default: 0] += clear.count }
        plan.effects = DeletionEffects(
            id: id.uri,
            cascades: cascades,
            clears: mergedClears.flatMap { entity, counts in counts.map { RelationshipEffect(entity: entity, relationship: $0.key, count: $0.value) } },
            blockedBy: blocked.flatMap { entity, counts in counts.map { RelationshipEffect(entity: entity, relationship: $0.key, count: $0.value) } })
        return plan
    }

    /// Deletes the gathered records and unlinks them from the records that stay, which get their next version
    /// (`Z_OPT + 1`, once), as `WriteSession` versions a record whose relationship contents change. Only for a plan
    /// that nothing blocks: the required relationships of the records that stay were checked in `make`.
    func carryOut(in session: WriteSession) throws {
        let connection = session.connection
        let mapping = session.mapping
        var unlinks: [SQLFragment] = []
        for removal in removals {
            let relationship = removal.relationship
            guard let destination = mapping.entities[relationship.destination] else { continue }
            let pairs = try RelationshipPairs(relationship, of: removal.entity, in: mapping)
            let surviving = pairs.targets(of: deletedKeys(in: removal.entity.table, entity: removal.entity.number),
                                          excluding: deletedKeys(in: destination.table))
            let inverse = WriteRefusal.inverse(of: relationship, in: mapping)
            // The records that stay and lose a member: versioned when the relationship has an inverse (its
            // contents changed) or keeps the key on the target's row (the row changed).
            var storedOnTarget = false
            if case .targetsReferToSource = relationship.storage { storedOnTarget = true }
            if inverse != nil || storedOnTarget {
                _ = try connection.rows("INSERT OR IGNORE INTO temp.browser_changed SELECT ?, * FROM (\(surviving.sql))",
                                        [.text(destination.table)] + surviving.arguments)
            }
            // What to clear on the surviving targets' rows (the deleted rows go whole).
            var cleared: [String] = []
            switch relationship.storage {
            case .foreignKey:
                // A one-to-one keeps the key on both rows.
                if let inverse, !inverse.isToMany, case .foreignKey(let column, let entityColumn) = inverse.storage {
                    cleared = [column] + (entityColumn.map { [$0] } ?? [])
                }
            case .inverseForeignKey, .targetsReferToSource:
                if let inverse, case .foreignKey(let column, let entityColumn) = inverse.storage {
                    cleared = [column] + (entityColumn.map { [$0] } ?? [])
                    if relationship.isOrdered, case .targetsReferToSource(_, let order?) = relationship.storage { cleared.append(order) }
                } else if case .targetsReferToSource(let column, let order) = relationship.storage {
                    cleared = [column] + (order.map { [$0] } ?? [])
                }
            case .joinTable(let table, let sourceColumn, _, _, _):
                let sources = deletedKeys(in: removal.entity.table, entity: removal.entity.number)
                unlinks.append(SQLFragment(sql: "DELETE FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(sourceColumn)) IN (\(sources.sql))",
                                           arguments: sources.arguments))
            case .missing(let reason):
                throw BrowserError.storeFailure("\(removal.entity.name).\(relationship.name) cannot be written: \(reason)")
            }
            if !cleared.isEmpty {
                unlinks.append(SQLFragment(
                    sql: "UPDATE \(quoteIdentifier(destination.table)) SET \(cleared.map { "\(quoteIdentifier($0)) = NULL" }.joined(separator: ", ")) "
                        + "WHERE Z_PK IN (\(surviving.sql))",
                    arguments: surviving.arguments))
            }
        }
        // Every pair is read before any is removed: a later removal's pairs must still be there to be found.
        for unlink in unlinks { _ = try connection.rows(unlink.sql, unlink.arguments) }
        for table in tables {
            let keys = deletedKeys(in: table)
            _ = try connection.rows("DELETE FROM \(quoteIdentifier(table)) WHERE Z_PK IN (\(keys.sql))", keys.arguments)
        }
        for table in try connection.rows("SELECT DISTINCT tbl FROM temp.browser_changed ORDER BY tbl").compactMap({ $0[0].string }) {
            _ = try connection.rows("UPDATE \(quoteIdentifier(table)) SET Z_OPT = COALESCE(Z_OPT, 0) + 1 "
                + "WHERE Z_PK IN (SELECT pk FROM temp.browser_changed WHERE tbl = ?)", [.text(table)])
        }
        try connection.execute("DELETE FROM temp.browser_deleting; DELETE FROM temp.browser_losing; DELETE FROM temp.browser_changed")
    }

    /// The keys of the records gathered for deletion in `table` (of one entity when given).
    private static func deletedKeys(in table: String, entity: Int64? = nil) -> SQLFragment {
        guard let entity else { return SQLFragment(sql: "SELECT pk FROM temp.browser_deleting WHERE tbl = ?", arguments: [.text(table)]) }
        return SQLFragment(sql: "SELECT pk FROM temp.browser_deleting WHERE tbl = ? AND ent = ?", arguments: [.text(table), .integer(entity)])
    }

    private func deletedKeys(in table: String, entity: Int64? = nil) -> SQLFragment {
        Self.deletedKeys(in: table, entity: entity)
    }

    /// The gathered records by table and entity: those of one level of the cascade, or all of them.
    private static func deletedGroups(level: Int64?, in session: WriteSession) throws -> [(entity: EntityMapping, rows: SQLFragment)] {
        let sql = "SELECT DISTINCT tbl, ent FROM temp.browser_deleting" + (level == nil ? "" : " WHERE level = ?") + " ORDER BY tbl, ent"
        return try session.connection.rows(sql, level.map { [.integer($0)] } ?? []).map { row in
            let entity = try entityNamed(row[1].int64, in: session.mapping)
            var rows = deletedKeys(in: row[0].string ?? "", entity: entity.number)
            if let level {
                rows.sql += " AND level = ?"
                rows.arguments.append(.integer(level))
            }
            return (entity, rows)
        }
    }

    private static func entityNamed(_ number: Int64?, in mapping: StoreMapping) throws -> EntityMapping {
        guard let number, let name = mapping.entityNamesByNumber[number], let entity = mapping.entities[name] else {
            throw BrowserError.storeFailure("A record to delete has an entity number (Z_ENT \(number.map(String.init) ?? "NULL")) the model does not have")
        }
        return entity
    }
}
