import BrowserCore
import BrowserSQLite
import Foundation
import Testing

/// The real Core Data stores in `shared/fixtures/coredata` (see its SOURCES.md), found from this file's path:
/// `<repo>/Packages/BrowserSQLite/Tests/BrowserSQLiteTests/` → `<repo>/../shared/fixtures/coredata`.
/// Tests that need them are skipped, with a printed reason, when the folder is absent — unless the environment
/// says `REQUIRE_FIXTURES=1` (`.ci/run` does): then they run and fail, so a moved folder cannot turn them off.
enum Fixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // BrowserSQLiteTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // BrowserSQLite
        .deletingLastPathComponent() // Packages
        .deletingLastPathComponent() // repository root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/coredata")

    static let available: Bool = {
        let present = FileManager.default.fileExists(atPath: root.appendingPathComponent("SOURCES.md").path)
        if present { return true }
        if ProcessInfo.processInfo.environment["REQUIRE_FIXTURES"] == "1" {
            print("REQUIRE_FIXTURES=1 and no Core Data fixtures at \(root.path): the fixture tests run, and fail")
            return true
        }
        print("Skipping fixture tests: no Core Data fixtures at \(root.path) (REQUIRE_FIXTURES=1 makes this a failure)")
        return false
    }()

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
}

/// A private temporary folder, removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("BrowserSQLiteTests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // A test may have made the folder read-only; make it writable again to remove it.
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Copies a fixture store with its `-wal` and `-shm` (never opened in place: opening writes the `-shm`).
    func copyStore(_ relative: String) throws -> URL {
        let source = Fixtures.url(relative)
        let target = url.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let companion = URL(fileURLWithPath: source.path + suffix)
            if FileManager.default.fileExists(atPath: companion.path) {
                try FileManager.default.copyItem(at: companion, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        // Fixture files are read-only; the copies must be writable like a real app's store.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: target.path + suffix) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path + suffix)
        }
        return target
    }
}

/// An opened copy of a fixture, keeping its temporary folder alive as long as the store.
struct OpenedFixture {
    // The store is declared first so that it is released first: its connection must close before the folder
    // holding its files is deleted (a file deleted while open frees its inode for another test's copy, which
    // this process's SQLite would then confuse with it; see `SQLiteConnection.close`).
    let store: SQLiteStore
    let directory: TemporaryDirectory

    init(_ relative: String, model: String? = nil) throws {
        directory = TemporaryDirectory()
        let url = try directory.copyStore(relative)
        store = try SQLiteStore.open(storeAt: url, model: model.map(Fixtures.url))
    }
}

extension BrowserStore {
    /// Counts of every concrete entity, by name (SOURCES.md counts rows, so an abstract entity has none there).
    func counts() async throws -> [String: Int] {
        var result: [String: Int] = [:]
        for entity in try await schema().browsableEntities where !entity.isAbstract {
            result[entity.name] = try await count(of: entity.name)
        }
        return result
    }

    func allRecords(_ entity: String, limit: Int = 500) async throws -> [StoredRecord] {
        try await page(RecordQuery(entity: entity, limit: limit)).records
    }
}
