import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// A WAL store in a folder this process may not write is read from a private snapshot (the -shm cannot be made
/// beside it); the snapshot is taken again when the app commits, so new rows still appear.
struct SnapshotModeTests {
    @Test func aReadOnlyFolderIsSnapshottedAndTheSnapshotFollowsCommits() async throws {
        let rows = (1...10).map { ItemRow(key: Int64($0), title: "row \($0)", special: false) }
        let synthetic = try ItemStore.make(rows, walMode: true)
        let folder = synthetic.directory.url.path
        // Read-only by its permission bits (respected even by root, see StoreFiles.companionsAreWritable).
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }

        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        #expect(store.accessDescription == "private snapshot")
        #expect(try await store.count(of: "Item") == 10)
        let before = try await store.changeToken()
        #expect(try await store.changeToken() == before) // unchanged files: the same snapshot

        // The app (another process) commits; the folder is made writable for it, as the app's own would be.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try ReadCacheTests.write("INSERT INTO ZITEM VALUES (11, 1, 1, 'row 11'); INSERT INTO ZITEM VALUES (12, 1, 1, 'row 12')", to: synthetic)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)

        #expect(try await store.count(of: "Item") == 12)
        #expect(try await store.changeToken() != before)
        let newest = try await store.page(RecordQuery(entity: "Item", tieBreak: .descending, limit: 1))
        #expect(newest.records.first?.values["title"] == .string("row 12"))
    }
}
