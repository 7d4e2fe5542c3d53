#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import BrowserSQLite
import CoreData
import Testing

/// Lists sorted by a to-many relationship's count (`sort=books.@count`) in the live adapter (`CountSortedFetch`):
/// the same pages and positions as the store-file reader (which sorts by counts in SQL) gives for the same saved
/// file, and the refusals (an attribute key before a count key, a many-to-many relationship, too many records).
@Suite struct CountSortedFetchTests {
    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try BrowserJSON.encode(value), as: UTF8.self)
    }

    /// The library, an author without books (no group in the count fetch: counts 0) and a book without an author
    /// (the group of books with no author, which counts no one).
    private static func seed(_ context: NSManagedObjectContext) {
        TestLibrary.insert(into: context)
        context.insertRecord("Author", ["name": "Anonymous"])
        context.insertRecord("Book", ["title": "Orphan", "pageCount": NSNumber(value: Int32(1)), "identifier": TestLibrary.uuid(990),
                                      "inPrint": NSNumber(value: true)])
    }

    @Test func countSortedPagesAndPositionsAreTheStoreFileReadersOwn() async throws {
        try await TestStack.withFolder { folder in
            let url = folder.appendingPathComponent("Library.sqlite")
            let stack = try TestStack(storeURL: url)
            try await stack.seed { Self.seed($0) }
            let live = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
            let file = BrowserService(store: try SQLiteStore.open(storeAt: url))

            // Zola and Butler have 3 books each (Butler's audiobook included: a sub-entity), Ada 2, Anonymous none.
            let names = try await live.records(of: "Author", parameters: .init(sort: "books.@count", order: "desc")).rows.map(\.summary)
            #expect(Set(names.prefix(2)) == ["Octavia Butler", "Émile Zola"] && names.suffix(2) == ["Ada Byron", "Anonymous"])
            // Equal counts in the name's order (BINARY: "É" is byte 0xC3, after "O").
            let byName = try await live.records(of: "Author", parameters: .init(sort: "books.@count:desc,name:desc")).rows.map(\.summary)
            #expect(byName == ["Émile Zola", "Octavia Butler", "Ada Byron", "Anonymous"])
            let ascending = try await live.records(of: "Author", parameters: .init(sort: "books.@count,name")).rows.map(\.summary)
            #expect(ascending == ["Anonymous", "Ada Byron", "Octavia Butler", "Émile Zola"])

            let queries: [RecordQueryParameters] = [
                .init(sort: "books.@count"), .init(sort: "books.@count", order: "desc"), .init(sort: "books.@count:desc,name"),
                .init(sort: "books.@count,name:desc"), .init(sort: "books.@count", order: "desc", limit: "2", offset: "1"),
                // A filtered list: the count fetch is restricted to the listed authors.
                .init(search: "b", sort: "books.@count", order: "desc"),
            ]
            for query in queries {
                let livePage = try await live.records(of: "Author", parameters: query)
                #expect(try json(livePage) == json(try await file.records(of: "Author", parameters: query)), "\(query)")
                for row in try await file.records(of: "Author", parameters: .init(search: query.search)).rows {
                    let livePosition = try await live.position(of: "Author", id: row.id, parameters: query)
                    #expect(try json(livePosition) == json(try await file.position(of: "Author", id: row.id, parameters: query)),
                            "\(row.summary) in \(query)")
                }
            }

            let explained = try await live.explain(of: "Author", parameters: .init(sort: "books.@count", order: "desc"))
            #expect(explained.steps.contains { $0.contains("propertiesToGroupBy = [author]") }, "\(explained.steps)")
        }
    }

    /// Core Data's in-memory store type gets no grouped fetch (Apple documents grouping for SQL stores): its
    /// records are counted one by one, to the same counts in the same order as the SQLite store's. Zola and Butler tie
    /// at 3, and those stores neither break ties by primary key nor compare "É" byte by byte, so their places are
    /// compared as a set.
    @Test func aStoreThatIsNotSQLiteCountsRecordByRecord() async throws {
        let sqlite = try TestStack()
        let memory = try TestStack(storeType: NSInMemoryStoreType)
        try await sqlite.seed { Self.seed($0) }
        try await memory.seed { Self.seed($0) }
        let query = RecordQueryParameters(sort: "books.@count", order: "desc")
        let bySQL = try await BrowserService(store: ManagedContextStore(context: sqlite.container.viewContext))
            .records(of: "Author", parameters: query)
        let inMemory = try await BrowserService(store: ManagedContextStore(context: memory.container.viewContext))
            .records(of: "Author", parameters: query)
        let names = inMemory.rows.map(\.summary)
        #expect(Set(names.prefix(2)) == ["Émile Zola", "Octavia Butler"] && names.suffix(2) == ["Ada Byron", "Anonymous"])
        #expect(inMemory.rows.map { $0.counts?["books"] } == [3, 3, 2, 0])
        #expect(inMemory.rows.map(\.counts) == bySQL.rows.map(\.counts))
    }

    /// Built past BrowserCore's validation, as the existing refusals are: each is a 400 that says why, from `page`,
    /// `explain` and `position` alike, before any fetch.
    @Test func countSortsTheAdapterCannotRunAreRefused() async throws {
        let stack = try TestStack()
        try await stack.seed { Self.seed($0) }
        let store = ManagedContextStore(context: stack.container.viewContext)
        let refused: [(RecordQuery, String)] = [
            (RecordQuery(entity: "Author", sortKeys: [SortKey(attribute: "name", order: .ascending), SortKey(countOf: "books", order: .descending)]),
             "Put the count keys first"),
            // Tag.books' inverse Book.tags is to-many: no documented fetch groups by it.
            (RecordQuery(entity: "Tag", sortKeys: [SortKey(countOf: "books", order: .descending)]), "many-to-many"),
        ]
        for (query, reason) in refused {
            for run in [{ _ = try await store.page(query) }, { _ = try await store.explain(query) }] as [@Sendable () async throws -> Void] {
                await #expect("\(query)") { try await run() } throws: { error in
                    guard let error = error as? BrowserError else { return false }
                    return error.statusCode == 400 && error.message.contains(reason)
                }
            }
        }
        let count = RecordQuery(entity: "Author", sortKeys: [SortKey(countOf: "books", order: .descending)], tieBreak: .descending)
        #expect(try await store.page(count).records.count == 4)
    }

    /// Above the limit of matching records the page is refused with a 400 naming it; a filter that narrows the list
    /// below it is served.
    @Test func theLimitOfRecordsACountSortHoldsIsEnforced() async throws {
        let stack = try TestStack()
        try await stack.seed { Self.seed($0) }
        let store = ManagedContextStore(context: stack.container.viewContext, maximumCountSortedRecords: 2)
        let all = RecordQuery(entity: "Author", sortKeys: [SortKey(countOf: "books", order: .descending)], tieBreak: .descending)
        await #expect { _ = try await store.page(all) } throws: { error in
            guard let error = error as? BrowserError else { return false }
            return error.statusCode == 400 && error.message.contains("4 records match") && error.message.contains("up to 2")
        }
        var narrowed = all
        narrowed.filter = .comparison(FilterComparison(FilterKeyPath("name"), .equals, .value(.string("Émile Zola"))))
        let page = try await store.page(narrowed)
        #expect(page.total == 1 && page.records.map { $0.values["name"] } == [.string("Émile Zola")])
    }
}

#endif
