import BrowserCore
import Foundation
import Testing

/// Every rule of `/api/entities/:name`'s parameters: what is accepted, what it becomes, what is refused.
struct RecordQueryValidationTests {
    static let accepted: [([String: String], RecordQuery)] = [
        ([:], RecordQuery(entity: "Book")),
        (["limit": "25"], RecordQuery(entity: "Book", limit: 25)),
        (["limit": "500"], RecordQuery(entity: "Book", limit: 500)),
        (["limit": "501"], RecordQuery(entity: "Book", limit: 500)),
        (["limit": "1000000"], RecordQuery(entity: "Book", limit: 500)),
        (["offset": "0"], RecordQuery(entity: "Book")),
        (["offset": "300"], RecordQuery(entity: "Book", offset: 300)),
        (["order": "desc"], RecordQuery(entity: "Book", tieBreak: .descending)),
        (["sort": "pageCount"], RecordQuery(entity: "Book", sortKeys: [SortKey(attribute: "pageCount", order: .ascending)])),
        (["sort": "pageCount", "order": "desc"], RecordQuery(entity: "Book", sortKeys: [SortKey(attribute: "pageCount", order: .descending)], tieBreak: .descending)),
        (["sort": ""], RecordQuery(entity: "Book")),
        (["sort": "pageCount:desc"], RecordQuery(entity: "Book", sortKeys: [SortKey(attribute: "pageCount", order: .descending)], tieBreak: .descending)),
        (["sort": "pageCount:desc,title"], RecordQuery(entity: "Book", sortKeys: [
            SortKey(attribute: "pageCount", order: .descending), SortKey(attribute: "title", order: .ascending),
        ], tieBreak: .descending)),
        (["sort": "title,pageCount:asc", "order": "desc"], RecordQuery(entity: "Book", sortKeys: [
            SortKey(attribute: "title", order: .descending), SortKey(attribute: "pageCount", order: .ascending),
        ], tieBreak: .descending)),
        // The tie-break follows the first key, whatever `order` says.
        (["sort": "pageCount:asc", "order": "desc"], RecordQuery(entity: "Book", sortKeys: [SortKey(attribute: "pageCount", order: .ascending)],
                                                                 tieBreak: .ascending)),
        (["search": ""], RecordQuery(entity: "Book")),
        (["search": "", "searchAttr": "title"], RecordQuery(entity: "Book")),
        (["search": "café", "searchAttr": "title"],
         RecordQuery(entity: "Book", search: RecordSearch(text: "café", attributes: ["title"]))),
        (["search": "x"], RecordQuery(entity: "Book", search: RecordSearch(text: "x", attributes: ["summary", "title"]))),
    ]

    @Test("accepted parameters become the expected query", arguments: accepted)
    func accepts(pairs: [String: String], expected: RecordQuery) throws {
        let query = try RecordQuery.validated(Make.parameters(pairs), for: Make.bookEntity())
        #expect(query == expected)
    }

