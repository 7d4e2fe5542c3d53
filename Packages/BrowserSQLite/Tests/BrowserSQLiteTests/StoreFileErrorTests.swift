import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// Files that cannot be served get one precise, typed error naming the file and what is wrong with it.
struct StoreFileErrorTests {
    static func openError(_ url: URL, model: URL? = nil) -> SQLiteStoreError? {
        do {
            _ = try SQLiteStore.open(storeAt: url, model: model)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFile() {
        let directory = TemporaryDirectory()
        let url = directory.path("nothing.sqlite")
        #expect(Self.openError(url) == .fileMissing(path: url.path))
        #expect(Self.openError(url)?.description == "No such file: \(url.path)")
    }

    @Test func textFileIsNotSQLite() throws {
        let directory = TemporaryDirectory()
        let url = directory.path("notes.sqlite")
        try Data("just some notes, not a database\n".utf8).write(to: url)
        guard case .notSQLite(let path, _) = Self.openError(url) else {
            Issue.record("expected notSQLite, got \(String(describing: Self.openError(url)))")
            return
        }
        #expect(path == url.path)
    }

    @Test func directoryIsNotSQLite() {
        let directory = TemporaryDirectory()
        guard case .notSQLite = Self.openError(directory.url) else {
            Issue.record("expected notSQLite, got \(String(describing: Self.openError(directory.url)))")
            return
        }
    }

    @Test func sqliteWithoutCoreDataTables() throws {
        let directory = TemporaryDirectory()
        let url = directory.path("plain.sqlite")
        let database = try RawDatabase(path: url.path)
        try database.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)")
        #expect(Self.openError(url) == .notCoreDataStore(path: url.path, missingTable: "Z_PRIMARYKEY"))
        #expect(Self.openError(url)?.description == "\(url.path) is an SQLite database but not a Core Data store (no Z_PRIMARYKEY table)")
    }

    @Test func truncatedStore() throws {
        let synthetic = try SyntheticValueTests.makeStore()
        let bytes = try Data(contentsOf: synthetic.storeURL)
        #expect(bytes.count > 4096)
        try bytes.prefix(bytes.count - 1024).write(to: synthetic.storeURL)
        guard case .corrupt(let path, _) = Self.openError(synthetic.storeURL) else {
            Issue.record("expected corrupt, got \(String(describing: Self.openError(synthetic.storeURL)))")
            return
        }
        #expect(path == synthetic.storeURL.standardizedFileURL.path)
    }

    @Test func overwrittenPagesAreCorruptOrUnreadableNeverACrash() throws {
        let synthetic = try SyntheticValueTests.makeStore()
        var bytes = try Data(contentsOf: synthetic.storeURL)
        // Keep the 100-byte header valid, scribble over every page after the first.
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: synthetic.storeURL)
        switch Self.openError(synthetic.storeURL) {
        case .corrupt, .notCoreDataStore, .unreadable: break
        case let other: Issue.record("expected a corrupt-store error, got \(String(describing: other))")
        }
    }

    @Test func unreadableModelFile() throws {
        let synthetic = try SyntheticValueTests.makeStore()
        let model = synthetic.directory.path("Broken.mom")
        try Data("not a model".utf8).write(to: model)
        guard case .modelUnreadable(let path, _) = Self.openError(synthetic.storeURL, model: model) else {
            Issue.record("expected modelUnreadable, got \(String(describing: Self.openError(synthetic.storeURL, model: model)))")
            return
        }
        #expect(path.hasSuffix("Broken.mom"))
    }

    @Test func modelOfAnotherStoreIsAMismatch() throws {
        // The store has Item; this model only knows Playlist and Song.
        let synthetic = try SyntheticValueTests.makeStore()
        let other = try SyntheticRelationshipTests.makePlaylistStore(joinTable: "Z_1SONGS")
        guard case .modelMismatch(let modelPath, let details) = Self.openError(synthetic.storeURL, model: other.modelURL) else {
            Issue.record("expected modelMismatch, got \(String(describing: Self.openError(synthetic.storeURL, model: other.modelURL)))")
            return
        }
        #expect(modelPath.hasSuffix("Model.xcdatamodel"))
        #expect(details.contains("entity Song missing from the store"))
    }

    @Test(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
    func realModelOfAnotherAppIsAMismatch() throws {
        let directory = TemporaryDirectory()
        let store = try directory.copyStore("wibosco-migration/CoreDataMigration_Example_1.sqlite")
        let model = Fixtures.url("bnr-coredatastack/Sample.xcdatamodeld")
        guard case .modelMismatch = Self.openError(store, model: model) else {
            Issue.record("expected modelMismatch, got \(String(describing: Self.openError(store, model: model)))")
            return
        }
    }
}
