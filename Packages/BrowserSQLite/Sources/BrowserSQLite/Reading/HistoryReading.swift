import BrowserCore
import Foundation

/// Reads Core Data's persistent history from the store's own tables (format doc §11, docs/decisions/history.md):
/// `ATRANSACTION` (one row per saved transaction: timestamp and who saved), `ATRANSACTIONSTRING` (the author,
/// bundle ID, process ID and context name strings the transactions point to) and `ACHANGE` (one row per object
/// inserted, updated or deleted: its entity number and primary key, and for updates a bitmap of the properties
/// that changed).
///
/// What was verified on Apple-written stores (CartKit SwiftData, CoreDataPlus SampleModel2, Notes): the three
/// tables' layout, transactions' timestamps in reference-date seconds, bundle and process IDs through the string
/// table, inserts, and updates' `ZCOLUMNS` bitmaps, decoded into property names by `ChangedPropertySlots` (format
/// doc §11.1). A bitmap that does not fit the model's layout is handed out as its set bits' positions instead, and
/// the answer's notes say so. The columns `ACHANGE` has beyond the eight known ones are taken as the tombstone Core
/// Data keeps of a deleted object, named by their column (no store at hand has one).
struct HistoryReader: Sendable {
    let storeIdentifier: String
    private let entityNames: [Int64: String]
    private let entityNumbers: [String: Int64]
    /// SQL for each transaction string (author, bundle ID, process ID, context name), over `t` and the joins.
    private let authorSQL: String
    private let bundleSQL: String
    private let processSQL: String
    private let contextSQL: String
    private let joins: String
    private let hasTimestamp: Bool
    private let hasColumns: Bool
    private let tombstoneColumns: [String]
    /// Nil when the model was inferred from the tables: it lacks what the bitmap's layout rests on (inverses,
    /// ordering, every to-many), so no bitmap is decoded.
    let slots: ChangedPropertySlots?

    static let transactionTable = "ATRANSACTION"
    static let changeTable = "ACHANGE"
    static let stringTable = "ATRANSACTIONSTRING"
    /// The columns of `ACHANGE` whose meaning is known; any other holds a tombstone value.
    private static let knownChangeColumns: Set<String> = [
        "Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS",
    ]
    /// At most this many distinct authors and context names are listed for a client's menus.
    static let maximumNames = 200

    static let bitsNote = "Some updates' changed properties are given as bit positions (changedBits) of Core Data's "
        + "per-change bitmap (ACHANGE.ZCOLUMNS, bit 0 = the high bit of the first byte), not as names: their bitmap "
        + "does not fit the layout this model gives the entity (a row written under another model version, or an "
        + "entity whose layout is not known), so no names are guessed."
    static let inferredModelNote = "Which properties an update changed is given as bit positions (changedBits) of "
        + "Core Data's per-change bitmap (ACHANGE.ZCOLUMNS): the model was inferred from the tables, and the names "
        + "behind the bits need the real model (open the store with its model, or one that caches it)."

    /// The reader, or nil when the store has no history tables (history tracking was never on).
    /// `model` is the model `mapping` was built from, nil when it was inferred from the tables.
    init?(catalog: StoreCatalog, mapping: StoreMapping, model: ModelDefinition?) {
        guard let transactions = catalog.table(Self.transactionTable), let changes = catalog.table(Self.changeTable),
              ["ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"].allSatisfy({ changes.column($0) != nil })
        else { return nil }
        storeIdentifier = catalog.uuid
        entityNames = mapping.entityNamesByNumber
        entityNumbers = Dictionary(mapping.entityNamesByNumber.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })

