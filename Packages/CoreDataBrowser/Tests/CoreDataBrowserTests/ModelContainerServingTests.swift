// macOS only: a `@Model` class needs SwiftData's macro plugin, which only Xcode's toolchain has, so this file is not
// compiled by scripts/apple-typecheck/run.sh (ModelContainerServing.swift, which holds what the tests do, is).
#if canImport(SwiftData) && os(macOS)
import SwiftData
import Testing

@available(macOS 14, *)
@Model
final class ShelfBook {
    var title: String

    init(title: String) {
        self.title = title
    }
}

/// `CoreDataBrowserServer(modelContainer:)` over a real SwiftData container on a temporary file, read over HTTP on
/// loopback.
@Suite struct ModelContainerServingTests {
    @Test @MainActor func servesWhatTheContainerSavedAndNothingUnsaved() async throws {
        guard #available(macOS 14, *) else { return }
        try await ModelContainerServing.servesSavedModels(
            ShelfBook.self, entity: "ShelfBook", attribute: "title",
            titles: ["Dune", "Emma", "Ulysses", "Beloved"], make: { ShelfBook(title: $0) })
    }

    @Test @MainActor func refusesAContainerStoredInMemoryOnly() async throws {
        guard #available(macOS 14, *) else { return }
        try await ModelContainerServing.refusesAContainerInMemoryOnly(ShelfBook.self)
    }
}
#endif
