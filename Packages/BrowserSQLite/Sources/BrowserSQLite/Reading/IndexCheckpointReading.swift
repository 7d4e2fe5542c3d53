import BrowserCore

extension RecordReader {
    /// The page of `query` (one indexed attribute, no filter or scope, far from the start) read from the nearest
    /// kept row of the index's order (`IndexCheckpoints`): the same rows as `ORDER BY <column>, Z_PK LIMIT ?
    /// OFFSET ?` (`PagePlanner`), found by seeking in the index to a kept (value, key) and stepping over fewer than
    /// `KeyCheckpoints.stride` entries. A descending page counts from the end (the total is known).
    func indexedDeepPage(_ query: RecordQuery, from checkpoints: IndexCheckpoints, of entity: EntityMapping,
                         in connection: SQLiteConnection) throws -> [StoredRecord] {
        let stride = KeyCheckpoints.stride
        let descending = query.tieBreak == .descending
        // The ascending position of the page's first row.
        let start = descending ? checkpoints.rowCount - 1 - query.offset : query.offset
        guard query.limit > 0, start >= 0, start < checkpoints.rowCount, !checkpoints.entries.isEmpty else { return [] }
        let index = min(start / stride, checkpoints.entries.count - 1)
        let column = quoteIdentifier(checkpoints.key.column)

        // The page's first row: from the checkpoint, `skip` entries on (the index covers the value and the key).
        let skip = start - index * stride
        var anchor: IndexCheckpoints.Entry?
        var stepped = 0
        for part in orderedRange(from: checkpoints.entries[index], descending: false, of: entity, column: column) {
            let statement = try connection.prepare("SELECT \(column), \"Z_PK\" \(part.sql)")
            try statement.bind(part.arguments + [.integer(Int64(skip + 1 - stepped))])
            while try statement.step() {
                stepped += 1
                if stepped == skip + 1 {
                    anchor = IndexCheckpoints.Entry(value: statement.value(at: 0), key: statement.value(at: 1).int64 ?? 0)
                }
            }
            if anchor != nil { break }
        }
        guard let anchor else { return [] }

        let projection = projection(for: entity, previewBytes: query.valuePreviewBytes)
        var records: [StoredRecord] = []
        for part in orderedRange(from: anchor, descending: descending, of: entity, column: column) where records.count < query.limit {
            records += try fetch("SELECT \(projection.selectList()) \(part.sql)",
                                 part.arguments + [.integer(Int64(query.limit - records.count))],
                                 projection: projection, fallback: entity, connection)
        }
        return records
    }

    /// The FROM … ORDER BY … LIMIT ? parts that list the entity's rows from `row` on (it included), in the
    /// column's order (nulls first ascending, last descending, ties by `Z_PK` in the same direction), one after
    /// the other. A row value comparison `(column, Z_PK) >= (?, ?)` is a seek in the index; it is never true for a
    /// null, so the nulls are a part of their own (`column IS NULL`, in key order: the index's order there too).
    private func orderedRange(from row: IndexCheckpoints.Entry, descending: Bool, of entity: EntityMapping,
                              column: String) -> [(sql: String, arguments: [SQLiteValue])] {
        var entityArguments: [SQLiteValue] = []
        let restriction = rowCondition(of: entity, arguments: &entityArguments).map { " AND " + $0 } ?? ""
        let table = "FROM \(quoteIdentifier(entity.table)) WHERE "
        let direction = descending ? "DESC" : "ASC"
        let valueOrder = " ORDER BY \(column) \(direction), \"Z_PK\" \(direction) LIMIT ?"
        let keyOrder = " ORDER BY \"Z_PK\" \(direction) LIMIT ?"
        let key = SQLiteValue.integer(row.key)
        let values = (table + "(\(column), \"Z_PK\") \(descending ? "<=" : ">=") (?, ?)" + restriction + valueOrder,
                      [row.value, key] + entityArguments)
        let nulls = (table + "\(column) IS NULL AND \"Z_PK\" \(descending ? "<=" : ">=") ?" + restriction + keyOrder,
                     [key] + entityArguments)
        switch (row.value, descending) {
        case (.null, false):
            return [nulls, (table + "\(column) IS NOT NULL" + restriction + valueOrder, entityArguments)]
        case (.null, true):
            return [nulls]
        case (_, false):
            return [values]
        case (_, true):
            return [values, (table + "\(column) IS NULL" + restriction + keyOrder, entityArguments)]
        }
    }
}
