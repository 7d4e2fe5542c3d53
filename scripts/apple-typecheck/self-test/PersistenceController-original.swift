// Self-test fixture for scripts/apple-typecheck/run.sh, never built into the app: the iOS demo's
// PersistenceController.swift as it was before its Xcode 16 build failure was fixed (main-actor seedIfEmpty handing a block that is not
// @Sendable to the async, nonisolated performBackgroundTask). Xcode refused it; `swiftc -typecheck` did not.
import CoreData

/// The demo's Core Data stack: `Model.xcdatamodeld` (Author, Book, AudioBook, Tag: the model the Linux demo's
/// `DemoLibrary` declares) in an SQLite store in Application Support.
@MainActor
final class PersistenceController {
    static let shared = PersistenceController()

    let container: NSPersistentContainer

    private init() {
        container = NSPersistentContainer(name: "Model")
        container.loadPersistentStores { description, error in
            if let error {
                // A demo without its store has nothing to show; say why and stop.
                fatalError("Could not open the store at \(description.url?.path ?? "?"): \(error)")
            }
        }
        // Edits saved on background contexts (the seed) show in the UI's context.
        container.viewContext.automaticallyMergesChangesFromParent = true
    }

    /// Inserts the demo library once, on a background context, so the first launch does not block the UI.
    func seedIfEmpty() async throws {
        try await container.performBackgroundTask { context in
            try SeedData.insertIfEmpty(into: context)
        }
    }
}
