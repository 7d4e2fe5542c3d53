import BrowserCore
import CSQLite

/// A record's row: its root entity's table and its `Z_PK` (unique within the table, format doc §6).
struct RowKey: Hashable, Sendable {
    var table: String
    var primaryKey: Int64
}

/// One write request's work inside its transaction: the SQL it runs and what it changed, so that every record it
/// changed gets exactly one new version (`finish`). Used on the store's queue only, inside `StoreConnection.write`.
///
/// **Which records change** (and get `Z_OPT + 1`, once per request): a record whose row's columns change (an
/// attribute, a foreign key, an order key) and a record whose relationship contents change, also through an
/// inverse (the old and the new partner of a to-one, the targets added to or removed from a to-many). A record
/// inserted starts at `Z_OPT` 1; a record deleted is gone. Core Data does the same: every object its save touches
/// is in `updatedObjects` and gets a new optimistic-locking version.
final class WriteSession {
    let connection: SQLiteConnection
    let mapping: StoreMapping
    let storeIdentifier: String
    private(set) var changed: Set<RowKey> = []
    var inserted: Set<RowKey> = []
    var deleted: Set<RowKey> = []
    /// Relationships whose contents the request changed, per record: checked against the model's optional, minimum
    /// and maximum rules before the commit (`requiredRelationshipProblems`), as Core Data validates a save.
    private(set) var touched: [RowKey: Set<String>] = [:]

    init(connection: SQLiteConnection, mapping: StoreMapping, storeIdentifier: String) {
        self.connection = connection
        self.mapping = mapping
        self.storeIdentifier = storeIdentifier
    }

    func markChanged(_ row: RowKey) { changed.insert(row) }

    func markTouched(_ row: RowKey, _ relationship: String) {
        touched[row, default: []].insert(relationship)
        changed.insert(row)
    }

    // MARK: Rows

    /// The entity of the row (its `Z_ENT`) and its version, or nil when the table has no such row.
    func row(_ primaryKey: Int64, in table: String) throws -> (entity: EntityMapping, version: Int64)? {
        guard let found = try connection.rows("SELECT Z_ENT, Z_OPT FROM \(quoteIdentifier(table)) WHERE Z_PK = ?",
                                              [.integer(primaryKey)]).first,
              let number = found[0].int64, let name = mapping.entityNamesByNumber[number],
              let entity = mapping.entities[name]
        else { return nil }
        return (entity, found[1].int64 ?? 0)
    }

    /// The entity of a row that must exist (a target found through a relationship's storage).
    func entity(of primaryKey: Int64, in table: String) throws -> EntityMapping {
        guard let found = try row(primaryKey, in: table) else {
            throw BrowserError.storeFailure("\(table) has no row \(primaryKey), though a relationship refers to it")
        }
        return found.entity
    }

    /// Sets columns of one row; true when a value differed (the row changed).
    @discardableResult
    func set(_ values: [(column: String, value: SQLiteValue)], of primaryKey: Int64, in table: String) throws -> Bool {
        guard !values.isEmpty else { return false }
        let assignments = values.map { "\(quoteIdentifier($0.column)) = ?" }.joined(separator: ", ")
        // Only a row whose values differ is written, so an unchanged record keeps its version. `IS NOT` compares
        // with the column's affinity, so 10 and 10.0 are the same value.
        let differs = values.map { "\(quoteIdentifier($0.column)) IS NOT ?" }.joined(separator: " OR ")
        let statement = try connection.prepare("UPDATE \(quoteIdentifier(table)) SET \(assignments) WHERE Z_PK = ? AND (\(differs))")
        try statement.bind(values.map(\.value) + [.integer(primaryKey)] + values.map(\.value))
        _ = try statement.step()
        let wrote = sqlite3_changes(connection.handle) > 0
        if wrote { changed.insert(RowKey(table: table, primaryKey: primaryKey)) }
        return wrote
    }

    // MARK: Finishing

    /// Gives every changed record still in the store its next version: `Z_OPT + 1`, once.
    func bumpVersions() throws {
        for row in changed.subtracting(inserted).subtracting(deleted).sorted(by: { ($0.table, $0.primaryKey) < ($1.table, $1.primaryKey) }) {
            _ = try connection.rows("UPDATE \(quoteIdentifier(row.table)) SET Z_OPT = COALESCE(Z_OPT, 0) + 1 WHERE Z_PK = ?",
                                    [.integer(row.primaryKey)])
        }
    }

    /// The model's rules for every relationship the request changed on a record still in the store: a required
    /// one is not empty, a to-many holds between its minimum and maximum. Core Data refuses such a save; so does
    /// this writer. Each problem names the record and the relationship.
    func requiredRelationshipProblems() throws -> [(row: RowKey, entity: EntityMapping, relationship: RelationshipMapping, message: String)] {
        var problems: [(RowKey, EntityMapping, RelationshipMapping, String)] = []
        for (row, names) in touched.sorted(by: { ($0.key.table, $0.key.primaryKey) < ($1.key.table, $1.key.primaryKey) })
        where !deleted.contains(row) {
            guard let entity = try self.row(row.primaryKey, in: row.table)?.entity else { continue }
            for name in names.sorted() {
                guard let relationship = entity.relationships[name] else { continue }
                let count = try targets(of: row.primaryKey, entity: entity, through: relationship).count
                let record = ObjectID(storeIdentifier: storeIdentifier, entity: entity.name, primaryKey: row.primaryKey).uri
                if !relationship.isOptional, count == 0 {
                    problems.append((row, entity, relationship, "it would leave \(record)'s required \(name) empty"))
                } else if relationship.isToMany, relationship.minCount > 0, count < relationship.minCount {
                    problems.append((row, entity, relationship, "it would leave \(record)'s \(name) with \(count) records, below the model's minimum of \(relationship.minCount)"))
                } else if relationship.isToMany, let maximum = relationship.maxCount, maximum > 0, count > maximum {
                    problems.append((row, entity, relationship, "it would give \(record)'s \(name) \(count) records, above the model's maximum of \(maximum)"))
                }
            }
        }
        return problems
    }
}
