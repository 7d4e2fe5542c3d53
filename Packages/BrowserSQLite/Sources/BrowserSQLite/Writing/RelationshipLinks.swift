import BrowserCore

/// Both sides of a relationship, written as Core Data stores them (format doc §8): a to-one's foreign key with the
/// `Z<n>_<R>` entity column when the destination has sub-entities, both columns of a one-to-one, a one-to-many's
/// foreign key (and its `Z_FOK_` order key when the to-many is ordered) on the targets' rows, a to-many without
/// inverse's `Z<n><R>` column on the targets' rows, and many-to-many join table rows with their order keys.
///
/// `link` and `unlink` add or remove one pair (source, target) and record which records changed; `setContents`
/// replaces a relationship's contents and keeps every to-one exclusive (a target taken from its old partner).
extension WriteSession {
    /// The records the relationship holds for the source row, in relationship order when it is ordered.
    func targets(of source: Int64, entity: EntityMapping, through relationship: RelationshipMapping) throws -> [Int64] {
        guard let destination = mapping.entities[relationship.destination] else { return [] }
        let subtree = destination.subtreeNumbers.map(String.init).joined(separator: ", ")
        let sql: String
        switch relationship.storage {
        case .foreignKey(let column, _):
            sql = "SELECT \(quoteIdentifier(column)) FROM \(quoteIdentifier(entity.table)) WHERE Z_PK = ? AND \(quoteIdentifier(column)) IS NOT NULL"
        case .inverseForeignKey(let column):
            sql = "SELECT Z_PK FROM \(quoteIdentifier(destination.table)) WHERE \(quoteIdentifier(column)) = ? AND Z_ENT IN (\(subtree)) ORDER BY Z_PK"
        case .targetsReferToSource(let column, let order):
            sql = "SELECT Z_PK FROM \(quoteIdentifier(destination.table)) WHERE \(quoteIdentifier(column)) = ? AND Z_ENT IN (\(subtree)) ORDER BY "
                + (order.map { "\(quoteIdentifier($0)), " } ?? "") + "Z_PK"
        case .joinTable(let table, let sourceColumn, let targetColumn, let order, _):
            sql = "SELECT \(quoteIdentifier(targetColumn)) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(sourceColumn)) = ? ORDER BY "
                + (order.map { "\(quoteIdentifier($0)), " } ?? "") + quoteIdentifier(targetColumn)
        case .missing(let reason):
            throw BrowserError.storeFailure("\(entity.name).\(relationship.name) cannot be written: \(reason)")
        }
        return try connection.rows(sql, [.integer(source)]).compactMap { $0[0].int64 }
    }

    /// Replaces the relationship's contents on the source row with `newTargets` (in order for an ordered one).
    func setContents(of source: Int64, entity: EntityMapping, _ relationship: RelationshipMapping, to newTargets: [Int64]) throws {
        let current = try targets(of: source, entity: entity, through: relationship)
        let unchanged = relationship.isOrdered ? current == newTargets
            : current.count == newTargets.count && Set(current) == Set(newTargets)
        if unchanged { return }
        let keep = Set(newTargets)
        for removed in current where !keep.contains(removed) {
            try unlink(source, entity: entity, relationship, removed)
        }
        let had = Set(current)
        for added in newTargets where !had.contains(added) {
            try takeForLink(source, entity: entity, relationship, added)
            try link(source, entity: entity, relationship, added)
        }
        if relationship.isOrdered, relationship.isToMany {
            try reorder(source, entity: entity, relationship, newTargets)
        }
        markTouched(RowKey(table: entity.table, primaryKey: source), relationship.name)
    }

    /// Before the pair (source, target) is linked, frees what a to-one allows only once: the source's current
    /// target of a to-one, the target's current partner when the inverse is a to-one, and the target's current
    /// source of a to-many without inverse (its one `Z<n><R>` column).
    private func takeForLink(_ source: Int64, entity: EntityMapping, _ relationship: RelationshipMapping, _ target: Int64) throws {
        if !relationship.isToMany {
            for current in try targets(of: source, entity: entity, through: relationship) where current != target {
                try unlink(source, entity: entity, relationship, current)
            }
        }
        guard let destination = mapping.entities[relationship.destination] else { return }
        let targetEntity = try self.entity(of: target, in: destination.table)
        if let inverse = WriteRefusal.inverse(of: relationship, in: mapping) {
            guard !inverse.isToMany else { return }
            for partner in try targets(of: target, entity: targetEntity, through: inverse) where partner != source {
                try unlink(partner, entity: try self.entity(of: partner, in: entity.table), relationship, target)
            }
        } else if case .targetsReferToSource(let column, _) = relationship.storage,
                  let holder = try connection.scalar("SELECT \(quoteIdentifier(column)) FROM \(quoteIdentifier(destination.table)) WHERE Z_PK = ?",
                                                     [.integer(target)])?.int64,
                  holder != source {
            try unlink(holder, entity: try self.entity(of: holder, in: entity.table), relationship, target)
        }
    }

    /// Adds the pair to both sides' storage. An ordered to-many gets the new member at its end.
    func link(_ source: Int64, entity: EntityMapping, _ relationship: RelationshipMapping, _ target: Int64) throws {
        try write(source, entity: entity, relationship, target, linking: true)
    }

