#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import CoreData
import Testing

/// A write the browser saves through its own private context reaches the context the app handed over: the app sees it
/// without fetching again, and the app's next save of the same objects succeeds under Core Data's default merge
/// policy (`NSErrorMergePolicy`, with which Xcode's template `saveContext()` would `fatalError`).
///
/// On the main actor, so the tests use the main-queue `viewContext` directly, as the app would. What is saved is read
/// back through the browser's private reader. macOS job only: compiled on Linux against the stand-in, never run here.
@MainActor @Suite struct AppContextMergeTests {
    private func makeStack() async throws -> TestStack {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        return stack
    }

    private func body(_ json: String) -> Data { Data(json.utf8) }

    @Test func theAppsContextSeesTheBrowsersEditAndSavesAfterItWithTheDefaultMergePolicy() async throws {
        let stack = try await makeStack()
        let viewContext = stack.container.viewContext
        // The app's context as Xcode's template leaves it: no automatic merging, the default merge policy.
        // (`mergePolicy` is left at its default, `NSErrorMergePolicy`.)
        #expect(!viewContext.automaticallyMergesChangesFromParent)
        // The app has the book loaded: the snapshot the browser's save makes stale.
        let kindred = try #require(try viewContext.first("Book", where: "title", is: "Kindred"))
        #expect(kindred.value(forKey: "pageCount") as? Int == 264)

        let service = BrowserService(store: ManagedContextStore(context: viewContext), readOnly: false)
        let id = kindred.objectID.uriRepresentation().absoluteString
        let version = try #require(try await service.object(id: id).version)
        _ = try await service.update(id: id, body: body(#"{"attrs": {"pageCount": 300}, "version": \#(version)}"#))

        // Merged before the write answered: the app's object has the new value, and nothing of the app's is unsaved.
        #expect(kindred.value(forKey: "pageCount") as? Int == 300)
        #expect(!viewContext.hasChanges)

        // The app edits the same object and saves: no merge conflict, both edits are in the store (read back through
        // the browser's private reader, which reads what is saved).
        kindred.setValue("Kindred (the app's edit)", forKey: "title")
        try viewContext.save()
        let saved = try await service.object(id: id)
        #expect(saved.attrs["title"] == .string("Kindred (the app's edit)") && saved.attrs["pageCount"] == .integer(300))
    }

    @Test func aRecordTheBrowserDeletesLeavesTheAppsContextAndItsNextSaveSucceeds() async throws {
        let stack = try await makeStack()
        let viewContext = stack.container.viewContext
        let tag = try #require(try viewContext.first("Tag", is: "café culture"))
        let book = try #require(try viewContext.first("Book", where: "title", is: "The Café Catalogue"))
        #expect((book.value(forKey: "tags") as? NSSet)?.count == 1)

        let service = BrowserService(store: ManagedContextStore(context: viewContext), readOnly: false)
        let id = tag.objectID.uriRepresentation().absoluteString
        let version = try #require(try await service.object(id: id).version)
        _ = try await service.delete(id: id, version: String(version))

        // Nullify reached the app's book through the merge; the app saves an edit of that book.
        #expect((book.value(forKey: "tags") as? NSSet)?.count == 0)
        book.setValue(NSNumber(value: Int32(97)), forKey: "pageCount")
        try viewContext.save()
        #expect(try await service.records(of: "Tag", parameters: .init()).total == 3)
        #expect(try await service.object(id: book.objectID.uriRepresentation().absoluteString).attrs["pageCount"] == .integer(97))
    }
}

#endif
