import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Another process writes a WAL-mode store (as the app does) while we read it: reads never fail, never block
/// the writer, see a consistent, growing row count, and see every row once the writer is done.
struct ConcurrentWriterTests {
    static let rowsToWrite = 400

    /// The writer: python3's sqlite3 module, one short transaction per row, as an app saving often would.
    static let writerScript = """
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], timeout=5, isolation_level=None)
    for key in range(2, 2 + int(sys.argv[2])):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (?, 1, 1, ?)", (key, "row %d" % key))
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", (key,))
        db.execute("COMMIT")
        time.sleep(0.002)
    print("wrote", sys.argv[2])
    """

    @Test func readsWhileAnotherProcessAppendsToTheWAL() async throws {
        let synthetic = try SyntheticStore(
            entities: [.init(number: 1, name: "Item")],
            tables: ["CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )"],
            modelXML: SyntheticStore.modelXML("""
                <entity name="Item" representedClassName="Item" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """),
            walMode: true
        ) { database in
            try database.run("INSERT INTO ZITEM VALUES (1, 1, 1, 'first')", [])
        }
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        #expect(store.accessDescription == "in place (read-only)")
        #expect(try await store.count(of: "Item") == 1)
        let tokenBefore = try await store.changeToken()

        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["python3", "-c", Self.writerScript, synthetic.storeURL.path, String(Self.rowsToWrite)]
        let output = Pipe()
        writer.standardOutput = output
        writer.standardError = output
        try writer.run()

        // Read as fast as we can while it writes: every read succeeds and counts never go backwards.
        var counts: [Int] = []
        while writer.isRunning {
            let count = try await store.count(of: "Item")
            let page = try await store.page(RecordQuery(entity: "Item", order: .descending, limit: 5))
            #expect(page.total >= count, "a later read saw fewer rows than an earlier one")
            counts.append(page.total)
        }
        writer.waitUntilExit()
        let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(writer.terminationStatus == 0, "writer failed (was it blocked by the reader?): \(log)")
        #expect(counts == counts.sorted(), "row counts went backwards: \(counts)")
        #expect(counts.count > 1, "the reader did not overlap the writer")

        // After the writer is done, a refresh sees every row, newest first.
        #expect(try await store.count(of: "Item") == 1 + Self.rowsToWrite)
        let newest = try await store.page(RecordQuery(entity: "Item", order: .descending, limit: 1))
        #expect(newest.records.first?.values["title"] == .string("row \(1 + Self.rowsToWrite)"))
        #expect(try await store.changeToken() != tokenBefore)
    }
}
