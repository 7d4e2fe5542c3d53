import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// `SearchCounting` (a search's total read as one column, folded and matched as it is read, in two halves at
/// once with a `ScanPartner`) counts exactly what
/// `SELECT COUNT(*) … WHERE cdb_contains(column, ?)` counts, and what `TextFolding.contains` says row by row:
/// text off and on the byte fast path (Hangul, combining marks, emoji), NULLs, a blob stored in the text column,
/// a sub-entity's rows only; on one connection and in two halves read at once.
struct SearchCountingTests {
    static let texts: [String?] = [
        "Café crème", "CAFE", "cafe\u{301}", "caf", nil, "Straße", "STRASSE", "strasse", "한국어 카페", "카페",
        "emoji 👩‍💻 café", "Ωμέγα", "ωμεγα", "日本の本", "", "naïve", "NAIVE", "ﬁle", "file",
    ]

    static func makeStore() throws -> (SyntheticStore, [ItemRow]) {
        var rows = (0..<600).map { index in
            ItemRow(key: Int64(index + 1), title: texts[index % texts.count].map { "\(index % 7) \($0)" }, special: index % 3 == 0)
        }
        rows.append(ItemRow(key: 10_000, title: "cafe", special: false))
        let synthetic = try ItemStore.make(rows)
        // A blob in the text column ("cafe"'s bytes; the column's TEXT affinity would turn a number into text):
        // never a match, as in SQL.
        let database = try RawDatabase(path: synthetic.storeURL.path)
        try database.execute("INSERT INTO ZITEM VALUES (20001, 1, 1, X'63616665')")
        return (synthetic, rows)
    }

    @Test(arguments: ["cafe", "CAFÉ", "strasse", "카페", "ωμεγα", "本", "naive", "file", "", "👩‍💻", "no such text"])
    func countsAsSQLAndAsTextFolding(needle: String) async throws {
        let (synthetic, rows) = try Self.makeStore()
        let connection = try SQLiteConnection(path: synthetic.storeURL.path, readOnly: true)
        try FoldedContainsFunction.register(on: connection)
        let folded = TextFolding.fold(needle, options: .caseAndDiacriticInsensitive)
        for (entity, condition, arguments) in [("Item", nil as String?, [] as [SQLiteValue]), ("Special", "\"Z_ENT\" = ?", [.integer(2)])] {
            let members = rows.filter { entity == "Item" || $0.special }
            let expected = members.filter { $0.title.map { TextFolding.contains($0, needle) } ?? false }.count
            let sql = try connection.scalar("SELECT COUNT(*) FROM \"ZITEM\" WHERE \(condition.map { $0 + " AND " } ?? "")"
                + "cdb_contains(\"ZTITLE\", ?)", arguments + [.text(folded)])?.int64
            #expect(sql == Int64(expected), "\(entity) \(needle)")
            let counting = SearchCounting(column: "ZTITLE", foldedNeedle: Array(folded.utf8))
            #expect(try counting.count(table: "\"ZITEM\"", condition: condition, arguments: arguments, in: connection, partner: nil) == expected,
                    "\(entity) \(needle) on one connection")
            // Through the store: a new search's first page and total come from one read of the column
            // (`PagePlan.Route.searchScan`), in two halves (the partner lowered to split these few rows), then on
            // one connection.
            let query = RecordQuery(entity: entity, search: RecordSearch(text: needle, attributes: ["title"]), limit: 1)
            for minimumRows in [1, Int.max] {
                // A store each: the count is kept per filter until the data changes.
                let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
                let partner = try #require(store.scanPartner)
                partner.minimumRows = minimumRows
                #expect(try await store.page(query).total == expected, "\(entity) \(needle) page, partner from \(minimumRows) rows")
                #expect(partner.partCounts() == (minimumRows == 1 ? 1 : 0, 0), "\(entity) \(needle)")
            }
        }
    }
}
