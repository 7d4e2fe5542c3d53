import CSQLite

/// Counts the rows whose text column contains a folded needle (`CONTAINS[cd]`, the search box's filter) by reading
/// the column alone and folding and matching each text right where SQLite hands it over
/// (`FoldedContainsFunction.contains`, the very test `cdb_contains` runs in SQL, so the count is exactly
/// `SELECT COUNT(*) … WHERE cdb_contains(column, ?)`'s), with no SQL function called per row.
///
/// Why: a new search's total is a scan of the whole table, which SQLite steps through on one core (about 55% of the
/// time) while the fold and match take most of the rest. With a `ScanPartner` (a store read in place, a table whose
/// keys span at least `ScanPartner.minimumRows` values) the table is read in two halves of its primary key at once,
/// each half stepped, folded and matched on its own core and connection, in the request's snapshot. A new search's
/// page comes from the same read (`matches`, `PagePlan.Route.searchScan`).
struct SearchCounting {
    let column: String
    let foldedNeedle: [UInt8]

    /// What one read of the column found: how many rows match, and the keys of the first `keysWanted` of them.
    struct Matches: Sendable {
        var count = 0
        var keys: [Int64] = []
    }

    /// The rows of `table` matching `condition` (the entity's rows, or nil for all) whose column contains the
    /// needle, read in the caller's read transaction (and the partner's, in the same snapshot).
    func count(table: String, condition: String?, arguments: [SQLiteValue], in connection: SQLiteConnection,
               partner: ScanPartner?) throws -> Int {
        try matches(table: table, condition: condition, arguments: arguments, keysWanted: 0, descending: false,
                    in: connection, partner: partner).count
    }

    /// The count, and the primary keys of the first `keysWanted` matching rows in primary-key order (`descending`:
    /// from the last key down), from one read of the table: a new search's first page and its total together.
    func matches(table: String, condition: String?, arguments: [SQLiteValue], keysWanted: Int, descending: Bool,
                 in connection: SQLiteConnection, partner: ScanPartner?) throws -> Matches {
        let whereClause = condition.map { " WHERE " + $0 } ?? ""
        if let partner, let halves = try partner.halves(of: table, in: connection, minimumSpan: partner.minimumRows, { connection, range in
            try self.matches(table: table, whereClause: range.adding(to: whereClause), arguments: arguments + range.arguments,
                             keysWanted: keysWanted, descending: descending, in: connection)
        }) {
            let (first, second) = descending ? (halves.upper, halves.lower) : (halves.lower, halves.upper)
            return Matches(count: first.count + second.count, keys: Array((first.keys + second.keys).prefix(keysWanted)))
        }
        return try matches(table: table, whereClause: whereClause, arguments: arguments, keysWanted: keysWanted,
                           descending: descending, in: connection)
    }

    private func matches(table: String, whereClause: String, arguments: [SQLiteValue], keysWanted: Int, descending: Bool,
                         in connection: SQLiteConnection) throws -> Matches {
        let withKeys = keysWanted > 0
        let statement = try connection.prepare("SELECT \(withKeys ? "\"Z_PK\", " : "")\(quoteIdentifier(column)) FROM \(table)\(whereClause)"
            + (withKeys ? " ORDER BY \"Z_PK\" \(descending ? "DESC" : "ASC")" : ""))
        try statement.bind(arguments)
        let textColumn: Int32 = withKeys ? 1 : 0
        var found = Matches()
        try foldedNeedle.withUnsafeBytes { needle in
            while try statement.step() {
                // NULL and non-text values never match (`cdb_contains` answers 0 for them). The text as UTF-8, as
                // SQLite hands it to a function registered for UTF-8; valid until the next step.
                guard statement.storageClass(at: textColumn) == SQLITE_TEXT else { continue }
                let text = sqlite3_column_text(statement.handle, textColumn)
                let length = text == nil ? 0 : Int(sqlite3_column_bytes(statement.handle, textColumn))
                guard FoldedContainsFunction.contains(UnsafeRawBufferPointer(start: text, count: length), needle) else { continue }
                found.count += 1
                if found.keys.count < keysWanted { found.keys.append(sqlite3_column_int64(statement.handle, 0)) }
            }
        }
        return found
    }
}
