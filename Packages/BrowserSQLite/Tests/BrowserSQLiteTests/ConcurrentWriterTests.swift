import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Another process writes a WAL-mode store (as the app does) while we read it. The two take turns through a pipe,
/// so the overlap is certain rather than a matter of timing: we read while the writer holds an open write
/// transaction (we see the last commit, do not block, and the writer then commits without waiting), and after each
/// commit we see the new row at once.
struct ConcurrentWriterTests {
    static let steps = 20

    /// The writer: python3's sqlite3 module. For each step it opens a write transaction, inserts a row, says
    /// "open" and waits for a line; commits, says "committed" and waits again.
    static let writerScript = """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], timeout=5, isolation_level=None)
    for key in range(2, 2 + int(sys.argv[2])):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (?, 1, 1, ?)", (key, "row %d" % key))
        db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", (key,))
        print("open", flush=True)
        sys.stdin.readline()
        db.execute("COMMIT")
        print("committed", flush=True)
        sys.stdin.readline()
    print("done", flush=True)
    """

    /// Lines from a pipe, read off the cooperative pool (a blocking read must not hold one of its threads).
    final class LineReader: @unchecked Sendable {
        private let handle: FileHandle
        private var buffer = Data()

        init(_ handle: FileHandle) { self.handle = handle }

        func next() async -> String? {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    while true {
                        if let newline = self.buffer.firstIndex(of: 0x0A) {
                            let line = String(decoding: self.buffer[..<newline], as: UTF8.self)
                            self.buffer.removeSubrange(...newline)
                            continuation.resume(returning: line)
                            return
                        }
                        let chunk = self.handle.availableData
                        if chunk.isEmpty {
                            continuation.resume(returning: nil)
                            return
                        }
                        self.buffer.append(chunk)
                    }
                }
            }
        }
    }

    @Test func readsWhileAnotherProcessWritesTheWAL() async throws {
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
        writer.arguments = ["python3", "-c", Self.writerScript, synthetic.storeURL.path, String(Self.steps)]
        let toWriter = Pipe()
        let fromWriter = Pipe()
        let errors = Pipe()
        writer.standardInput = toWriter
        writer.standardOutput = fromWriter
        writer.standardError = errors
        try ProcessLaunch.run(writer)
        let lines = LineReader(fromWriter.fileHandleForReading)
        func proceed() { toWriter.fileHandleForWriting.write(Data("\n".utf8)) }
        func newest() async throws -> RecordPage {
            try await store.page(RecordQuery(entity: "Item", tieBreak: .descending, limit: 1))
        }

        for step in 0..<Self.steps {
            let committedRows = 1 + step
            // The writer holds an open write transaction with one more row: we read the last commit, unblocked.
            try #require(await lines.next() == "open", "writer did not open step \(step)")
            #expect(try await store.count(of: "Item") == committedRows)
            #expect(try await newest().total == committedRows)
            proceed()
            // It committed (without waiting for us): the new row is there at once.
            try #require(await lines.next() == "committed", "writer did not commit step \(step)")
            #expect(try await store.count(of: "Item") == committedRows + 1)
            let page = try await newest()
            #expect(page.total == committedRows + 1)
            #expect(page.records.first?.values["title"] == .string("row \(committedRows + 1)"))
            proceed()
        }
        #expect(await lines.next() == "done")
        writer.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(writer.terminationStatus == 0, "writer failed (was it blocked by the reader?): \(log)")
        #expect(try await store.count(of: "Item") == 1 + Self.steps)
        #expect(try await store.changeToken() != tokenBefore)
    }
}
