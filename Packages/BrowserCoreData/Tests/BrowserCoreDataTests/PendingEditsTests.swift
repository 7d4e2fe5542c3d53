#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import CoreData
import Testing

/// `GET /api/pending` over a live context: the app's `viewContext` with unsaved edits, read through it
/// (`.givenContext`) and through the browser's private reader. On the main actor, so the tests may edit the
/// main-queue `viewContext` directly, as the app would.
@MainActor @Suite struct PendingEditsTests {
    private func makeStack() async throws -> TestStack {
        let stack = try TestStack()
        try await stack.seed { context in
            TestLibrary.insert(into: context)
            context.insertRecord("Tag", ["name": "orphan"])   // in no book: deleting it changes nothing else
        }
        stack.container.viewContext.name = "view"
        return stack
    }

    @Test func theGivenContextListsItsUnsavedInsertsUpdatesAndDeletes() async throws {
        let stack = try await makeStack()
        let viewContext = stack.container.viewContext
        let ada = try #require(try viewContext.first("Author", is: "Ada Byron"))
        let orphan = try #require(try viewContext.first("Tag", is: "orphan"))
        ada.setValue("Ada Lovelace", forKey: "name")
        viewContext.delete(orphan)
        viewContext.insertRecord("Tag", ["name": "unsaved"])

        let service = BrowserService(store: ManagedContextStore(context: viewContext, reading: .givenContext))
        let pending = try await service.pendingChanges()
        #expect(pending.available && pending.reason == nil && pending.contextName == "view" && pending.notes.isEmpty)

        let inserted = try #require(pending.inserted.first)
        #expect(pending.inserted.count == 1)
        #expect(inserted.entity == "Tag" && inserted.temporary && inserted.id.hasPrefix("x-coredata:///Tag/t"))
        #expect(inserted.changes == [PendingValue(name: "name", saved: nil, pending: .string("unsaved"))])

        #expect(pending.updated.map(\.id) == [ada.objectID.uriRepresentation().absoluteString])
        #expect(pending.updated.first?.temporary == false)
        #expect(pending.updated.first?.changes == [PendingValue(name: "name", saved: .string("Ada Byron"), pending: .string("Ada Lovelace"))])

        #expect(pending.deleted.map(\.id) == [orphan.objectID.uriRepresentation().absoluteString])
        #expect(pending.deleted.first?.entity == "Tag" && pending.deleted.first?.changes == [])

        // Saved, nothing is pending any more.
        try viewContext.save()
        let after = try await service.pendingChanges()
        #expect(after.available && after.inserted.isEmpty && after.updated.isEmpty && after.deleted.isEmpty)
    }

    @Test func relationshipsShowTheRelatedIDOrTheNumberOfRelatedObjects() async throws {
        let stack = try await makeStack()
        let viewContext = stack.container.viewContext
        let ada = try #require(try viewContext.first("Author", is: "Ada Byron"))
        let butler = try #require(try viewContext.first("Author", is: "Octavia Butler"))
        let kindred = try #require(try viewContext.first("Book", where: "title", is: "Kindred"))
        func uri(_ object: NSManagedObject) -> AttributeValue { .uri(object.objectID.uriRepresentation().absoluteString) }
        kindred.setValue(ada, forKey: "author")
        // Core Data updates the inverse relationships (Ada's and Butler's books) when it processes the change.
        viewContext.processPendingChanges()

        let service = BrowserService(store: ManagedContextStore(context: viewContext, reading: .givenContext))
        let updated = try await service.pendingChanges().updated
        let changes = Dictionary(uniqueKeysWithValues: updated.map { ($0.id, $0.changes) })
        #expect(changes.count == 3)
        #expect(changes[kindred.objectID.uriRepresentation().absoluteString]
            == [PendingValue(name: "author", saved: uri(butler), pending: uri(ada))])
        // Ada wrote two books and now has three; Butler (a Book and an AudioBook among three) has two.
        #expect(changes[ada.objectID.uriRepresentation().absoluteString]
            == [PendingValue(name: "books", saved: .integer(2), pending: .integer(3))])
        #expect(changes[butler.objectID.uriRepresentation().absoluteString]
            == [PendingValue(name: "books", saved: .integer(3), pending: .integer(2))])
    }

    @Test func thePrivateReaderSaysHowToSeeUnsavedEdits() async throws {
        let stack = try await makeStack()
        stack.container.viewContext.insertRecord("Tag", ["name": "unsaved"])
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        let pending = try await service.pendingChanges()
        #expect(!pending.available && pending.inserted.isEmpty)
        #expect(pending.reason?.contains("reading: .givenContext") == true)
    }
}

#endif
