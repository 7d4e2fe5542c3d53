import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// What the content inspector shows of a real Apple Notes body: `ICNoteData.data` is gzip of a protobuf whose
/// text (field 2.3.2) must lead the report, as text, placeholders and all.
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct NotesBodyContentTests {
    /// Each note's title and snippet were written by Notes from its body, into columns beside it: the body the
    /// inspector lists first must start with the title and hold the snippet.
    @Test func eachNoteBodyIsTheLeadingStringOfItsProtobuf() async throws {
        let opened = try OpenedFixture("apple-notes-13/NoteStore.sqlite")
        let raw = try RawDatabase(path: opened.directory.path("NoteStore.sqlite").path)
        let written = try raw.rows("""
            SELECT ZNOTEDATA, ZTITLE1, ZSNIPPET FROM ZICCLOUDSYNCINGOBJECT
            WHERE ZNOTEDATA IS NOT NULL AND ZTITLE1 IS NOT NULL AND ZSNIPPET IS NOT NULL
            """)
        let noteData = Dictionary(uniqueKeysWithValues: try await opened.store.allRecords("ICNoteData").map { ($0.id.primaryKey, $0.id) })
        #expect(written.count == 6)
        var placeholders = 0
        for row in written {
            let (key, title, snippet) = (try #require(row[0] as? Int64), try #require(row[1] as? String), try #require(row[2] as? String))
            guard case .value(let reader) = try await opened.store.blob(of: try #require(noteData[key]), attribute: "data") else {
                Issue.record("ICNoteData p\(key) has no data")
                continue
            }
            let report = ContentInspector.inspect(try await reader.read(0..<reader.size))
            #expect(report.kind == .gzip, "p\(key)")
            let inner = try #require(report.inner?.report, "p\(key)")
            #expect(inner.kind == .protobuf, "p\(key)")
            #expect(report.summary.hasPrefix("gzip → protobuf “\(title.prefix(20))"), "p\(key): \(report.summary)")
            let strings = try #require(inner.tree?.children.first, "p\(key)")
            #expect(strings.type == "strings")
            let body = try #require(strings.children.first, "p\(key)")
            #expect(body.label == "2.3.2", "p\(key)")
            let text = try #require(body.value)
            #expect(text.hasPrefix(title + "\n"), "p\(key): \(text)")
            #expect(text.contains(snippet), "p\(key): \(text)")
            placeholders += text.filter { $0 == "\u{FFFC}" }.count
        }
        // Attachments stand in the text as U+FFFC, kept as text: the two tags of one note and the table of
        // another (Python counts the same three in the inflated bodies).
        #expect(placeholders == 3)
    }
}
