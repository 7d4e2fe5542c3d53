import BrowserCore
@testable import BrowserSQLite
import CSQLite
import Foundation
import Testing

/// `SQLiteStore.explain`: the statements a page really ran, with SQLite's plan for each — checked against the
/// plan a separate raw connection gives for the same SQL with the reported values written in — and the store's
/// own routes (kept order, key checkpoints, kept counts) named as they serve.
struct ExplainTests {
    /// `EXPLAIN QUERY PLAN` details from a connection of the test's own, for `sql` with its `?`s replaced by the
    /// reported literals (valid SQL by construction).
    static func rawPlan(_ statement: ExplainedStatementDTO, path: String) throws -> [String] {
        var literals = statement.arguments.makeIterator()
        let sql = statement.sql.split(separator: "?", omittingEmptySubsequences: false).enumerated().map { index, part in
            index == 0 ? String(part) : (literals.next() ?? "NULL") + part
        }.joined()
        // A connection of its own, with the one SQL function a search calls; the statement is prepared with the
        // C API from the literal SQL, never through the store's binding.
        let database = try SQLiteConnection(path: path, readOnly: true)
        try FoldedContainsFunction.register(on: database)
        var handle: OpaquePointer?
        guard sqlite3_prepare_v2(database.handle, "EXPLAIN QUERY PLAN " + sql, -1, &handle, nil) == SQLITE_OK, let handle else {
            throw RawDatabase.Failure(description: String(cString: sqlite3_errmsg(database.handle)))
        }
        defer { sqlite3_finalize(handle) }
        var details: [String] = []
        while sqlite3_step(handle) == SQLITE_ROW { details.append(String(cString: sqlite3_column_text(handle, 3))) }
        return details
    }

    @Test func anUnindexedSortIsExplainedAndItsIndexSuggested() async throws {
        let synthetic = try ItemStore.make((1...3_000).map { ItemRow(key: Int64($0), title: "item \($0 % 97)", special: $0 % 5 == 0) })
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL)
        let query = RecordQuery(entity: "Item", sortKeys: [SortKey(attribute: "title", order: .ascending)], limit: 25, offset: 50)

        let first = try await store.explain(query)
        #expect(first.engine.hasPrefix("SQLite 3."))
        #expect(first.total == 3_000)
        #expect(first.steps.contains("Page: one SQL query with LIMIT and OFFSET; SQLite sorts every row's key, then reads the page's "
            + "records by key. The order of Item by title is now built in the background, and later pages of this sort read by key."))
        let page = try #require(first.statements.first { $0.sql.hasSuffix("LIMIT ? OFFSET ?") })
        #expect(page.sql.hasSuffix("ORDER BY \"ZITEM\".\"ZTITLE\" ASC, \"ZITEM\".\"Z_PK\" ASC LIMIT ? OFFSET ?"))
        #expect(page.arguments == ["25", "50"])
        #expect(page.rows == 25)
        #expect(page.temporarySort && page.fullScans == ["ZITEM"])
        #expect(page.plan.map { $0.trimmingCharacters(in: .whitespaces) } == (try Self.rawPlan(page, path: synthetic.storeURL.path)))
        let hint = try #require(first.hints.first)
        #expect(hint.text.hasPrefix("Sorting Item by title reads all 3000 rows and sorts them"))
        #expect(hint.swiftData == "#Index<Item>([\\.title])")
        #expect(hint.modelEditor?.contains("<fetchIndexElement property=\"title\" type=\"Binary\" order=\"ascending\"/>") == true)

        // Once the order built in the background is kept, pages read by key.
        await store.backgroundWorkFinished()
        let second = try await store.explain(query)
        #expect(second.steps.contains { $0.hasPrefix("Page: the keys of Item in title order are kept in memory (3000 keys") })
        #expect(second.statements.count == 1 && second.statements[0].indexes == ["the primary key (Z_PK)"])
        // The page the kept order serves is the SQL order's: titles by their bytes, then keys.
        let rows: [(key: Int64, title: [UInt8])] = (1...3_000).map { (Int64($0), Array("item \($0 % 97)".utf8)) }
        let ordered = rows.sorted { left, right in
            left.title == right.title ? left.key < right.key : left.title.lexicographicallyPrecedes(right.title)
        }
        let expected = ordered.dropFirst(50).prefix(25).map(\.key)
        #expect(try await store.page(query).records.map(\.id.primaryKey) == Array(expected))
    }

    @Test func aSearchIsExplainedWithItsValuesAndItsTotalsRoute() async throws {
        let synthetic = try ItemStore.make((1...600).map { ItemRow(key: Int64($0), title: $0 % 3 == 0 ? "Ünïcode \($0)" : "plain \($0)", special: false) })
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL)
        var query = RecordQuery(entity: "Item", search: RecordSearch(text: "unicode", attributes: ["title"]), limit: 50)
        let explained = try await store.explain(query)
        #expect(explained.total == 200)
        // A new search of the search box's kind is one read of the column, folded and matched as it is read
        // (SearchCounting), which gives the total and the page's keys together; on one connection, as 600 rows
        // are too few to read in two halves (the bounds of the table's keys say so). Then the page's records.
        #expect(explained.steps.contains { $0.hasPrefix("Page: a new search in primary-key order: one read of ZTITLE") })
        #expect(explained.statements.map(\.sql).dropLast() == [
            "SELECT (SELECT min(\"Z_PK\") FROM \"ZITEM\"), (SELECT max(\"Z_PK\") FROM \"ZITEM\")",
            "SELECT \"Z_PK\", \"ZTITLE\" FROM \"ZITEM\" ORDER BY \"Z_PK\" ASC",
        ])
        #expect(explained.statements.last?.sql.contains("WHERE \"Z_PK\" IN (?") == true)
        // Any other filter is counted in SQL.
        let other = try await store.explain(RecordQuery(entity: "Item", filter: .any([.contains("title", "unicode"), .contains("title", "zzz")]), limit: 50))
        #expect(other.total == 200 && other.steps.contains("Total: counted with one query."))
        #expect(other.statements.count == 2 && other.statements.allSatisfy { $0.arguments.contains("'unicode'") })
        // A predicate of the search box's shape is still a predicate, not the search: read and counted in SQL. (Another
        // needle: the search's total, kept by the same SQL, would answer this one.)
        let predicate = try await store.explain(RecordQuery(entity: "Item", filter: .contains("title", "icode"), limit: 50))
        #expect(predicate.total == 200 && predicate.steps.contains("Total: counted with one query."))
        #expect(!predicate.steps.contains { $0.hasPrefix("Page: a new search") })
        for statement in explained.statements {
            #expect(statement.plan.map { $0.trimmingCharacters(in: .whitespaces) } == (try Self.rawPlan(statement, path: synthetic.storeURL.path)))
        }
        #expect(explained.hints.map(\.text).first?.hasPrefix("A text search reads every Item row") == true)
        query.offset = 50
        #expect(try await store.explain(query).steps.contains("Total: kept from an earlier page of the same list (until the data changes)."))
        let deep = try await store.explain(RecordQuery(entity: "Item", limit: 10, offset: 520))
        #expect(deep.steps.contains { $0.hasPrefix("Page: primary-key order far from the start") })
    }
}
