@testable import BrowserSQLite
import Foundation
import Testing

/// `StoreRecognition` tells a Core Data store from any other file by its content: a real store whatever its name,
/// never a plain SQLite database, a file that only starts like SQLite, a folder or a missing path.
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct StoreRecognitionTests {
    @Test func recognisesStoresByContentOnly() throws {
        let directory = TemporaryDirectory()
        // No extension at all: recognised by content.
        let store = try directory.copyStore("cartkit/swiftdata/CartKitSwiftData_v1.sqlite")
        let unnamed = directory.path("CartStorage")
        try FileManager.default.moveItem(at: store, to: unnamed)
        #expect(StoreRecognition.isCoreDataStore(at: unnamed.path))

        let plain = try RawDatabase(path: directory.path("cache.db").path)
        try plain.execute("CREATE TABLE entries (key TEXT, value BLOB)")
        #expect(!StoreRecognition.isCoreDataStore(at: directory.path("cache.db").path))
        try Data("SQLite format 3".utf8).write(to: directory.path("truncated.sqlite"))
        #expect(!StoreRecognition.isCoreDataStore(at: directory.path("truncated.sqlite").path))
        #expect(!StoreRecognition.isCoreDataStore(at: directory.url.path))
        #expect(!StoreRecognition.isCoreDataStore(at: directory.path("missing").path))
    }
}
