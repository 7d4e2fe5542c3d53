import BrowserCore

/// A relationship's (source, target) pairs as SQL over sets of source rows, for writes that work on many records
/// at once (`DeletionPlan`): one statement reads the pairs of every source in a set, instead of one query per
/// source. The parts follow the relationship's storage (format doc §8), as `WriteSession.targets` reads one
/// source's.
struct RelationshipPairs {
    /// The one table the pairs are read from.
    let table: String
    /// The column (expression over `table`) holding the pair's source and target keys.
    let source: String
    let target: String
    /// A condition every pair meets (the destination's entities, a non-null key), with its arguments.
    let condition: String
    let arguments: [SQLiteValue]

    init(_ relationship: RelationshipMapping, of entity: EntityMapping, in mapping: StoreMapping) throws {
        guard let destination = mapping.entities[relationship.destination] else {
            throw BrowserError.storeFailure("\(entity.name).\(relationship.name) has no destination in the store's mapping")
        }
        switch relationship.storage {
        case .foreignKey(let column, _):
            table = entity.table
            source = "Z_PK"
            target = quoteIdentifier(column)
            condition = "\(quoteIdentifier(column)) IS NOT NULL"
            arguments = []
        case .inverseForeignKey(let column), .targetsReferToSource(let column, _):
            table = destination.table
            source = quoteIdentifier(column)
            target = "Z_PK"
            condition = "Z_ENT IN (\(destination.subtreeNumbers.map { _ in "?" }.joined(separator: ", ")))"
            arguments = destination.subtreeNumbers.map { .integer($0) }
        case .joinTable(let joinTable, let sourceColumn, let targetColumn, _, _):
            table = joinTable
            source = quoteIdentifier(sourceColumn)
            target = quoteIdentifier(targetColumn)
            condition = "1"
            arguments = []
        case .missing(let reason):
            throw BrowserError.storeFailure("\(entity.name).\(relationship.name) cannot be written: \(reason)")
        }
    }

    /// `SELECT <target>` of the pairs whose source is in `sources` (a query of one column) and, when given, whose
    /// target is not in `excluded` (another).
    func targets(of sources: SQLFragment, excluding excluded: SQLFragment? = nil) -> SQLFragment {
        var sql = "SELECT \(target) FROM \(quoteIdentifier(table)) WHERE \(source) IN (\(sources.sql)) AND \(condition)"
        var arguments = sources.arguments + self.arguments
        if let excluded {
            sql += " AND \(target) NOT IN (\(excluded.sql))"
            arguments += excluded.arguments
        }
        return SQLFragment(sql: sql, arguments: arguments)
    }

    /// `SELECT count(*)` of the pairs of the one source `source` (an expression of the enclosing query, such as a
    /// correlated column) whose target is not in `excluded`.
    func count(from source: String, excluding excluded: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "SELECT count(*) FROM \(quoteIdentifier(table)) WHERE \(self.source) = \(source) AND \(condition) "
                        + "AND \(target) NOT IN (\(excluded.sql))",
                    arguments: arguments + excluded.arguments)
    }
}

/// A piece of SQL and the values it binds, in order.
struct SQLFragment {
    var sql: String
    var arguments: [SQLiteValue]
}
