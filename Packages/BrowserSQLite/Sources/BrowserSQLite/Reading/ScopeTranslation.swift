import BrowserCore

/// Translates a `RelationshipScope` ("the records Author p3 reaches through books") into a condition on the
/// destination's table, so a scoped list is an ordinary page of that table: filtered, sorted, counted and paged
/// by the same SQL as any list, on the foreign-key or join-table index.
///
/// `table` is the quoted name of the table the page reads, which the conditions use to refer to its current row.
/// The source record's existence is checked by BrowserCore before a scoped query reaches the store.
struct ScopeTranslation {
    /// `Z_PK`-side condition on the destination table's rows, with its bound arguments.
    var condition: String
    var arguments: [SQLiteValue]
    /// For an ordered relationship: an expression giving each row's place in the relationship (its order column),
    /// which a page without a sort is ordered by.
    var order: (sql: String, arguments: [SQLiteValue])?

    init(_ scope: RelationshipScope, mapping: StoreMapping, table: String) throws {
        guard let source = mapping.entities[scope.source.entity],
              let relationship = source.relationships[scope.relationship] else {
            throw BrowserError.notFound("\(scope.source.entity) has no relationship \"\(scope.relationship)\"")
        }
        let key = SQLiteValue.integer(scope.source.primaryKey)
        let row = "\(table).\"Z_PK\""
        switch relationship.storage {
        case .foreignKey(let column, let entityColumn):
            // A to-one kept on the source: the row its column names (and, with sub-entities, of the entity the
            // entity column names).
            let sourceTable = quoteIdentifier(source.table)
            condition = "\(row) = (SELECT \(quoteIdentifier(column)) FROM \(sourceTable) WHERE \"Z_PK\" = ?)"
            arguments = [key]
            if let entityColumn {
                condition += " AND \(table).\"Z_ENT\" = (SELECT \(quoteIdentifier(entityColumn)) FROM \(sourceTable) WHERE \"Z_PK\" = ?)"
                arguments.append(key)
            }
        case .inverseForeignKey(let column):
            condition = "\(table).\(quoteIdentifier(column)) = ?"
            arguments = [key]
        case .targetsReferToSource(let column, let orderColumn):
            condition = "\(table).\(quoteIdentifier(column)) = ?"
            arguments = [key]
            if scope.isOrdered, let orderColumn {
                order = ("\(table).\(quoteIdentifier(orderColumn))", [])
            }
        case .joinTable(let joinTable, let sourceColumn, let targetColumn, let orderColumn, let reflexive):
            let join = quoteIdentifier(joinTable)
            let sourceKey = quoteIdentifier(sourceColumn), targetKey = quoteIdentifier(targetColumn)
            if reflexive {
                // A relationship that is its own inverse may hold a pair in either column.
                condition = "\(row) IN (SELECT \(targetKey) FROM \(join) WHERE \(sourceKey) = ? UNION SELECT \(sourceKey) FROM \(join) WHERE \(targetKey) = ?)"
                arguments = [key, key]
            } else {
                condition = "\(row) IN (SELECT \(targetKey) FROM \(join) WHERE \(sourceKey) = ?)"
                arguments = [key]
                if scope.isOrdered, let orderColumn {
                    order = ("(SELECT j.\(quoteIdentifier(orderColumn)) FROM \(join) AS j WHERE j.\(sourceKey) = ? AND j.\(targetKey) = \(row))", [key])
                }
            }
        case .missing(let reason):
            throw SQLiteStoreError.relationshipUnreadable(entity: source.name, relationship: scope.relationship, reason: reason)
        }
    }
}