    static let refused: [([String: String], String)] = [
        (["limit": "0"], #"limit must be a positive integer, got "0""#),
        (["limit": "-5"], #"limit must be a positive integer, got "-5""#),
        (["limit": "ten"], #"limit must be a positive integer, got "ten""#),
        (["limit": "1.5"], #"limit must be a positive integer, got "1.5""#),
        (["limit": ""], #"limit must be a positive integer, got """#),
        (["limit": "99999999999999999999999"], #"limit must be a positive integer, got "99999999999999999999999""#),
        (["offset": "-1"], #"offset must be a non-negative integer, got "-1""#),
        (["offset": "2.0"], #"offset must be a non-negative integer, got "2.0""#),
        (["offset": "' OR 1=1 --"], #"offset must be a non-negative integer, got "' OR 1=1 --""#),
        (["order": "ASC"], #"order must be "asc" or "desc", got "ASC""#),
        (["order": "up"], #"order must be "asc" or "desc", got "up""#),
        (["sort": "author"], #"Cannot sort Book by "author": it is not an attribute of Book"#),
        (["sort": "title; DROP TABLE ZBOOK"], #"Cannot sort Book by "title; DROP TABLE ZBOOK": it is not an attribute of Book"#),
        (["sort": "title,title"], "In sort=title,title: title is named twice"),
        (["sort": "title:up"], #"In sort=title:up: the direction of title must be "asc" or "desc", got "up""#),
        (["sort": "title,"], "In sort=title,: an empty key (keys are attribute names separated by commas)"),
        (["sort": "title,pageCount,summary,publishedAt,identifier"], "sort has 5 keys; at most 4 are allowed"),
        (["sort": "title,nope:desc"], #"Cannot sort Book by "nope": it is not an attribute of Book"#),
        (["search": "x", "searchAttr": "pageCount"], "Cannot search Book.pageCount: it is a Integer 32 attribute, not a String"),
        (["search": "x", "searchAttr": "nope"], #"Cannot search Book by "nope": it is not an attribute of Book"#),
        (["searchAttr": "publishedAt"], "Cannot search Book.publishedAt: it is a Date attribute, not a String"),
        (["search": String(repeating: "é", count: 1_001)], "search is 1001 characters long; at most 1000 are allowed"),
    ]

    @Test("refused parameters are a 400 with a precise message", arguments: refused)
    func refuses(pairs: [String: String], message: String) {
        #expect(throws: BrowserError.badRequest(message)) {
            try RecordQuery.validated(Make.parameters(pairs), for: Make.bookEntity())
        }
    }

    /// Book with a to-many relationship, `tags`, beside its to-one `author`.
    static func bookWithTags() -> EntitySchema {
        var book = Make.bookEntity()
        book.relationships.append(RelationshipSchema(name: "tags", destination: "Tag", isToMany: true))
        return book
    }

    @Test func aToManyRelationshipsCountIsASortKeyMixedWithAttributes() throws {
        let query = try RecordQuery.validated(Make.parameters(["sort": "tags.@count:desc,title"]), for: Self.bookWithTags())
        let expected = RecordQuery(entity: "Book", sortKeys: [
            SortKey(countOf: "tags", order: .descending), SortKey(attribute: "title", order: .ascending),
        ], tieBreak: .descending)
        #expect(query == expected)
        #expect(query.sortKeys.map(\.keyPath) == ["tags.@count", "title"])
        let second = try RecordQuery.validated(Make.parameters(["sort": "pageCount,tags.@count", "order": "desc"]), for: Self.bookWithTags())
        #expect(second.sortKeys.dropFirst() == [SortKey(countOf: "tags", order: .descending)])
    }

    static let refusedCountSorts: [(String, String)] = [
        ("author.@count", "Cannot sort Book by author.@count: author is a to-one relationship, and only a to-many relationship has a count"),
        ("nope.@count", #"Cannot sort Book by nope.@count: Book has no relationship "nope""#),
        ("title.@count", "Cannot sort Book by title.@count: it is an attribute, and only a to-many relationship has a count"),
        (".@count", #"Cannot sort Book by .@count: Book has no relationship """#),
        ("tags", #"Cannot sort Book by "tags": it is not an attribute of Book (sort by its count with tags.@count)"#),
        ("tags.@count,tags.@count:desc", "In sort=tags.@count,tags.@count:desc: tags.@count is named twice"),
        ("tags.@count:up", #"In sort=tags.@count:up: the direction of tags.@count must be "asc" or "desc", got "up""#),
    ]

    @Test("a count key names a to-many relationship, once", arguments: refusedCountSorts)
    func refusesCountSorts(sort: String, message: String) {
        #expect(throws: BrowserError.badRequest(message)) {
            try RecordQuery.validated(Make.parameters(["sort": sort]), for: Self.bookWithTags())
        }
    }

    @Test func searchWithoutStringAttributesMatchesNothing() throws {
        let entity = EntitySchema(name: "Counter", attributes: [AttributeSchema(name: "value", type: .integer64)])
        let query = try RecordQuery.validated(Make.parameters(["search": "x"]), for: entity)
        #expect(query.search?.filter == .any([]))
        #expect(query.matchFilter == .any([]))
    }

    @Test("bytes and unknown types cannot be sorted by", arguments: [
        ("cover", AttributeType.binary), ("color", .transformable), ("location", .undefined),
    ])
    func unsortableTypes(name: String, type: AttributeType) {
        let entity = EntitySchema(name: "Shop", attributes: [AttributeSchema(name: name, type: type)])
        #expect(throws: BrowserError.badRequest("Cannot sort Shop by \(name): its type (\(type.rawValue)) has no order to sort by")) {
            try RecordQuery.validated(Make.parameters(["sort": name]), for: entity)
        }
    }

    @Test func aPastedUUIDAlsoMatchesUUIDAttributesExactly() throws {
        let entity = EntitySchema(name: "Photo", attributes: [
            AttributeSchema(name: "caption", type: .string), AttributeSchema(name: "uuid", type: .uuid),
        ])
        let text = "31d0046d-3c85-410e-bbb0-141fc0105e06"
        let query = try RecordQuery.validated(Make.parameters(["search": text]), for: entity)
        #expect(query.search == RecordSearch(text: text, attributes: ["caption"], uuidAttributes: ["uuid"]))
        #expect(query.matchFilter == .any([
            RecordFilter.contains("caption", text),
            RecordFilter.equals("uuid", .uuid(try #require(UUID(uuidString: text)))),
        ]))
        // Searching one named attribute searches only it.
        let named = try RecordQuery.validated(Make.parameters(["search": text, "searchAttr": "caption"]), for: entity)
        #expect(named.matchFilter == RecordFilter.contains("caption", text))
    }
}
