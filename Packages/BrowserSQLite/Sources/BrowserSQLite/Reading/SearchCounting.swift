import CSQLite

/// Counts the rows whose text column contains a folded needle (`CONTAINS[cd]`, the search box's filter) by reading
/// the column alone and folding and matching each text right where SQLite hands it over
/// (`FoldedContainsFunction.contains`, the very test `cdb_contains` runs in SQL, so the count is exactly
/// `SELECT COUNT(*) … WHERE cdb_contains(column, ?)`'s), with no SQL function called per row.
///
/// Why: a new search's total is a scan of the whole table, which SQLite steps through on one core (about 55% of the
/// time) while the fold and match take most of the rest. With a `ScanPartner` (a store read in place, a table of
/// at least `ScanPartner.minimumRows` keys) the table is read in two halves of its primary key at once, each
/// half stepped, folded and matched on its own core and connection, in the request's snapshot.
struct SearchCounting {
    let column: String
    let foldedNeedle: [UInt8]

    /// The rows of `table` matching `condition` (the entity's rows, or nil for all) whose column contains the
    /// needle, read in the caller's read transaction (and the partner's, in the same snapshot).
    func count(table: String, condition: String?, arguments: [SQLiteValue], in connection: SQLiteConnection,
               partner: ScanPartner?) throws -> Int {
        let whereClause = condition.map { " WHERE " + $0 } ?? ""
        if let partner, let halves = try partner.halves(of: table, in: connection, minimumSpan: partner.minimumRows, { connection, range in
            try self.count(table: table, whereClause: range.adding(to: whereClause), arguments: arguments + range.arguments, in: connection)
        }) {
            return halves.lower + halves.upper
        }
        return try count(table: table, whereClause: whereClause, arguments: arguments, in: connection)
    }

    private func count(table: String, whereClause: String, arguments: [SQLiteValue], in connection: SQLiteConnection) throws -> Int {
        let statement = try connection.prepare("SELECT \(quoteIdentifier(column)) FROM \(table)\(whereClause)")
        try statement.bind(arguments)
        var matches = 0
        try foldedNeedle.withUnsafeBytes { needle in
            while try statement.step() {
                // NULL and non-text values never match (`cdb_contains` answers 0 for them). The text as UTF-8, as
                // SQLite hands it to a function registered for UTF-8; valid until the next step.
                guard statement.storageClass(at: 0) == SQLITE_TEXT else { continue }
                let text = sqlite3_column_text(statement.handle, 0)
                let length = text == nil ? 0 : Int(sqlite3_column_bytes(statement.handle, 0))
                if FoldedContainsFunction.contains(UnsafeRawBufferPointer(start: text, count: length), needle) { matches += 1 }
            }
        }
        return matches
    }
}
