#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import CoreData
import Testing

/// The live adapter against a real Core Data stack (SQLite in memory), through `BrowserService` as the API
/// uses it. Names, counts and orders are exact.
@Suite struct ManagedContextStoreTests {
    private func makeService(reading: ContextReading = .privateQueue) async throws -> (BrowserService, TestStack) {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        return (BrowserService(store: ManagedContextStore(context: stack.container.viewContext, reading: reading)), stack)
    }

    private func titles(_ service: BrowserService, _ parameters: RecordQueryParameters, entity: String = "Book") async throws -> [String] {
        try await service.records(of: entity, parameters: parameters).rows.map(\.summary)
    }

    @Test func entitiesComeFromTheModelWithAbstractOnesMarkedAndCountSubEntities() async throws {
        let (service, _) = try await makeService()
        let entities = try await service.entities()
        #expect(entities.map(\.name) == ["AudioBook", "Author", "Book", "Circle", "Sample", "Shape", "Tag"])
        #expect(entities.filter(\.isAbstract).map(\.name) == ["Shape"])
        let counts = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.count) })
        #expect(counts == ["AudioBook": 1, "Author": 3, "Book": 8, "Circle": 0, "Sample": 0, "Shape": 0, "Tag": 4])
        let book = try #require(entities.first { $0.name == "Book" })
        #expect(book.parent == nil)
        #expect(entities.first { $0.name == "AudioBook" }?.parent == "Book")
        #expect(book.relationships.map(\.name) == ["author", "tags"])
        let sample = try #require(entities.first { $0.name == "Sample" })
        #expect(!sample.attributes.map(\.name).contains("scratch"))   // transient: not stored, not listed
        let types = Dictionary(uniqueKeysWithValues: sample.attributes.map { ($0.name, $0.type) })
        #expect(types == ["text": "String", "small": "Integer 16", "medium": "Integer 32", "large": "Integer 64",
                          "exact": "Decimal", "real": "Double", "single": "Float", "flag": "Boolean", "when": "Date",
                          "blob": "Binary", "identifier": "UUID", "link": "URI", "object": "Transformable",
                          "attachment": "Binary", "opaque": "Transformable"])
        let transformers = Dictionary(uniqueKeysWithValues: sample.attributes.compactMap { a in a.transformer.map { (a.name, $0) } })
        #expect(transformers == ["opaque": "CDBTestNoBytesTransformer"])
    }

    /// `/api/model` from the app's own model (macOS job only; compiled on Linux against the stand-in).
    @Test func theModelIsTheAppsOwnWithWhatEachEntityDeclares() async throws {
        let (service, stack) = try await makeService()
        let model = try await service.model()
        #expect(model.source?.source == .live)
        #expect(model.unknown.keys.sorted() == ["attribute.maximum", "attribute.minimum"])
        let audioBook = try #require(model.entities.first { $0.name == "AudioBook" })
        #expect(audioBook.parent == "Book")
        #expect(audioBook.attributes.map(\.attribute.name) == ["durationMinutes", "narrator"], "only what it adds to Book")
        let book = try #require(model.entities.first { $0.name == "Book" })
        #expect(book.subentities == ["AudioBook"] && book.className == "NSManagedObject")
        #expect(book.versionHash != nil && book.fetchIndexes == [] && book.uniquenessConstraints == [])
        let author = try #require(book.relationships.first { $0.relationship.name == "author" }?.relationship)
        #expect(author.maxCount == 1 && !author.isToMany && author.inverse == "books" && author.destination == "Author")
        let tags = try #require(book.relationships.first { $0.relationship.name == "tags" }?.relationship)
        #expect(tags.isToMany && tags.maxCount == nil && tags.minCount == 0)
        #expect(model.entities.first { $0.name == "Shape" }?.isAbstract == true)
        _ = stack
    }

    @Test func theChangeTokenMovesWhenTheAppSaves() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let store = ManagedContextStore(context: stack.container.viewContext)
        let before = try await store.changeToken()
        #expect(before != nil)
        try await stack.seed { context in _ = context.insertRecord("Tag", ["name": "saved later"]) }
        #expect(try await store.changeToken() != before, "a save moves the token /api/events polls")
    }

    /// Only a save of the served coordinator's stores moves the token: another Core Data stack of the process saving
    /// does not (the did-save notifications of every context reach every observer).
    @Test func theChangeTokenIgnoresSavesOfAnotherStack() async throws {
        let served = try TestStack()
        let other = try TestStack()
        for stack in [served, other] { try await stack.seed { TestLibrary.insert(into: $0) } }
        let store = ManagedContextStore(context: served.container.viewContext)
        let before = try await store.changeToken()
        // The notifications are posted on the saving context's queue during `save()`, before `seed` returns.
        try await other.seed { context in _ = context.insertRecord("Tag", ["name": "another stack"]) }
        #expect(try await store.changeToken() == before, "another stack's save does not move the token")
        try await served.seed { context in _ = context.insertRecord("Tag", ["name": "this stack"]) }
        #expect(try await store.changeToken() != before)
    }

    /// The `objectID` tie-breaker turns into `ORDER BY Z_PK` in an SQLite store; in-memory and atomic stores sort in
    /// memory, where an object ID has no `compare:` and the sort would raise (ending the test process), so they get
    /// none.
    @Test func theObjectIDTieBreakerIsOnlyUsedWhenEveryStoreIsSQLite() async throws {
        let sqlite = try TestStack()
        let memory = try TestStack(storeType: NSInMemoryStoreType)
        for stack in [sqlite, memory] { try await stack.seed { TestLibrary.insert(into: $0) } }
        let query = RecordQueryParameters(sort: "title")
        let bySQL = BrowserService(store: ManagedContextStore(context: sqlite.container.viewContext))
        let inMemory = BrowserService(store: ManagedContextStore(context: memory.container.viewContext))

        #expect(try await bySQL.explain(of: "Book", parameters: query).steps.contains(
            "sortDescriptors = [NSSortDescriptor(key: \"title\", ascending: true), NSSortDescriptor(key: \"objectID\", ascending: true)]"))
        #expect(try await inMemory.explain(of: "Book", parameters: query).steps.contains(
            "sortDescriptors = [NSSortDescriptor(key: \"title\", ascending: true)]"))

        // Both sort by title; the two "Germinal" rows are in primary-key order in SQLite.
        let expected = ["Germinal", "Germinal", "Kindred", "Kindred (Audio)", "Notes on the Analytical Engine",
                        "The Café Catalogue", "Thérèse Raquin", "the lowercase book"]
        #expect(try await titles(bySQL, query) == expected)
        #expect(try await titles(inMemory, query).sorted() == expected.sorted())
        let germinal = try await bySQL.records(of: "Book", parameters: query).rows.prefix(2).map { try ObjectID(uri: $0.id).primaryKey }
        #expect(germinal == germinal.sorted())
    }

    @Test func explainDescribesTheFetchRequestThePageRuns() async throws {
        let (service, _) = try await makeService()
        let explained = try await service.explain(of: "Book", parameters: .init(search: "germinal", searchAttribute: "title",
                                                                               sort: "title", order: "desc", limit: "5"))
        #expect(explained.engine == "Core Data (the app's NSManagedObjectContext)")
        #expect(explained.total == 2)
        #expect(explained.statements.isEmpty)
        #expect(explained.steps.first == "NSFetchRequest<NSManagedObject>(entityName: \"Book\"), includesSubentities = true, includesPendingChanges = false")
        #expect(explained.steps.contains { $0.hasPrefix("predicate = ") && $0.contains("title") })
        #expect(explained.steps.contains("sortDescriptors = [NSSortDescriptor(key: \"title\", ascending: false), NSSortDescriptor(key: \"objectID\", ascending: false)]"))
        #expect(explained.steps.last == "fetchOffset = 0, fetchLimit = 5; the total is context.count(for:) of the same request without them.")
    }

    @Test func searchIgnoresCaseAndDiacritics() async throws {
        let (service, _) = try await makeService()
        #expect(try await titles(service, .init(search: "cafe", searchAttribute: "title")) == ["The Café Catalogue"])
        #expect(try await titles(service, .init(search: "THERESE")) == ["Thérèse Raquin"])
        #expect(try await titles(service, .init(search: "émile"), entity: "Author") == ["Émile Zola"])
        #expect(try await titles(service, .init(search: "EMILE"), entity: "Author") == ["Émile Zola"])
    }

    @Test func searchWithoutAnAttributeLooksInEveryStringAttribute() async throws {
        let (service, _) = try await makeService()
        // "Volume 2" is in one summary only; sub-entity rows are searched too.
        #expect(try await titles(service, .init(search: "volume 2")) == ["Germinal"])
        #expect(try await titles(service, .init(search: "staunton")) == ["Kindred (Audio)"])
        let none = try await service.records(of: "Circle", parameters: .init(search: "x"))
        #expect(none.total == 0)   // Circle's only String attribute is the inherited `name`
    }

    @Test func sortOrdersByUTF8BytesWithThePrimaryKeyAsTieBreaker() async throws {
        let (service, _) = try await makeService()
        let ascending = try await titles(service, .init(sort: "title", order: "asc"))
        #expect(ascending == ["Germinal", "Germinal", "Kindred", "Kindred (Audio)", "Notes on the Analytical Engine",
                              "The Café Catalogue", "Thérèse Raquin", "the lowercase book"])
        let page = try await service.records(of: "Book", parameters: .init(sort: "title", order: "asc", limit: "2"))
        let descending = try await service.records(of: "Book", parameters: .init(sort: "title", order: "desc"))
        // Equal titles: ascending by primary key, descending in reverse.
        #expect(page.rows.map(\.id) == Array(descending.rows.suffix(2).map(\.id).reversed()))
        let byPages = try await titles(service, .init(sort: "pageCount", order: "desc"))
        #expect(byPages.first == "Germinal" && byPages.last == "Kindred (Audio)")
    }

    @Test func pagesFollowOneAnotherWithoutOverlap() async throws {
        let (service, _) = try await makeService()
        let all = try await service.records(of: "Book", parameters: .init()).rows.map(\.id)
        var paged: [String] = []
        for offset in stride(from: 0, to: 9, by: 3) {
            let page = try await service.records(of: "Book", parameters: .init(limit: "3", offset: String(offset)))
            #expect(page.total == 8)
            paged += page.rows.map(\.id)
        }
        #expect(paged == all)
        #expect(all.count == 8)
        // Primary-key order by default (Core Data numbers rows at save, in no promised order).
        let keys = try all.map { try ObjectID(uri: $0).primaryKey }
        #expect(keys == keys.sorted())
    }

    /// `/api/object/blob` and `content` over the live context: Core Data's Data, nil values and unknown records.
    @Test func bytesOfABinaryAttributeComeFromTheContext() async throws {
        let (service, _) = try await makeService()
        let rows = try await service.records(of: "Book", parameters: .init(limit: "20")).rows
        let first = try #require(rows.first)
        let blob = try await service.blob(id: first.id, attribute: "cover")
        #expect(blob.reader.size == 2048 && blob.reader.storage == .inline)
        #expect(try await blob.reader.read(0..<16) == Data(count: 16))
        #expect(blob.filename == "Book-\(try ObjectID(uri: first.id).shortForm)-cover.bin")
        let content = try await service.content(id: first.id, attribute: "cover")
        #expect(content.report.size == 2048)
        let withoutCover = try #require(rows.first { $0.attrs["cover"] == .null })
        await #expect(throws: BrowserError.self) { try await service.blob(id: withoutCover.id, attribute: "cover") }
        await #expect(throws: BrowserError.badRequest("Book.title is a String attribute; only Binary and Transformable attributes have bytes to fetch")) {
            try await service.blob(id: first.id, attribute: "title")
        }
    }

    /// A Transformable value's bytes are what its transformer makes of the object now; with no transformer named,
    /// Core Data's keyed archive, which `content` reads with its class.
    @Test func bytesOfATransformableAttributeAreItsKeyedArchive() async throws {
        let stack = try TestStack()
        try await stack.seed { context in
            context.insertRecord("Sample", ["text": "archived", "object": NSArray(array: ["red", "green"])])
        }
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        let row = try #require(try await service.records(of: "Sample", parameters: .init(search: "archived")).rows.first)
        let blob = try await service.blob(id: row.id, attribute: "object")
        #expect(try await blob.reader.read(0..<8) == Data("bplist00".utf8))
        #expect(blob.filename == "Sample-\(try ObjectID(uri: row.id).shortForm)-object.plist")
        #expect(row.attrs["object"] == .binary(byteCount: blob.reader.size))
        let content = try await service.content(id: row.id, attribute: "object")
        #expect(content.report.kind == .keyedArchive)
        #expect(content.report.archivedClass == "NSArray")
        #expect(content.report.size == blob.reader.size)
        #expect(content.report.problems.isEmpty)
        #expect(content.transformer == nil)   // the model names none
    }

    /// A value its transformer makes no Data of (an unsaved edit, read through the given context: Core Data never
    /// had to store it): `blob` and `content` refuse with a 404 that says why, the detail marks the value.
    @MainActor @Test func aTransformableValueThatCannotBecomeBytesIsRefusedWithTheReason() async throws {
        ValueTransformer.setValueTransformer(NoBytesTransformer(), forName: NSValueTransformerName(NoBytesTransformer.name))
        let stack = try TestStack()
        try await stack.seed { context in context.insertRecord("Sample", ["text": "opaque"]) }
        let viewContext = stack.container.viewContext
        let service = BrowserService(store: ManagedContextStore(context: viewContext, reading: .givenContext))
        let row = try #require(try await service.records(of: "Sample", parameters: .init(search: "opaque")).rows.first)
        let short = try ObjectID(uri: row.id).shortForm
        let objectID = try #require(viewContext.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: URL(string: row.id)!))
        // On the main actor, so touching the main-queue viewContext directly is allowed.
        viewContext.object(with: objectID).setValue(NSNumber(value: 42), forKey: "opaque")

        func refusal(_ request: () async throws(BrowserError) -> Void) async -> BrowserError? {
            do {
                try await request()
                return nil
            } catch {
                return error
            }
        }
        let blobRefusal = await refusal { () async throws(BrowserError) in _ = try await service.blob(id: row.id, attribute: "opaque") }
        let contentRefusal = await refusal { () async throws(BrowserError) in _ = try await service.content(id: row.id, attribute: "opaque") }
        for refused in [blobRefusal, contentRefusal] {
            let error = try #require(refused, "a value with no bytes is refused")
            #expect(error.kind == BrowserError.Kind.notFound)
            #expect(error.message.hasPrefix("Sample \(short).opaque holds a "))
            #expect(error.message.hasSuffix(" that its transformer does not turn into bytes, so there are none to show"))
        }
        guard case .undecodable(let message)? = try await service.object(id: row.id).attrs["opaque"] else {
            Issue.record("the detail marks the value it cannot size")
            return
        }
        #expect(message.hasSuffix("could not be transformed to data"))
    }

    @Test func detailHasEveryAttributeAndBothSidesOfRelationships() async throws {
        let (service, _) = try await makeService()
        let first = try #require(try await service.records(of: "Book", parameters: .init(limit: "1")).rows.first)
        let book = try await service.object(id: first.id)
        #expect(book.entity == "Book" && book.summary == "Notes on the Analytical Engine")
        #expect(book.attrs["cover"] == .binary(byteCount: 2048))
        #expect(book.attrs["price"] == .decimal(Decimal(string: "19.99")!))
        #expect(book.attrs["identifier"] == .uuid(TestLibrary.uuid(1)))
        #expect(book.relationships.map(\.name) == ["author", "tags"])
        let author = try #require(book.relationships.first)
        #expect(!author.toMany && author.count == 1 && author.items.map(\.summary) == ["Ada Byron"])
        #expect(Set(book.relationships[1].items.map(\.summary)) == ["classic", "science"])

        // The other side: Butler's books, an AudioBook among them, in primary-key order.
        let butler = try #require(try await service.records(of: "Author", parameters: .init(search: "butler")).rows.first)
        let detail = try await service.object(id: butler.id)
        let books = try #require(detail.relationships.first { $0.name == "books" })
        #expect(books.toMany && books.count == 3)
        #expect(Set(books.items.map(\.summary)) == ["Kindred", "Germinal", "Kindred (Audio)"])
        #expect(books.items.filter { $0.entity == "AudioBook" }.map(\.summary) == ["Kindred (Audio)"])
        let keys = try books.items.map { try ObjectID(uri: $0.id).primaryKey }
        #expect(keys == keys.sorted())   // an unordered relationship is listed by primary key
    }

    @Test func everyAttributeTypeIsConverted() async throws {
        let stack = try TestStack()
        try await stack.seed { context in
            let sample = context.insertRecord("Sample", [
                "text": "héllo", "small": NSNumber(value: Int16(-3)), "medium": NSNumber(value: Int32(70_000)),
                // 15 significant digits: what a Decimal keeps through the REAL column Core Data stores it in
                // (ParityTests shows a longer one coming back rounded).
                "large": NSNumber(value: Int64.max), "exact": NSDecimalNumber(string: "1234567890.12345"),
                "real": NSNumber(value: Double.infinity), "single": NSNumber(value: Float(0.1)),
                "flag": NSNumber(value: false), "when": Date(timeIntervalSince1970: 1_617_808_369.64),
                "blob": Data([1, 2, 3]), "identifier": TestLibrary.uuid(7),
                "link": URL(string: "https://example.com/x")!, "object": ["a", "b"] as NSArray,
            ])
            let tags = ["one", "two", "three"].map { context.insertRecord("Tag", ["name": $0]) }
            // An ordered relationship keeps its order, not primary-key order.
            sample.setValue(NSOrderedSet(array: [tags[2], tags[0], tags[1]]), forKey: "steps")
        }
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        let row = try #require(try await service.records(of: "Sample", parameters: .init()).rows.first)
        let json = String(decoding: try BrowserJSON.encode(row.attrs), as: UTF8.self)
        #expect(json.contains(#""large":"9223372036854775807""#))
        #expect(json.contains(#""exact":"1234567890.12345""#))
        #expect(json.contains(#""real":"Infinity""#))
        #expect(json.contains(#""single":0.1"#))
        #expect(json.contains(#""when":"2021-04-07T15:12:49.640Z""#))
        #expect(json.contains(#""blob":{"bytes":3,"type":"binary"}"#))
        #expect(json.contains(#""link":"https://example.com/x""#))
        #expect(row.attrs["small"] == .integer(-3) && row.attrs["medium"] == .integer(70_000))
        #expect(row.attrs["flag"] == .boolean(false) && row.attrs["text"] == .string("héllo"))
        #expect(row.attrs["identifier"] == .uuid(TestLibrary.uuid(7)))
        guard case .binary(let archived)? = row.attrs["object"], archived > 0 else {
            Issue.record("a Transformable value shows as binary with its archived size")
            return
        }
        let steps = try #require(try await service.object(id: row.id).relationships.first { $0.name == "steps" })
        #expect(steps.ordered && steps.items.map(\.summary) == ["three", "one", "two"])
    }

    @Test func badIDsAreClientErrors() async throws {
        let (service, _) = try await makeService()
        let first = try #require(try await service.records(of: "Book", parameters: .init(limit: "1")).rows.first)
        let id = try ObjectID(uri: first.id)
        func status(_ raw: String?) async -> Int? {
            do { _ = try await service.object(id: raw); return 200 } catch { return error.statusCode }
        }
        #expect(await status(nil) == 400)
        #expect(await status("not-an-id") == 400)
        #expect(await status("x-coredata:///Book/t1234") == 400)
        #expect(await status(ObjectID(storeIdentifier: "00000000-0000-0000-0000-000000000000", entity: "Book", primaryKey: 1).uri) == 404)
        #expect(await status(ObjectID(storeIdentifier: id.storeIdentifier, entity: "Book", primaryKey: 9_999).uri) == 404)
        #expect(await status(ObjectID(storeIdentifier: id.storeIdentifier, entity: "Nope", primaryKey: 1).uri) == 404)
        #expect(await status(ObjectID(storeIdentifier: id.storeIdentifier, entity: "Shape", primaryKey: 1).uri) == 404)
        // The AudioBook row's key under its parent's name is not that record (the store-file reader agrees).
        let audio = try #require(try await service.records(of: "AudioBook", parameters: .init()).rows.first)
        let audioKey = try ObjectID(uri: audio.id).primaryKey
        #expect(await status(ObjectID(storeIdentifier: id.storeIdentifier, entity: "Book", primaryKey: audioKey).uri) == 404)
        #expect(await status(first.id) == 200)
    }

    @MainActor @Test func readingTheGivenContextShowsUnsavedEditsAndThePrivateReaderDoesNot() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let viewContext = stack.container.viewContext
        let privateService = BrowserService(store: ManagedContextStore(context: viewContext))
        let givenService = BrowserService(store: ManagedContextStore(context: viewContext, reading: .givenContext))
        let ada = try #require(try await privateService.records(of: "Author", parameters: .init(search: "ada")).rows.first)
        let adaID = try #require(viewContext.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: URL(string: ada.id)!))
        // On the main actor, so touching the main-queue viewContext directly is allowed.
        viewContext.object(with: adaID).setValue("Ada Lovelace", forKey: "name")
        viewContext.insertRecord("Author", ["name": "Unsaved Author"])   // temporary ID: never listed
        #expect(try await givenService.object(id: ada.id).summary == "Ada Lovelace")
        #expect(try await privateService.object(id: ada.id).summary == "Ada Byron")
        #expect(try await givenService.records(of: "Author", parameters: .init()).total == 3)
    }

    @MainActor @Test func aReaderThatCouldNotBeMadeIsTriedAgainOnTheNextRequest() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        // A context not connected to a store yet: the browser's private reader cannot be made from it.
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        let store = ManagedContextStore(context: context)
        await #expect(throws: BrowserError.self) { try await store.count(of: "Author") }
        // On the main actor, so setting up the main-queue context directly is allowed.
        context.persistentStoreCoordinator = stack.container.persistentStoreCoordinator
        #expect(try await store.count(of: "Author") == 3)
    }

    /// Queries built directly, past BrowserCore's validation (as a later filter might reach the store): each would make
    /// Core Data raise an Objective-C exception that ends the app, so the adapter refuses them with a 400 first
    /// (`ExpressibleQuery`). Swift cannot catch the exception: without the check this test would crash.
    @Test func queriesCoreDataCannotRunAreRefusedBeforeAnyFetch() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let store = ManagedContextStore(context: stack.container.viewContext)
        let named = FilterComparison(FilterKeyPath("name"), .equals, .value(.string("x")))
        let refused: [RecordQuery] = [
            RecordQuery(entity: "Sample", sortKeys: [SortKey(attribute: "scratch", order: .ascending)]),  // transient
            RecordQuery(entity: "Sample", sortKeys: [SortKey(attribute: "blob", order: .ascending)]),  // bytes: no order
            RecordQuery(entity: "Sample", sortKeys: [SortKey(attribute: "nothing", order: .ascending)]),
            RecordQuery(entity: "Sample", filter: .comparison(FilterComparison(FilterKeyPath("scratch"), .equals, .value(.null)))),
            RecordQuery(entity: "Book", filter: .any([.comparison(FilterComparison(FilterKeyPath(["publisher", "name"]), .equals, .value(.string("x"))))])),
            RecordQuery(entity: "Book", filter: .not(.quantified(.any, relationship: "author", named))),  // a to-one
            RecordQuery(entity: "Book", filter: .count(relationship: "nope", .equals, 0)),
            // Count sorts the adapter cannot run (an attribute key first, many-to-many): CountSortedFetchTests.
        ]
        for query in refused {
            await #expect("\(query)") { _ = try await store.page(query) } throws: { ($0 as? BrowserError)?.statusCode == 400 }
            await #expect("\(query)") { _ = try await store.explain(query) } throws: { ($0 as? BrowserError)?.statusCode == 400 }
        }
        // What Core Data can run still runs.
        #expect(try await store.page(RecordQuery(entity: "Book", sortKeys: [SortKey(attribute: "title", order: .ascending)])).total > 0)
    }

    // MARK: Relationship lists, positions, find by ID (the same answers as BrowserMemory and BrowserSQLite)

    @Test func relatedListsPageSortAndSearchLikeAnyList() async throws {
        let (service, _) = try await makeService()
        let zola = try #require(try await service.records(of: "Author", parameters: .init(search: "zola")).rows.first?.id)
        let books = try await service.related(id: zola, relationship: "books", parameters: .init(sort: "title"))
        #expect(books.total == 3)
        #expect(books.rows.map(\.summary) == ["Germinal", "The Café Catalogue", "Thérèse Raquin"])
        let second = try await service.related(id: zola, relationship: "books", parameters: .init(sort: "title", limit: "1", offset: "1"))
        #expect(second.rows.map(\.summary) == ["The Café Catalogue"] && second.total == 3)
        let searched = try await service.related(id: zola, relationship: "books", parameters: .init(search: "germ"))
        #expect(searched.rows.map(\.summary) == ["Germinal"] && searched.total == 1)
        // A to-one scope is its one target; the inverse direction from a tag lists its books.
        let germinal = try #require(searched.rows.first?.id)
        #expect(try await service.related(id: germinal, relationship: "author", parameters: .init()).rows.map(\.id) == [zola])
        let fiction = try #require(try await service.records(of: "Tag", parameters: .init(search: "fiction")).rows.first?.id)
        #expect(try await service.related(id: fiction, relationship: "books", parameters: .init()).total == 5)
    }

    @Test func positionsAreTheIndexInTheList() async throws {
        let (service, _) = try await makeService()
        let list = try await service.records(of: "Book", parameters: .init(sort: "title", order: "desc"))
        for (index, row) in list.rows.enumerated() {
            let position = try await service.position(of: "Book", id: row.id, parameters: .init(sort: "title", order: "desc", limit: "3"))
            #expect(position.offset == index && position.pageOffset == index / 3 * 3)
        }
        let author = try #require(try await service.records(of: "Author", parameters: .init()).rows.first?.id)
        await #expect(throws: BrowserError.self) {
            try await service.position(of: "Book", id: author, parameters: .init())
        }
    }

    @Test func searchFindsRecordsByIDAndUUID() async throws {
        let (service, _) = try await makeService()
        let first = try #require(try await service.records(of: "Book", parameters: .init()).rows.first)
        #expect(try await service.records(of: "Book", parameters: .init(search: first.id)).rows.map(\.id) == [first.id])
        let uuid = TestLibrary.uuid(3).uuidString.lowercased()
        #expect(try await titles(service, .init(search: uuid)) == ["Germinal"])
    }
}

#endif
