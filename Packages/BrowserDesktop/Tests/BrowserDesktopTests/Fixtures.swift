import Foundation

/// The real Core Data stores in `shared/fixtures/coredata`, found from this file's path
/// (`<repo>/Packages/BrowserDesktop/Tests/BrowserDesktopTests/` → `<repo>/../shared/fixtures/coredata`), with
/// BrowserSQLiteTests' rule: skipped with a printed reason when absent, unless `REQUIRE_FIXTURES=1` (`.ci/run`).
enum Fixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/coredata")

    static let available: Bool = {
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("SOURCES.md").path) { return true }
        let required = ProcessInfo.processInfo.environment["REQUIRE_FIXTURES"] == "1"
        print(required ? "REQUIRE_FIXTURES=1 and no Core Data fixtures at \(root.path): the fixture tests run, and fail"
                       : "Skipping fixture tests: no Core Data fixtures at \(root.path) (REQUIRE_FIXTURES=1 makes this a failure)")
        return required
    }()

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
}
