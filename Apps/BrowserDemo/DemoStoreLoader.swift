import BrowserCore
import BrowserMemory
import Foundation

/// Picks the store `browser-demo` serves: the in-memory demo library, or a store file.
enum DemoStoreLoader {
    static func load(_ arguments: DemoArguments) async throws -> any BrowserStore {
        guard let storePath = arguments.storePath else {
            return try await DemoLibrary.makeStore()
        }
        _ = storePath
        throw DemoArguments.Invalid(message: "--store is not available yet")
    }
}