        // Each string is kept inline (`ZAUTHOR`) or, in the stores seen, as a key into the string table
        // (`ZAUTHORTS`); either may be absent in a given framework version.
        let strings = catalog.table(Self.stringTable) != nil
        var joins = ""
        func stringSQL(_ column: String, alias: String) -> String {
            var parts: [String] = []
            if transactions.column(column) != nil { parts.append("t.\(column)") }
            if strings, transactions.column(column + "TS") != nil {
                joins += " LEFT JOIN \(Self.stringTable) \(alias) ON \(alias).Z_PK = t.\(column)TS"
                parts.append("\(alias).ZNAME")
            }
            switch parts.count {
            case 0: return "NULL"
            case 1: return parts[0]
            default: return "coalesce(\(parts.joined(separator: ", ")))"
            }
        }
        authorSQL = stringSQL("ZAUTHOR", alias: "sa")
        bundleSQL = stringSQL("ZBUNDLEID", alias: "sb")
        processSQL = stringSQL("ZPROCESSID", alias: "sp")
        contextSQL = stringSQL("ZCONTEXTNAME", alias: "sc")
        self.joins = joins
        hasTimestamp = transactions.column("ZTIMESTAMP") != nil
        hasColumns = changes.column("ZCOLUMNS") != nil
        tombstoneColumns = changes.columns.map(\.name).filter { !Self.knownChangeColumns.contains($0.uppercased()) }
        slots = model.map { ChangedPropertySlots(model: $0, mapping: mapping) }
    }

    func read(_ query: HistoryQuery, in connection: SQLiteConnection) throws -> HistoryPage {
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        let order: String
        switch query.window {
        case .newestFirst(let before):
            order = "DESC"
            if let before {
                conditions.append("t.Z_PK < ?")
                arguments.append(.integer(before))
            }
        case .oldestFirst(let after):
            order = "ASC"
            conditions.append("t.Z_PK > ?")
            arguments.append(.integer(after))
        case .transaction(let number):
            order = "ASC"
            conditions.append("t.Z_PK = ?")
            arguments.append(.integer(number))
        }
        if let author = query.author {
            conditions.append("\(authorSQL) = ?")
            arguments.append(.text(author))
        }
        if let context = query.contextName {
            conditions.append("\(contextSQL) = ?")
            arguments.append(.text(context))
        }
        let entityNumbers = entityCondition(query.entities)
        if let entityNumbers {
            conditions.append("EXISTS (SELECT 1 FROM \(Self.changeTable) c WHERE c.ZTRANSACTIONID = t.Z_PK AND c.ZENTITY IN (\(entityNumbers)))")
        }
        let sql = """
            SELECT t.Z_PK, \(hasTimestamp ? "t.ZTIMESTAMP" : "NULL"), \(authorSQL), \(bundleSQL), \(processSQL), \(contextSQL)
            FROM \(Self.transactionTable) t\(joins)
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY t.Z_PK \(order) LIMIT ?
            """
        arguments.append(.integer(Int64(query.limit) + 1))
        let rows = try connection.rows(sql, arguments)
        var transactions: [HistoryTransaction] = []
        var sawBits = false
        for row in rows.prefix(query.limit) {
            guard let number = row[0].int64 else { continue }
            let (changes, count) = try self.changes(of: number, query: query, entityNumbers: entityNumbers, in: connection)
            sawBits = sawBits || changes.contains { $0.changedPropertyBits != nil }
            transactions.append(HistoryTransaction(
                number: number, timestamp: ValueDecoder.referenceDate(row[1]), author: row[2].string, bundleID: row[3].string,
                processID: row[4].string, contextName: row[5].string, changes: changes, changeCount: count))
        }
        return HistoryPage(
            transactions: transactions, hasMore: rows.count > query.limit,
            authors: try names(authorSQL, in: connection), contextNames: try names(contextSQL, in: connection),
            notes: sawBits ? [slots == nil ? Self.inferredModelNote : Self.bitsNote] : [])
    }

    /// A page of one transaction's changes (of the query's entities) and how many it has.
    private func changes(of transaction: Int64, query: HistoryQuery, entityNumbers: String?,
                         in connection: SQLiteConnection) throws -> ([HistoryChange], Int) {
        let filter = "ZTRANSACTIONID = ?" + (entityNumbers.map { " AND ZENTITY IN (\($0))" } ?? "")
        let count = try connection.scalar("SELECT count(*) FROM \(Self.changeTable) WHERE \(filter)", [.integer(transaction)])?.int64 ?? 0
        guard count > query.changeOffset else { return ([], Int(count)) }
        let extra = ([hasColumns ? "ZCOLUMNS" : "NULL"] + tombstoneColumns.map(quoteIdentifier)).joined(separator: ", ")
        let rows = try connection.rows(
            "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, \(extra) FROM \(Self.changeTable) WHERE \(filter) ORDER BY Z_PK LIMIT ? OFFSET ?",
            [.integer(transaction), .integer(Int64(query.changeLimit)), .integer(Int64(query.changeOffset))])
        var changes: [HistoryChange] = []
        for row in rows {
            guard let type = row[0].int64, let kind = HistoryChange.Kind(rawValue: Int(type)),
                  let entityNumber = row[1].int64, let key = row[2].int64 else { continue }
            // An entity the model does not name (a history row of a since-deleted entity) keeps its number.
            let entity = entityNames[entityNumber] ?? "Entity\(entityNumber)"
            var change = HistoryChange(kind: kind, id: ObjectID(storeIdentifier: storeIdentifier, entity: entity, primaryKey: key))
            if kind == .update, case .blob(let bitmap) = row[3] {
                if let names = slots?.changedProperties(bitmap, entity: entity) {
                    change.changedProperties = names
                } else {
                    change.changedPropertyBits = ChangedPropertySlots.setBits(bitmap)
                }
            }
            if kind == .delete {
                var tombstone: [String: AttributeValue] = [:]
                for (index, column) in tombstoneColumns.enumerated() {
                    let value = ValueDecoder.asStored(row[4 + index])
                    if value != .null { tombstone[column] = value }
                }
                if !tombstone.isEmpty { change.tombstone = tombstone }
            }
            changes.append(change)
        }
        return (changes, Int(count))
    }

    /// The distinct non-empty values of one transaction string, sorted.
    private func names(_ expression: String, in connection: SQLiteConnection) throws -> [String] {
        guard expression != "NULL" else { return [] }
        let rows = try connection.rows(
            "SELECT DISTINCT \(expression) AS name FROM \(Self.transactionTable) t\(joins) WHERE name IS NOT NULL AND name <> '' ORDER BY name LIMIT ?",
            [.integer(Int64(Self.maximumNames))])
        return rows.compactMap { $0[0].string }
    }

    /// `IN` list of the query's entity numbers (integers from the model, safe to inline), nil for every entity.
    private func entityCondition(_ entities: [String]?) -> String? {
        guard let entities else { return nil }
        let numbers = entities.compactMap { entityNumbers[$0] }
        return numbers.isEmpty ? "NULL" : numbers.map(String.init).joined(separator: ", ")
    }
}
