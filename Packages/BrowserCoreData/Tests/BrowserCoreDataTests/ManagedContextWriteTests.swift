#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import CoreData
import Testing

/// Writes through a live context with writes on, through `BrowserService` as the API calls them, on the
/// test library (TestModel's delete rules: Author.books Cascade, Tag.samples Deny, Sample.steps No Action, the rest
/// Nullify). Each test reads back through a context of its own, so what it checks is what was saved.
///
/// macOS job only: compiled on Linux against the stand-in, never run here.
@Suite struct ManagedContextWriteTests {
    private func makeService(_ stack: TestStack? = nil, reading: ContextReading = .privateQueue) async throws -> (BrowserService, TestStack) {
        let stack = try stack ?? TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let store = ManagedContextStore(context: stack.container.viewContext, reading: reading)
        return (BrowserService(store: store, readOnly: false), stack)
    }

    /// The ID URI of the saved record of `entity` (or a sub-entity) whose String `key` is `value`.
    private func uri(_ stack: TestStack, _ entity: String, _ key: String = "name", is value: String) async throws -> String {
        try await stack.container.performBackgroundTask { context in
            try #require(try context.first(entity, where: key, is: value)).objectID.uriRepresentation().absoluteString
        }
    }

    /// How many saved records of the entity there are, sub-entities included, read by a context of the test's own.
    private func count(_ stack: TestStack, _ entity: String) async throws -> Int {
        try await stack.container.performBackgroundTask { context in
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity))
        }
    }

    private func body(_ json: String) -> Data { Data(json.utf8) }

    private func items(_ object: ObjectDTO, _ relationship: String) -> [String] {
        object.relationships.first { $0.name == relationship }?.items.map(\.id) ?? []
    }

    /// The `BrowserError` a call ends with, or nil when it succeeded.
    private func refusal<T>(_ call: () async throws -> T) async -> BrowserError? {
        do {
            _ = try await call()
            return nil
        } catch let error as BrowserError {
            return error
        } catch {
            Issue.record("not a BrowserError: \(error)")
            return nil
        }
    }

    @Test func theStoreOffersWritesAndTheHostStillDecides() async throws {
        let (service, stack) = try await makeService()
        let health = try await service.health()
        #expect(health.capabilities == ["read", "write"] && !health.readOnly && health.writeRefusal == nil)
        let readOnly = try await BrowserService(store: ManagedContextStore(context: stack.container.viewContext)).health()
        #expect(readOnly.readOnly)
        let kindred = try await uri(stack, "Book", "title", is: "Kindred")
        #expect(try await BrowserService(store: ManagedContextStore(context: stack.container.viewContext)).object(id: kindred).version == nil)
        #expect(try await service.object(id: kindred).version != nil)
    }

    @Test func anUpdateSetsValuesAndRelationshipsAndEveryRecordItChangesGetsANewVersion() async throws {
        let (service, stack) = try await makeService()
        let kindred = try await uri(stack, "Book", "title", is: "Kindred")
        let ada = try await uri(stack, "Author", is: "Ada Byron")
        let butler = try await uri(stack, "Author", is: "Octavia Butler")
        let zola = try await uri(stack, "Author", is: "Émile Zola")
        let classic = try await uri(stack, "Tag", is: "classic")
        let science = try await uri(stack, "Tag", is: "science")
        let before = try await service.object(id: kindred)
        let versions = try await [ada, butler, zola, science].asyncMap { try await service.object(id: $0).version }
        let version = try #require(before.version)

        let after = try await service.update(id: kindred, body: body("""
            {"attrs": {"title": "Kindred (2nd ed.)", "pageCount": 300, "summary": null},
             "relationships": {"author": "\(ada)", "tags": ["\(classic)"]}, "version": \(version)}
            """))
        #expect(after.attrs["title"] == .string("Kindred (2nd ed.)") && after.attrs["pageCount"] == .integer(300))
        #expect(after.attrs["summary"] == .null)
        #expect(items(after, "author") == [ada] && items(after, "tags") == [classic])
        #expect(after.version != nil && after.version != version)

        // Both sides follow: Ada gains the book, Octavia loses it, science loses it; Zola is untouched.
        #expect(items(try await service.object(id: ada), "books").contains(kindred))
        #expect(!items(try await service.object(id: butler), "books").contains(kindred))
        #expect(!items(try await service.object(id: science), "books").contains(kindred))
        let now = try await [ada, butler, zola, science].asyncMap { try await service.object(id: $0).version }
        #expect(now[0] != versions[0] && now[1] != versions[1] && now[3] != versions[3])
        #expect(now[2] == versions[2], "a record the write did not change keeps its version")

        // Saved: a context of the test's own reads it from the store.
        let saved = try await stack.container.performBackgroundTask { context in
            try context.first("Book", where: "title", is: "Kindred (2nd ed.)")?.value(forKey: "pageCount") as? Int
        }
        #expect(saved == 300)
    }

    @Test func anInsertLinksBothSidesAndReadsBackAsSaved() async throws {
        let (service, stack) = try await makeService()
        let zola = try await uri(stack, "Author", is: "Émile Zola")
        let fiction = try await uri(stack, "Tag", is: "fiction")
        let created = try await service.insert(into: "Book", body: body("""
            {"attrs": {"title": "L'Assommoir", "pageCount": 480, "identifier": "00000000-0000-4000-8000-000000000777",
                       "inPrint": true, "publishedAt": "1877-01-01T00:00:00Z", "price": "9.5"},
             "relationships": {"author": "\(zola)", "tags": ["\(fiction)"]}}
            """))
        #expect(created.entity == "Book" && created.id.hasPrefix("x-coredata://") && !created.id.contains("/t"))
        #expect(created.attrs["price"] == .decimal(Decimal(sign: .plus, exponent: -1, significand: 95)) && created.attrs["inPrint"] == .boolean(true))
        #expect(items(created, "author") == [zola] && items(created, "tags") == [fiction])
        #expect(items(try await service.object(id: zola), "books").contains(created.id))
        #expect(try await count(stack, "Book") == 9)

        let abstract = await refusal { try await service.insert(into: "Shape", body: body(#"{"attrs": {"name": "x"}}"#)) }
        #expect(abstract?.statusCode == 400)
        #expect(try await count(stack, "Shape") == 0)
    }

    @Test func aTargetThatIsNotInTheStoreIsRefusedOnItsRelationshipAndNothingIsWritten() async throws {
        let (service, stack) = try await makeService()
        let kindred = try await uri(stack, "Book", "title", is: "Kindred")
        let butler = try await uri(stack, "Author", is: "Octavia Butler")
        let version = try #require(try await service.object(id: kindred).version)
        // An Author ID of this store whose row does not exist.
        let slash = try #require(butler.lastIndex(of: "/"))
        let missing = String(butler[..<slash]) + "/p999999"
        let error = await refusal { try await service.update(id: kindred, body: body("""
            {"attrs": {"title": "Changed"}, "relationships": {"author": "\(missing)"}, "version": \(version)}
            """)) }
        #expect(error?.statusCode == 422)
        guard case .fields(let fields) = error?.details else { Issue.record("no fields: \(String(describing: error))"); return }
        #expect(fields.map(\.field) == ["relationships.author"])
        let after = try await service.object(id: kindred)
        #expect(after.attrs["title"] == .string("Kindred") && after.version == version && items(after, "author") == [butler])
    }

    @Test func coreDatasOwnValidationBecomesA422OnTheFieldAndIsRolledBack() async throws {
        let (service, stack) = try await makeService()
        // BrowserCore does not know the live model's bounds; Core Data's validation predicate on radius refuses it.
        let inserted = await refusal { try await service.insert(into: "Circle", body: body(#"{"attrs": {"name": "big", "radius": 150}}"#)) }
        #expect(inserted?.statusCode == 422)
        guard case .fields(let insertFields) = inserted?.details else { Issue.record("no fields: \(String(describing: inserted))"); return }
        #expect(insertFields.map(\.field) == ["attrs.radius"])
        #expect(try await count(stack, "Circle") == 0, "the refused insert was rolled back")

        try await stack.seed { context in context.insertRecord("Circle", ["name": "small", "radius": NSNumber(value: 5.0)]) }
        let small = try await uri(stack, "Circle", is: "small")
        let version = try #require(try await service.object(id: small).version)
        let updated = await refusal { try await service.update(id: small, body: body("""
            {"attrs": {"radius": 500, "name": "huge"}, "version": \(version)}
            """)) }
        #expect(updated?.statusCode == 422)
        guard case .fields(let updateFields) = updated?.details else { Issue.record("no fields: \(String(describing: updated))"); return }
        #expect(updateFields.map(\.field) == ["attrs.radius"])
        let after = try await service.object(id: small)
        #expect(after.attrs["name"] == .string("small") && after.attrs["radius"] == .double(5) && after.version == version)

        // The same context writes again afterwards: the failed write left nothing behind.
        _ = try await service.update(id: small, body: body(#"{"attrs": {"radius": 50}, "version": \#(version)}"#))
        #expect(try await service.object(id: small).attrs["radius"] == .double(50))
    }

    @Test func aVersionTheRecordNoLongerHasIs409AndWritesNothing() async throws {
        let (service, stack) = try await makeService()
        let kindred = try await uri(stack, "Book", "title", is: "Kindred")
        let read = try #require(try await service.object(id: kindred).version)
        // The app changes the book after the browser read it.
        try await stack.seed { context in try context.first("Book", where: "title", is: "Kindred")?.setValue(NSNumber(value: Int32(265)), forKey: "pageCount") }
        let current = try #require(try await service.object(id: kindred).version)
        #expect(current != read)

        let update = await refusal { try await service.update(id: kindred, body: body(#"{"attrs": {"pageCount": 1}, "version": \#(read)}"#)) }
        #expect(update?.statusCode == 409 && update?.details == .versions(expected: read, current: current))
        let delete = await refusal { try await service.delete(id: kindred, version: String(read)) }
        #expect(delete?.statusCode == 409 && delete?.details == .versions(expected: read, current: current))
        #expect(try await service.object(id: kindred).attrs["pageCount"] == .integer(265))
    }

    @Test func aCascadeDeletesWhatItReachesAndNullifyClearsTheOtherSide() async throws {
        let (service, stack) = try await makeService()
        let butler = try await uri(stack, "Author", is: "Octavia Butler")
        let fiction = try await uri(stack, "Tag", is: "fiction")
        // Octavia: Kindred, Germinal (100 pages) and Kindred (Audio), an AudioBook; Book.tags (Nullify) links them to
        // fiction three times and to science once.
        let preview = try await service.deletionPreview(id: butler)
        #expect(preview.id == butler && preview.blockedBy.isEmpty)
        #expect(preview.cascades == [EntityCount(entity: "AudioBook", count: 1), EntityCount(entity: "Book", count: 2)])
        #expect(preview.clears == [RelationshipEffect(entity: "Tag", relationship: "books", count: 4)])
        #expect(try await count(stack, "Author") == 3, "a preview writes nothing")

        let version = try #require(try await service.object(id: butler).version)
        let done = try await service.delete(id: butler, version: String(version))
        #expect(done == preview)
        #expect(try await count(stack, "Author") == 2)
        #expect(try await count(stack, "Book") == 5)
        #expect(try await count(stack, "Tag") == 4)
        let fictionBooks = try await service.object(id: fiction).relationships.first { $0.name == "books" }?.count
        #expect(fictionBooks == 2, "Thérèse Raquin and Germinal (Zola's) stay")
        let gone = await refusal { try await service.object(id: butler) }
        #expect(gone?.statusCode == 404)
    }

    @Test func aNullifyRuleClearsTheBooksOfADeletedTag() async throws {
        let (service, stack) = try await makeService()
        let classic = try await uri(stack, "Tag", is: "classic")
        let notes = try await uri(stack, "Book", "title", is: "Notes on the Analytical Engine")
        let preview = try await service.deletionPreview(id: classic)
        #expect(preview.cascades.isEmpty && preview.blockedBy.isEmpty)
        #expect(preview.clears == [RelationshipEffect(entity: "Book", relationship: "tags", count: 3)])
        let version = try #require(try await service.object(id: classic).version)
        _ = try await service.delete(id: classic, version: String(version))
        #expect(try await count(stack, "Tag") == 3)
        #expect(try await count(stack, "Book") == 8)
        #expect(!items(try await service.object(id: notes), "tags").contains(classic))
    }

    @Test func aDenyRuleBlocksTheDeleteAndNoActionLeavesTheOtherSide() async throws {
        let (service, stack) = try await makeService()
        try await stack.seed { context in
            let sample = context.insertRecord("Sample", ["text": "with a step"])
            if let science = try context.first("Tag", is: "science") {
                sample.setValue(NSOrderedSet(array: [science]), forKey: "steps")
            }
        }
        let science = try await uri(stack, "Tag", is: "science")
        let sample = try await uri(stack, "Sample", "text", is: "with a step")

        // Tag.samples is Deny: science cannot go while a sample uses it.
        let preview = try await service.deletionPreview(id: science)
        #expect(preview.blockedBy == [RelationshipEffect(entity: "Tag", relationship: "samples", count: 1)])
        let version = try #require(try await service.object(id: science).version)
        let blocked = await refusal { try await service.delete(id: science, version: String(version)) }
        #expect(blocked?.statusCode == 409 && blocked?.details == .blockedBy(preview.blockedBy))
        #expect(try await count(stack, "Tag") == 4)

        // Sample.steps is No Action: deleting the sample touches nothing else.
        let sampleEffects = try await service.deletionPreview(id: sample)
        #expect(sampleEffects.cascades.isEmpty && sampleEffects.clears.isEmpty && sampleEffects.blockedBy.isEmpty)
        let sampleVersion = try #require(try await service.object(id: sample).version)
        _ = try await service.delete(id: sample, version: String(sampleVersion))
        #expect(try await count(stack, "Sample") == 0)
        #expect(try await count(stack, "Tag") == 4)
        // With the sample gone, nothing that exists holds science: the Deny rule no longer blocks.
        #expect(try await service.deletionPreview(id: science).blockedBy.isEmpty)
    }

    @Test func theBrowsersSavesCarryItsTransactionAuthorInThePersistentHistory() async throws {
        try await TestStack.withFolder { folder in
            let stack = try TestStack(storeURL: folder.appendingPathComponent("Written.sqlite"), historyTracking: true)
            let (service, _) = try await makeService(stack)
            let ada = try await uri(stack, "Author", is: "Ada Byron")
            let version = try #require(try await service.object(id: ada).version)
            _ = try await service.update(id: ada, body: body(#"{"attrs": {"name": "Ada Lovelace"}, "version": \#(version)}"#))
            let newest = try #require(try await service.history(parameters: HistoryQueryParameters { _ in nil }).transactions.first)
            #expect(newest.author == ManagedContextStore.transactionAuthor && newest.author == "CoreDataBrowser")
            #expect(newest.changes.map(\.id) == [ada])
        }
    }

    @Test func theAppsOwnContextIsWrittenOnlyWithoutUnsavedChangesOfTheApps() async throws {
        let (service, stack) = try await makeService(reading: .givenContext)
        let viewContext = stack.container.viewContext
        let ada = try await uri(stack, "Author", is: "Ada Byron")
        let version = try #require(try await service.object(id: ada).version)
        // The app has an unsaved edit: the browser's save would save it too, so the write is refused.
        let zola = try #require(try viewContext.first("Author", is: "Émile Zola"))
        zola.setValue("Zola (unsaved)", forKey: "bio")
        let refused = await refusal { try await service.update(id: ada, body: body(#"{"attrs": {"bio": "Edited."}, "version": \#(version)}"#)) }
        #expect(refused?.statusCode == 409)
        #expect(viewContext.hasChanges && zola.value(forKey: "bio") as? String == "Zola (unsaved)", "the app's edit is left as it was")

        // Once the app has discarded it, the write goes through the app's context, which shows it at once.
        viewContext.rollback()
        _ = try await service.update(id: ada, body: body(#"{"attrs": {"bio": "Edited."}, "version": \#(version)}"#))
        #expect(!viewContext.hasChanges)
        #expect(try viewContext.first("Author", is: "Ada Byron")?.value(forKey: "bio") as? String == "Edited.")
        #expect(viewContext.transactionAuthor == nil, "the app's transaction author is put back")
    }
}

extension Array where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

#endif
