#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import BrowserSQLite
import CoreData
import Testing

/// `GET /api/history` over a live context whose store tracks history: four saves by two authors from two
/// contexts, read back through `BrowserService` as the API does.
@Suite struct ContextHistoryTests {
    /// The four transactions, oldest first:
    /// 1. importer / import-context: inserts Ada, Zola (Author) and the tags classic, science, fiction;
    /// 2. editor / edit-context: renames Ada and the tag classic;
    /// 3. editor / edit-context: deletes the tag science (its name is kept in the tombstone);
    /// 4. importer / import-context: inserts Octavia (Author).
    private func makeHistory(in folder: URL) async throws -> TestStack {
        let stack = try TestStack(storeURL: folder.appendingPathComponent("History.sqlite"), historyTracking: true)
        try await stack.seed(author: "importer", contextName: "import-context") { context in
            for name in ["Ada", "Zola"] { context.insertRecord("Author", ["name": name]) }
            for name in ["classic", "science", "fiction"] { context.insertRecord("Tag", ["name": name]) }
        }
        try await stack.seed(author: "editor", contextName: "edit-context") { context in
            try context.first("Author", is: "Ada")?.setValue("Ada Lovelace", forKey: "name")
            try context.first("Tag", is: "classic")?.setValue("classics", forKey: "name")
        }
        try await stack.seed(author: "editor", contextName: "edit-context") { context in
            if let science = try context.first("Tag", is: "science") { context.delete(science) }
        }
        try await stack.seed(author: "importer", contextName: "import-context") { context in
            context.insertRecord("Author", ["name": "Octavia"])
        }
        return stack
    }

    private func history(_ service: BrowserService, _ parameters: [String: String] = [:]) async throws -> HistoryPageDTO {
        try await service.history(parameters: HistoryQueryParameters { parameters[$0] })
    }

    @Test func pagesGoNewestFirstBackInTimeAndOldestFirstForward() async throws {
        try await TestStack.withFolder { folder in
            let stack = try await makeHistory(in: folder)
            let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
            let all = try await history(service)
            #expect(all.available)
            #expect(all.transactions.count == 4)
            let numbers = all.transactions.map(\.id)
            #expect(numbers == numbers.sorted(by: >))
            #expect(all.transactions.map(\.author) == ["importer", "editor", "editor", "importer"])
            #expect(all.transactions.map(\.contextName) == ["import-context", "edit-context", "edit-context", "import-context"])
            #expect(all.transactions.map(\.changeCount) == [1, 1, 2, 5])
            #expect(all.older == nil && all.newer == numbers.first)
            #expect(all.authors == ["editor", "importer"])
            #expect(all.contexts == ["edit-context", "import-context"])

            let newest = try await history(service, ["limit": "2"])
            #expect(newest.transactions.map(\.id) == Array(numbers.prefix(2)))
            #expect(newest.older == numbers[1])
            let older = try await history(service, ["limit": "2", "before": String(numbers[1])])
            #expect(older.transactions.map(\.id) == Array(numbers.suffix(2)))
            #expect(older.older == nil)

            let following = try await history(service, ["limit": "2", "after": String(numbers[3])])
            #expect(following.transactions.map(\.id) == [numbers[2], numbers[1]])
            #expect(following.newer == numbers[1])
            let caughtUp = try await history(service, ["after": String(numbers[0])])
            #expect(caughtUp.transactions.isEmpty && caughtUp.newer == numbers[0])
        }
    }

    @Test func changesNameTheirObjectsTheUpdatedPropertiesAndTheTombstone() async throws {
        try await TestStack.withFolder { folder in
            let stack = try await makeHistory(in: folder)
            let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
            let all = try await history(service).transactions

            let inserts = all[3].changes
            #expect(inserts.map(\.type) == Array(repeating: "insert", count: 5))
            #expect(inserts.map(\.entity).sorted() == ["Author", "Author", "Tag", "Tag", "Tag"])
            #expect(inserts.allSatisfy { $0.changed == nil && $0.tombstone == nil && $0.id.hasPrefix("x-coredata://") })

            let updates = all[2].changes
            #expect(updates.map(\.type) == ["update", "update"])
            #expect(updates.map(\.changed) == [["name"], ["name"]])
            // A renamed object keeps its ID: the update names the row the insert created.
            #expect(Set(updates.map(\.id)).isSubset(of: Set(inserts.map(\.id))))

            let delete = try #require(all[1].changes.first)
            #expect(delete.type == "delete" && delete.entity == "Tag")
            #expect(delete.tombstone == ["name": .string("science")])
            #expect(inserts.map(\.id).contains(delete.id))
        }
    }

