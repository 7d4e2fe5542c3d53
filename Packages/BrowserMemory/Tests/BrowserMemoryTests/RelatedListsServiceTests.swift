import BrowserCore
import BrowserMemory
import Foundation
import Testing

/// The service's answers for walking relationships and finding records, over the demo library: related lists
/// paged to the end, positions, search by ID and UUID, display attributes and exports with every related record.
struct RelatedListsServiceTests {
    let store: InMemoryStore
    let service: BrowserService

    init() async throws {
        store = try await DemoLibrary.makeStore()
        service = BrowserService(store: store)
    }

    func id(_ entity: String, _ key: Int64) -> String {
        ObjectID(storeIdentifier: DemoLibrary.storeIdentifier, entity: entity, primaryKey: key).uri
    }

    @Test func relatedPagesReachTheEndWithTheirTotal() async throws {
        let author = id("Author", 2)
        let first = try await service.related(id: author, relationship: "books", parameters: .init(limit: "7"))
        #expect(first.total > 20)
        var seen: [String] = first.rows.map(\.id)
        var offset = 7
        while offset < first.total {
            let page = try await service.related(id: author, relationship: "books", parameters: .init(limit: "7", offset: String(offset)))
            #expect(page.total == first.total)
            seen += page.rows.map(\.id)
            offset += 7
        }
        #expect(seen.count == first.total && Set(seen).count == seen.count)
        // The same records as the entity list restricted to the relationship, and every one's author is Zola.
        let scoped = try await service.records(of: "Book", parameters: .init(limit: "500", relatedTo: author, via: "books"))
        #expect(scoped.rows.map(\.id) == seen)
        for row in scoped.rows.prefix(5) {
            let object = try await service.object(id: row.id)
            #expect(object.relationships.first { $0.name == "author" }?.items.map(\.id) == [author])
        }
    }

    @Test func relatedListsSortAndSearchLikeAnyList() async throws {
        let author = id("Author", 2)
        let sorted = try await service.related(id: author, relationship: "books",
                                               parameters: .init(sort: "pageCount", order: "desc", limit: "500"))
        let pages = sorted.rows.compactMap { row -> Int64? in
            if case .integer(let count)? = row.attrs["pageCount"] { return count } else { return nil }
        }
        #expect(pages == pages.sorted(by: >) && pages.count == sorted.total)
        let searched = try await service.related(id: author, relationship: "books", parameters: .init(search: "germinal"))
        #expect(searched.rows.map(\.summary) == ["Germinal", "Germinal (Audio)"])
    }

    @Test func badRelatedRequestsSayWhatIsWrong() async throws {
        await #expect(throws: BrowserError.badRequest("Missing id: pass ?id=<x-coredata URI> (URL-encoded)")) {
            try await service.related(id: nil, relationship: "books", parameters: .init())
        }
        await #expect(throws: BrowserError.notFound("Author has no relationship \"novels\"")) {
            try await service.related(id: id("Author", 2), relationship: "novels", parameters: .init())
        }
        await #expect(throws: BrowserError.badRequest("Missing rel: name the relationship of Author to follow")) {
            try await service.related(id: id("Author", 2), relationship: nil, parameters: .init())
        }
        await #expect(throws: BrowserError.notFound("No record \(id("Author", 99))")) {
            try await service.related(id: id("Author", 99), relationship: "books", parameters: .init())
        }
        await #expect(throws: BrowserError.badRequest("Author.books leads to Book, not Tag")) {
            try await service.records(of: "Tag", parameters: .init(relatedTo: id("Author", 2), via: "books"))
        }
        await #expect(throws: BrowserError.badRequest("via=books needs relatedTo=<the record's id>")) {
            try await service.records(of: "Book", parameters: .init(via: "books"))
        }
    }

    @Test func positionsOpenThePageThatHoldsTheRecord() async throws {
        let parameters = RecordQueryParameters(sort: "title", limit: "50")
        let all = try await service.records(of: "Book", parameters: .init(sort: "title", limit: "500"))
        for index in [0, 1, 49, 50, 333, all.rows.count - 1] {
            let position = try await service.position(of: "Book", id: all.rows[index].id, parameters: parameters)
            #expect(position.offset == index && position.pageOffset == index / 50 * 50 && position.limit == 50)
        }
        await #expect(throws: BrowserError.notFound("Author p1 is not in this list of Book")) {
            try await service.position(of: "Book", id: id("Author", 1), parameters: parameters)
        }
    }

    @Test func searchFindsRecordsByTheirIDOrAUUID() async throws {
        let uri = try await service.records(of: "Book", parameters: .init(search: id("AudioBook", 14)))
        #expect(uri.total == 1 && uri.rows.first?.summary == "Germinal (Audio)")
        let short = try await service.records(of: "Book", parameters: .init(search: " p3 "))
        #expect(short.total == 1 && short.rows.first?.id == id("Book", 3))
        // An ID of another entity, or a key no record has, finds nothing rather than searching text.
        #expect(try await service.records(of: "Author", parameters: .init(search: id("Book", 3))).total == 0)
        #expect(try await service.records(of: "Book", parameters: .init(search: "p999999")).total == 0)

        let book = try await service.object(id: id("Book", 4))
        guard case .uuid(let uuid)? = book.attrs["identifier"] else { Issue.record("no identifier"); return }
        let byUUID = try await service.records(of: "Book", parameters: .init(search: uuid.uuidString.lowercased()))
        #expect(byUUID.rows.map(\.id) == [id("Book", 4)])
    }

    @Test func entitiesSayWhichAttributeNamesTheirRecords() async throws {
        let entities = try await service.entities()
        let chosen = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.summaryAttribute) })
        #expect(chosen == ["Author": "name", "Book": "title", "AudioBook": "title", "Tag": "name"])
        #expect(entities.allSatisfy { !$0.isAbstract })
    }

    @Test func exportsSayHowManyRelatedRecordsTheyHoldAndCanHoldAll() async throws {
        let preview = try await service.object(id: id("Author", 2))
        let books = try #require(preview.relationships.first { $0.name == "books" })
        #expect(books.included == BrowserService.relationshipPreviewLimit && books.count > books.included)
        let full = try await service.object(id: id("Author", 2), allRelated: true)
        let all = try #require(full.relationships.first { $0.name == "books" })
        #expect(all.included == all.count && all.items.count == all.count)
        #expect(Set(all.items.map(\.id)).count == all.count)
    }
}