    /// Removes the pair from both sides' storage.
    func unlink(_ source: Int64, entity: EntityMapping, _ relationship: RelationshipMapping, _ target: Int64) throws {
        try write(source, entity: entity, relationship, target, linking: false)
    }

    private func write(_ source: Int64, entity: EntityMapping, _ relationship: RelationshipMapping, _ target: Int64, linking: Bool) throws {
        guard let destination = mapping.entities[relationship.destination] else { return }
        let inverse = WriteRefusal.inverse(of: relationship, in: mapping)
        let sourceRow = RowKey(table: entity.table, primaryKey: source)
        let targetRow = RowKey(table: destination.table, primaryKey: target)
        let sourceNumber = try self.entity(of: source, in: entity.table).number
        let targetNumber = try self.entity(of: target, in: destination.table).number

        switch relationship.storage {
        case .foreignKey(let column, let entityColumn):
            // The to-one side holds the key; an ordered to-many inverse keeps its order key on the same row.
            var values: [(column: String, value: SQLiteValue)] = [(column, linking ? .integer(target) : .null)]
            if let entityColumn { values.append((entityColumn, linking ? .integer(targetNumber) : .null)) }
            if let inverse, inverse.isOrdered, case .targetsReferToSource(_, let order?) = inverse.storage {
                values.append((order, linking ? try nextOrderKey(order, in: entity.table, where: column, is: target) : .null))
            }
            try set(values, of: source, in: entity.table)
            if let inverse, !inverse.isToMany, case .foreignKey(let inverseColumn, let inverseEntityColumn) = inverse.storage {
                var mirror: [(column: String, value: SQLiteValue)] = [(inverseColumn, linking ? .integer(source) : .null)]
                if let inverseEntityColumn { mirror.append((inverseEntityColumn, linking ? .integer(sourceNumber) : .null)) }
                try set(mirror, of: target, in: destination.table)
            }
        case .inverseForeignKey, .targetsReferToSource:
            if let inverse, case .foreignKey = inverse.storage {
                // The inverse to-one on the target's row holds the key: the same pair seen from the other side.
                try write(target, entity: try self.entity(of: target, in: destination.table), inverse, source, linking: linking)
                markTouched(sourceRow, relationship.name)
                return
            }
            guard case .targetsReferToSource(let column, let order) = relationship.storage else {
                throw BrowserError.storeFailure("\(entity.name).\(relationship.name) has no storage this writer knows")
            }
            // A to-many without inverse: `Z<n><R>` on the target's row.
            var values: [(column: String, value: SQLiteValue)] = [(column, linking ? .integer(source) : .null)]
            if let order { values.append((order, linking ? try nextOrderKey(order, in: destination.table, where: column, is: source) : .null)) }
            try set(values, of: target, in: destination.table)
        case .joinTable(let table, let sourceColumn, let targetColumn, let order, _):
            if linking {
                var columns = [sourceColumn, targetColumn]
                var values: [SQLiteValue] = [.integer(source), .integer(target)]
                if let order {
                    columns.append(order)
                    values.append(try nextOrderKey(order, in: table, where: sourceColumn, is: source))
                }
                if let inverse, inverse.isOrdered, case .joinTable(_, _, _, let inverseOrder?, _) = inverse.storage, inverseOrder != order {
                    columns.append(inverseOrder)
                    values.append(try nextOrderKey(inverseOrder, in: table, where: targetColumn, is: target))
                }
                _ = try connection.rows("INSERT INTO \(quoteIdentifier(table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) "
                    + "VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))", values)
            } else {
                _ = try connection.rows("DELETE FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(sourceColumn)) = ? AND \(quoteIdentifier(targetColumn)) = ?",
                                        [.integer(source), .integer(target)])
            }
        case .missing(let reason):
            throw BrowserError.storeFailure("\(entity.name).\(relationship.name) cannot be written: \(reason)")
        }
        markTouched(sourceRow, relationship.name)
        if let inverse { markTouched(targetRow, inverse.name) }
    }

    /// The key after the group's last one (`Z_FOK_…` keys are sparse sort keys, format doc §8): a new member goes
    /// to the end.
    private func nextOrderKey(_ order: String, in table: String, where column: String, is owner: Int64) throws -> SQLiteValue {
        let last = try connection.scalar("SELECT max(\(quoteIdentifier(order))) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) = ?",
                                         [.integer(owner)])?.int64 ?? 0
        return .integer(last + 1)
    }

    /// Gives an ordered to-many's members the keys 1…n in the order asked for, rewriting only keys that differ.
    private func reorder(_ source: Int64, entity: EntityMapping, _ relationship: RelationshipMapping, _ order: [Int64]) throws {
        guard try targets(of: source, entity: entity, through: relationship) != order else { return }
        for (index, target) in order.enumerated() {
            let key = SQLiteValue.integer(Int64(index + 1))
            switch relationship.storage {
            case .targetsReferToSource(_, let column?):
                guard let destination = mapping.entities[relationship.destination] else { continue }
                try set([(column, key)], of: target, in: destination.table)
            case .joinTable(let table, let sourceColumn, let targetColumn, let column?, _):
                _ = try connection.rows("UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(column)) = ? WHERE \(quoteIdentifier(sourceColumn)) = ? AND \(quoteIdentifier(targetColumn)) = ?",
                                        [key, .integer(source), .integer(target)])
            default:
                return
            }
        }
    }
}