    @Test func filtersKeepMatchingTransactionsAndOnlyTheFilteredEntitysChanges() async throws {
        try await TestStack.withFolder { folder in
            let stack = try await makeHistory(in: folder)
            let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
            let numbers = try await history(service).transactions.map(\.id)

            let tags = try await history(service, ["entity": "Tag"])
            #expect(tags.transactions.map(\.id) == Array(numbers.suffix(3)))
            #expect(tags.transactions.map(\.changeCount) == [1, 1, 3])
            #expect(tags.transactions.flatMap(\.changes).allSatisfy { $0.entity == "Tag" })

            let editor = try await history(service, ["author": "editor"])
            #expect(editor.transactions.map(\.id) == [numbers[1], numbers[2]])
            // The menus still list every author and context.
            #expect(editor.authors == ["editor", "importer"])
            let imports = try await history(service, ["context": "import-context"])
            #expect(imports.transactions.map(\.id) == [numbers[0], numbers[3]])
            let nobody = try await history(service, ["author": "nobody"])
            #expect(nobody.available && nobody.transactions.isEmpty)

            // One transaction by number; with an entity it did not change, there is none to show.
            let one = try await history(service, ["transaction": String(numbers[2])])
            #expect(one.transactions.map(\.id) == [numbers[2]])
            await #expect(throws: BrowserError.self) {
                try await history(service, ["transaction": String(numbers[0]), "entity": "Tag"])
            }
        }
    }

    @Test func aTransactionsChangesArePagedWithTheirTotal() async throws {
        try await TestStack.withFolder { folder in
            let stack = try await makeHistory(in: folder)
            let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
            let first = try #require(try await history(service).transactions.last)
            let all = try await history(service, ["transaction": String(first.id), "changeLimit": "50"]).transactions[0].changes

            let head = try await history(service, ["transaction": String(first.id), "changeLimit": "2"]).transactions[0]
            #expect(head.changeCount == 5 && head.changeOffset == 0 && head.changes == Array(all.prefix(2)))
            let tail = try await history(service, ["transaction": String(first.id), "changeOffset": "4", "changeLimit": "2"]).transactions[0]
            #expect(tail.changeCount == 5 && tail.changeOffset == 4 && tail.changes == Array(all.suffix(1)))
            let past = try await history(service, ["transaction": String(first.id), "changeOffset": "9"]).transactions[0]
            #expect(past.changeCount == 5 && past.changes.isEmpty)
        }
    }

    /// A bulk import of 10,000 inserts in one transaction, between two small ones: a page of its changes is the right
    /// slice (the store-file reader, which reads `ACHANGE` by primary key, gives the same one), never holds a change of
    /// the transaction after it, and its total is exact. What cannot be observed from here is what Core Data built:
    /// the adapter asks for only the page (`fetchOffset`/`fetchLimit` on the changes after the previous transaction)
    /// and counts the rest (`.count`), so the page's changes are the only ones made.
    @Test func aTransactionOfTenThousandChangesIsReadAPageAtATime() async throws {
        try await TestStack.withFolder { folder in
            let url = folder.appendingPathComponent("Import.sqlite")
            let stack = try TestStack(storeURL: url, historyTracking: true)
            try await stack.seed(author: "before") { context in context.insertRecord("Author", ["name": "Ada"]) }
            try await stack.seed(author: "bulk") { context in
                for number in 0..<10_000 { context.insertRecord("Tag", ["name": "tag \(number)"]) }
                context.insertRecord("Author", ["name": "Importer"])
            }
            try await stack.seed(author: "after") { context in context.insertRecord("Tag", ["name": "later"]) }
            let live = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
            let file = BrowserService(store: try SQLiteStore.open(storeAt: url))

            let listed = try await history(live, ["limit": "3", "changeLimit": "5"]).transactions
            #expect(listed.map(\.author) == ["after", "bulk", "before"])
            #expect(listed.map(\.changeCount) == [1, 10_001, 1])
            #expect(listed.map(\.changes.count) == [1, 5, 1])
            let bulk = listed[1].id

            for (offset, limit) in [(0, 50), (5_000, 100), (9_990, 50), (10_001, 50)] {
                let parameters = ["transaction": String(bulk), "changeOffset": String(offset), "changeLimit": String(limit)]
                let livePage = try #require(try await history(live, parameters).transactions.first)
                let filePage = try #require(try await history(file, parameters).transactions.first)
                #expect(livePage.changeCount == 10_001, "offset \(offset)")
                #expect(livePage.changes.count == max(0, min(limit, 10_001 - offset)), "offset \(offset)")
                #expect(livePage.changes.map(\.id) == filePage.changes.map(\.id), "offset \(offset)")
                #expect(livePage.changes.allSatisfy { $0.type == "insert" })
            }

            // With an entity filter the count and the page are of that entity's changes only.
            let authors = try #require(try await history(live, ["transaction": String(bulk), "entity": "Author"]).transactions.first)
            #expect(authors.changeCount == 1 && authors.changes.map(\.entity) == ["Author"])
            let tags = try #require(try await history(live, ["transaction": String(bulk), "entity": "Tag", "changeOffset": "9990"]).transactions.first)
            #expect(tags.changeCount == 10_000 && tags.changes.count == 10 && tags.changes.allSatisfy { $0.entity == "Tag" })
            // The newest transaction that changed an Author is the bulk one.
            #expect(try await history(live, ["entity": "Author", "limit": "1"]).transactions.map(\.id) == [bulk])
        }
    }

    @Test func aStoreWithoutHistoryTrackingSaysHowToTurnItOn() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        let page = try await history(service)
        #expect(!page.available && page.transactions.isEmpty)
        #expect(page.reason?.contains("NSPersistentHistoryTrackingKey") == true)
    }

    /// The same history read from the store file (`HistoryReader`) agrees with Core Data on transactions, authors,
    /// contexts, change types, objects, and the properties each update changed (`ACHANGE.ZCOLUMNS` decoded by the
    /// format doc's §11.1 rule, against Core Data's own `updatedProperties`). Tombstones are printed both ways.
    @Test func theStoreFileReadsTheSameHistory() async throws {
        try await TestStack.withFolder { folder in
            let stack = try await makeHistory(in: folder)
            let live = try await history(BrowserService(store: ManagedContextStore(context: stack.container.viewContext)),
                                         ["changeLimit": "1000"])
            let file = try await history(BrowserService(store: try SQLiteStore.open(storeAt: folder.appendingPathComponent("History.sqlite"))),
                                         ["changeLimit": "1000"])
            #expect(file.available)
            #expect(file.transactions.map(\.id) == live.transactions.map(\.id))
            #expect(file.transactions.map(\.author) == live.transactions.map(\.author))
            #expect(file.transactions.map(\.contextName) == live.transactions.map(\.contextName))
            #expect(file.authors == live.authors && file.contexts == live.contexts)
            for (fileTransaction, liveTransaction) in zip(file.transactions, live.transactions) {
                #expect(fileTransaction.timestamp == liveTransaction.timestamp)
                let byID = Dictionary(liveTransaction.changes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                #expect(Set(fileTransaction.changes.map(\.id)) == Set(byID.keys))
                for change in fileTransaction.changes {
                    guard let match = byID[change.id] else { continue }
                    #expect(change.type == match.type && change.entity == match.entity)
                    if change.type == "update" {
                        #expect(change.changedBits == nil, "the bitmap of \(change.id) fits the model")
                        #expect(change.changed.map(Set.init) == match.changed.map(Set.init), "\(change.entity) \(change.id)")
                    }
                    if change.type == "delete" {
                        print("ACHANGE tombstone columns of \(change.id): \(change.tombstone ?? [:]) — Core Data: \(match.tombstone ?? [:])")
                    }
                }
            }
        }
    }
}

#endif
