import BrowserCore
import BrowserMemory
import BrowserSQLite
import Foundation

/// Picks the store `browser-demo` serves: the in-memory demo library, or a store file (`--store`, `--model`).
enum DemoStoreLoader {
    /// - Throws: `SQLiteStoreError` (one line naming the file and what is wrong) for a store file that cannot
    ///   be served; `main` prints it and exits 1.
    static func load(_ arguments: DemoArguments) async throws -> any BrowserStore {
        guard let storePath = arguments.storePath else {
            return try await DemoLibrary.makeStore()
        }
        let store = try SQLiteStore.open(storeAt: URL(fileURLWithPath: storePath),
                                         model: arguments.modelPath.map { URL(fileURLWithPath: $0) })
        let origin = store.modelOrigin
        print("Serving \(store.url.standardizedFileURL.path) (\(store.accessDescription)); model: \(origin.source.rawValue)"
              + (origin.name.map { " \"\($0)\"" } ?? "") + (origin.path.map { " from \($0)" } ?? ""))
        return store
    }
}
