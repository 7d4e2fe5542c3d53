import BrowserCore
import Foundation

/// Turns a `StatementTrace` into what `/api/entities/:name/explain` shows: each statement with SQLite's
/// `EXPLAIN QUERY PLAN` for the same SQL and values (https://www.sqlite.org/eqp.html), the indexes it uses, the
/// tables it reads whole and its temporary sorts; then hints in the model's terms.
enum QueryPlanReading {
    static func statement(_ entry: StatementTrace.Entry, in connection: SQLiteConnection) throws -> ExplainedStatementDTO {
        // Columns: id, parent, notused, detail. A node's depth is its parent's plus one.
        let rows = try connection.rows("EXPLAIN QUERY PLAN " + entry.sql, entry.arguments)
        var depth: [Int64: Int] = [0: -1]
        var plan: [String] = []
        var indexes: [String] = []
        var fullScans: [String] = []
        var temporarySort = false
        for row in rows {
            let id = row[0].int64 ?? 0
            let level = (depth[row[1].int64 ?? 0] ?? -1) + 1
            depth[id] = level
            let detail = row[3].string ?? ""
            plan.append(String(repeating: "  ", count: level) + detail)
            if let index = usedIndex(in: detail), !indexes.contains(index) { indexes.append(index) }
            if let table = scannedTable(in: detail), !fullScans.contains(table) { fullScans.append(table) }
            if detail.contains("USE TEMP B-TREE FOR ORDER BY") { temporarySort = true }
        }
        return ExplainedStatementDTO(
            sql: entry.sql, arguments: entry.arguments.map(\.literal), rows: entry.rows,
            milliseconds: Double(entry.nanoseconds) / 1e6, plan: plan, indexes: indexes, fullScans: fullScans,
            temporarySort: temporarySort)
    }

    /// `… USING [COVERING] INDEX name …`, or the table's own key order.
    static func usedIndex(in detail: String) -> String? {
        if detail.contains("USING INTEGER PRIMARY KEY") { return "the primary key (Z_PK)" }
        for marker in ["USING COVERING INDEX ", "USING INDEX "] {
            if let range = detail.range(of: marker) {
                return String(detail[range.upperBound...].prefix { $0 != " " })
            }
        }
        return nil
    }

    /// The table of a `SCAN <table>` node that uses no index (newer SQLite) or `SCAN TABLE <table>` (older).
    static func scannedTable(in detail: String) -> String? {
        guard detail.hasPrefix("SCAN "), !detail.contains(" USING ") else { return nil }
        let words = detail.split(separator: " ")
        guard words.count >= 2 else { return nil }
        let name = words[1] == "TABLE" && words.count >= 3 ? words[2] : words[1]
        return String(name)
    }

    /// What would make the list faster, in the model's terms.
    static func hints(for query: RecordQuery, entity: EntityMapping, rowCount: Int,
                      statements: [ExplainedStatementDTO], in connection: SQLiteConnection) throws -> [QueryHintDTO] {
        var hints: [QueryHintDTO] = []
        if let sort = query.sortKeys.first, !sort.countsRelationship, let column = entity.attribute(named: sort.attribute)?.column,
           !entity.isIndexed(column) {
            let name = "by" + sort.attribute.prefix(1).uppercased() + sort.attribute.dropFirst()
            hints.append(QueryHintDTO(
                text: "Sorting \(entity.name) by \(sort.attribute) reads all \(rowCount) rows and sorts them "
                    + "(until its order, built in the background after the first request of this sort, is kept in memory): "
                    + "a fetch index on \(entity.name).\(sort.attribute) lets SQLite read them in order.",
                modelEditor: """
                    <fetchIndex name="\(name)">
                        <fetchIndexElement property="\(sort.attribute)" type="Binary" order="ascending"/>
                    </fetchIndex>
                    """,
                swiftData: "#Index<\(entity.name)>([\\.\(sort.attribute)])"))
        }
        if query.matchFilter != nil, statements.contains(where: { $0.fullScans.contains(entity.table) }) {
            hints.append(QueryHintDTO(
                text: "A text search reads every \(entity.name) row: no index can answer \"contains\" (Core Data's "
                    + "CONTAINS[cd] reads every row too). Searching one attribute, chosen beside the search box, "
                    + "reads less of each row."))
        }
        return hints
    }
}
