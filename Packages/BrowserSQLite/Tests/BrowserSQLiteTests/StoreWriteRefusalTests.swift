import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Stores that are opened with writes on but are not written, each with the reason `/api/health` shows, and a
/// write while the app holds the store's write lock.
struct StoreWriteRefusalTests {
    static let book1 = ObjectID(storeIdentifier: LibraryStore.uuid, entity: "Book", primaryKey: 1)

    /// Opens the store for writes, expects a refusal containing `reason`, and that a write is a 403 that leaves
    /// the file as it was.
    func expectRefusal(_ synthetic: SyntheticStore, model: URL?, containing reason: String) async throws {
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: model, writes: StoreWriteOptions())
        let description = try await store.describe()
        #expect(description.capabilities == .readOnly)
        let refusal = try #require(description.writeRefusal)
        #expect(refusal.contains(reason), "\(refusal)")
        #expect(store.writeRefusal == refusal)
        var caught: BrowserError?
        do {
            try await store.update(Self.book1, expecting: 1, RecordChanges(attributes: ["title": .string("No")]))
        } catch let error as BrowserError {
            caught = error
        }
        #expect(caught?.kind == .forbidden)
        #expect(try RawDatabase(path: synthetic.storeURL.path).rows("SELECT ZTITLE, Z_OPT FROM ZBOOK WHERE Z_PK = 1")[0].map { "\($0 ?? "nil")" } == ["First", "1"])
        #expect(try await store.backupPath() == nil)
    }

    @Test func aStoreWithPersistentHistoryIsNotWritten() async throws {
        let synthetic = try LibraryStore.make(extraTables: [
            "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
            "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        ])
        try await expectRefusal(synthetic, model: synthetic.modelURL, containing: "persistent history")
    }

    @Test func aStoreWithCoreDataTriggersIsNotWritten() async throws {
        let synthetic = try LibraryStore.make(extraTables: [
            "CREATE TRIGGER Z_DA_ZLOAN_Book_loanCount_PARAMETER_INSERT AFTER INSERT ON ZLOAN FOR EACH ROW BEGIN "
                + "SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZBOOK', Z_ENT, Z_PK, 'pages', ZPAGES) FROM ZBOOK WHERE Z_PK = NEW.ZBOOK; END",
        ])
        try await expectRefusal(synthetic, model: synthetic.modelURL, containing: "triggers that call SQL functions only Core Data registers")
    }

    @Test func aStoreWhoseModelIsInferredIsNotWritten() async throws {
        let synthetic = try LibraryStore.make()
        try await expectRefusal(synthetic, model: nil, containing: "inferred from the tables")
    }

    @Test func aStoreWithColumnsTheModelLacksIsNotWritten() async throws {
        let synthetic = try LibraryStore.make(extraTables: ["ALTER TABLE ZTAG ADD COLUMN ZCOLOR VARCHAR"])
        try await expectRefusal(synthetic, model: synthetic.modelURL, containing: "ZTAG.ZCOLOR")
    }

    @Test func aReadOnlyStoreFileIsReadFromASnapshotAndNotWritten() async throws {
        let synthetic = try LibraryStore.make()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: synthetic.storeURL.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: synthetic.storeURL.path) }
        try await expectRefusal(synthetic, model: synthetic.modelURL, containing: "read-only")
    }

    /// Another process (the app) holds the write lock: the write waits the busy timeout, then fails with 503,
    /// having written nothing; once the lock is released the same write goes through.
    @Test func aWriteWhileAnotherProcessHoldsTheLockFailsCleanly() async throws {
        let synthetic = try LibraryStore.make()
        let scratch = TemporaryDirectory()
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL, writes: StoreWriteOptions())
        let before = try WriteCheck.snapshot(synthetic.storeURL, into: scratch)

        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=5, isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE ZTAG SET ZNAME = 'held' WHERE Z_PK = 1")
            print("locked", flush=True)
            sys.stdin.readline()
            db.execute("ROLLBACK")
            print("released", flush=True)
            """, synthetic.storeURL.path]
        let toHolder = Pipe()
        let fromHolder = Pipe()
        holder.standardInput = toHolder
        holder.standardOutput = fromHolder
        try ProcessLaunch.run(holder)
        let lines = ConcurrentWriterTests.LineReader(fromHolder.fileHandleForReading)
        try #require(await lines.next() == "locked")

        var caught: BrowserError?
        do {
            try await store.update(Self.book1, expecting: 1, RecordChanges(
                attributes: ["title": .string("Blocked")],
                relationships: ["tags": .toMany([ObjectID(storeIdentifier: LibraryStore.uuid, entity: "Tag", primaryKey: 2)])]))
        } catch let error as BrowserError {
            caught = error
        }
        #expect(caught?.kind == .unavailable, "\(String(describing: caught))")
        #expect(caught?.message.contains("nothing was written") == true)

        toHolder.fileHandleForWriting.write(Data("\n".utf8))
        #expect(await lines.next() == "released")
        holder.waitUntilExit()
        let unchanged = try await WriteCheck.run(model: synthetic.modelURL.appendingPathComponent("contents"), before: before, store: synthetic.storeURL)
        #expect(unchanged.passed && unchanged.output.contains(" 0 records changed"), "\(unchanged.output)")

        try await store.update(Self.book1, expecting: 1, RecordChanges(attributes: ["title": .string("Now")]))
        #expect(try await store.record(Self.book1)?.values["title"] == .string("Now"))
    }
}
