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

    /// Matches the model to the store's tables (`StoreMappingBuilder`).
    static func build(model: ModelDefinition, catalog: StoreCatalog) -> StoreMapping {
        var builder = StoreMappingBuilder(model: model, catalog: catalog)
        return builder.build()
    }

    /// Transient attributes and ObjectID attributes (transient by nature) have no column (format doc §7).
    static func isStored(_ attribute: AttributeDefinition) -> Bool {
        !attribute.isTransient && attribute.type != .objectID
    }

    /// A join table's column: the expected name, or that name with the numeric suffix Core Data adds to repeated
    /// join-column names (`Z_34REPRESENTATIVEASSETS1`) when exactly one such column exists in this join table.
    static func joinColumn(_ expected: String, in table: StoreCatalog.Table) -> String? {
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
