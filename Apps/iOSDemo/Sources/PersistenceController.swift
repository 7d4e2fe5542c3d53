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
    ///
    /// Uses the completion form of `performBackgroundTask`, not its `async` form: the async form is a
    /// nonisolated `async` method, so calling it from this main-actor class sends the main-actor `container`
    /// and the block formed here (main-actor isolated, as it is not `@Sendable`) to another isolation domain,
    /// which Swift 6 rejects ("sending … risks causing data races"). The completion form is synchronous, so
    /// nothing crosses; the block is written `@Sendable` so it is nonisolated and valid whether the SDK
    /// declares that parameter `@Sendable` (iOS 26 SDK) or not (Xcode 16). It captures only the continuation.
    func seedIfEmpty() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            container.performBackgroundTask { @Sendable context in
                continuation.resume(with: Result { try SeedData.insertIfEmpty(into: context) })
            }
        }
    }
}
