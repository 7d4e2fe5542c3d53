import BrowserSQLite
import CoreDataBrowser
import Foundation
import Testing

/// `GET /api/stores` on real store files, over a real socket: sizes are the files' own (the store's and its
/// `-wal`), the model is the one Core Data cached in each file, and history tracking is read from the store.
@Suite(.serialized, .enabled(if: StoreFixtures.present, "needs shared/fixtures/coredata"))
struct StoreListFileTests {
    static func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue
    }

    @Test func sizesModelEntitiesAndHistoryComeFromTheFiles() async throws {
        // A WAL-mode store whose data is mostly in its -wal (1.7 MB), without history; and SampleModel2 V1, whose
        // persistent history tables are in use (SOURCES.md §4).
        let wal = try StoreFixtures.copy("wibosco-migration/CoreDataMigration_Example_WAL.sqlite")
        let history = try StoreFixtures.copy("coredataplus/SampleModel2/SampleModel2_V1.sqlite")
        defer {
            for url in [wal, history] { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        }
        func served(_ url: URL) -> ServedStore {
            ServedStore(name: url.lastPathComponent, kind: .file, file: url, open: { try SQLiteStore.open(storeAt: url) })
        }
        let server = CoreDataBrowserServer(stores: [served(wal), served(history)], options: .forTests())
        defer { server.stop() }
        let client = TestClient(base: try #require(URL(string: "http://127.0.0.1:\(try server.start().port)")))

        let reply = try await client.get("/api/stores")
        #expect(reply.status == 200)
        let stores = try #require(try reply.object()["stores"] as? [[String: Any]])
        try #require(stores.count == 2)
        let (walStore, historyStore) = (stores[0], stores[1])

        // The sizes of the files as they are now; the WAL one's -wal is left as it was (read-only: never checkpointed).
        #expect(walStore["bytes"] as? Int == (try Self.size(wal.path)))
        #expect(walStore["walBytes"] as? Int == (try Self.size(wal.path + "-wal")))
        #expect(walStore["walBytes"] as? Int == (try Self.size(StoreFixtures.root.appendingPathComponent(
            "wibosco-migration/CoreDataMigration_Example_WAL.sqlite-wal").path)))
        #expect(historyStore["bytes"] as? Int == (try Self.size(history.path)))
        // V1 ships in WAL mode without a -wal: nothing pending.
        let historyWAL = FileManager.default.fileExists(atPath: history.path + "-wal") ? try Self.size(history.path + "-wal") : 0
        #expect(historyStore["walBytes"] as? Int == historyWAL)
        #expect(walStore["path"] as? String == wal.path)

        #expect((walStore["model"] as? [String: Any])?["source"] as? String == "store-cache")
        #expect((historyStore["model"] as? [String: Any])?["source"] as? String == "store-cache")
        // Z_PRIMARYKEY's entities below 16000 (the history tables' are 16001–16003): Color and Post; Book,
        // GraphicNovel, Feedback, Page, Writer and Author.
        #expect(walStore["entityCount"] as? Int == 2)
        #expect(historyStore["entityCount"] as? Int == 6)
        #expect(walStore["historyTracked"] as? Bool == false)
        #expect(historyStore["historyTracked"] as? Bool == true)
        #expect(walStore["error"] == nil || walStore["error"] is NSNull)
    }
}
