import BrowserCore
import Foundation
import Testing

/// Every rule of `RecordFilter.validated`: names resolved against the model, operators fitting types, values
/// given their attribute's case, object IDs of the right entity, limits; each refusal names the condition.
struct FilterValidationTests {
    static let schema = Make.librarySchema()
    static let book = schema.entity(named: "Book")!
    static let authorID = "x-coredata://\(Make.storeID)/Author/p3"

    static func validated(_ text: String, entity: EntitySchema = book) throws -> RecordFilter {
        try RecordFilter.validated(PredicateParser.parse(text).filter, for: entity, in: schema)
    }

    static func comparison(_ path: [String], _ op: FilterOperator, options: FilterOptions = [], _ operand: FilterOperand) -> RecordFilter {
        .comparison(FilterComparison(FilterKeyPath(path), op, options: options, operand))
    }

    static let accepted: [(String, RecordFilter)] = [
        ("pageCount > 300", comparison(["pageCount"], .greaterThan, .value(.integer(300)))),
        ("pageCount > 300.0", comparison(["pageCount"], .greaterThan, .value(.integer(300)))),
        ("rating > 3", comparison(["rating"], .greaterThan, .value(.double(3)))),
        ("weight < 0.1", comparison(["weight"], .lessThan, .value(.double(0.1)))),
        ("price == 3", comparison(["price"], .equals, .value(.decimal(3)))),
        ("price == \"10.11\"", comparison(["price"], .equals, .value(.decimal(Decimal(string: "10.11")!)))),
        ("wordCount == \"9007199254740993\"", comparison(["wordCount"], .equals, .value(.integer(9_007_199_254_740_993)))),
        ("inPrint == 1", comparison(["inPrint"], .equals, .value(.boolean(true)))),
        ("publishedAt >= \"2020-03-01\"",
         comparison(["publishedAt"], .greaterThanOrEqual, .value(.date(Date(timeIntervalSince1970: 1_583_020_800))))),
        ("identifier == \"31d0046d-3c85-410e-bbb0-141fc0105e06\"",
         comparison(["identifier"], .equals, .value(.uuid(UUID(uuidString: "31D0046D-3C85-410E-BBB0-141FC0105E06")!)))),
        ("homepage IN {\"https://a.example\"}", comparison(["homepage"], .in, .list([.uri("https://a.example")]))),
        ("cover == nil", comparison(["cover"], .equals, .value(.null))),
        ("author.name BEGINSWITH[c] \"k\"", comparison(["author", "name"], .beginsWith, options: .caseInsensitive, .value(.string("k")))),
        ("author.agent.name == \"x\"", comparison(["author", "agent", "name"], .equals, .value(.string("x")))),
        ("author == \"\(authorID)\"", comparison(["author"], .equals, .object(authorID))),
        ("author != nil", comparison(["author"], .notEquals, .value(.null))),
        ("author.agent == nil", comparison(["author", "agent"], .equals, .value(.null))),
        ("place.city ==[cd] \"rome\"", comparison(["place.city"], .equals, options: .caseAndDiacriticInsensitive, .value(.string("rome")))),
        ("ALL tags.name LIKE[c] \"*e\"", .quantified(.all, relationship: "tags",
            FilterComparison(FilterKeyPath("name"), .like, options: .caseInsensitive, .value(.string("*e"))))),
        ("tags.@count >= 2", .count(relationship: "tags", .greaterThanOrEqual, 2)),
        // A parenthesised single condition is that condition.
        ("(pageCount > 1)", comparison(["pageCount"], .greaterThan, .value(.integer(1)))),
    ]

    @Test("accepted conditions become the canonical tree", arguments: accepted)
    func accepts(text: String, expected: RecordFilter) throws {
        #expect(try Self.validated(text) == expected)
    }

    @Test func inheritedAndSubEntityAttributes() throws {
        let audio = try #require(Self.schema.entity(named: "AudioBook"))
        #expect(try Self.validated("narrator == \"x\" AND title == \"y\"", entity: audio)
            == .all([Self.comparison(["narrator"], .equals, .value(.string("x"))), Self.comparison(["title"], .equals, .value(.string("y")))]))
        #expect(throws: BrowserError.badRequest("In narrator == \"x\": Book has no attribute or relationship \"narrator\"")) {
            try Self.validated("narrator == \"x\"")
        }
        // An object of a sub-entity is one of the destination's; a to-many's records are read from its destination.
        let author = try #require(Self.schema.entity(named: "Author"))
        let audioID = "x-coredata://\(Make.storeID)/AudioBook/p9"
        #expect(try Self.validated("agent.bestseller == \"\(audioID)\"", entity: author)
            == Self.comparison(["agent", "bestseller"], .equals, .object(audioID)))
        #expect(throws: BrowserError.badRequest("In ANY books.narrator == \"x\": Book has no attribute or relationship \"narrator\"")) {
            try Self.validated("ANY books.narrator == \"x\"", entity: author)
        }
        let tag = try #require(Self.schema.entity(named: "Tag"))
        #expect(try Self.validated("ANY books.author == \"\(Self.authorID)\"", entity: tag)
            == .quantified(.any, relationship: "books", FilterComparison(FilterKeyPath("author"), .equals, .object(Self.authorID))))
    }

    static let refused: [(String, String)] = [
        ("nope == 1", "In nope == 1: Book has no attribute or relationship \"nope\""),
        ("title > \"a\"", "In title > \"a\": > compares numbers and dates, and title is a String attribute"),
        ("pageCount CONTAINS \"3\"", "In pageCount CONTAINS \"3\": CONTAINS compares text, and pageCount is a Integer 32 attribute"),
        ("pageCount ==[c] 3", "In pageCount ==[c] 3: [c] and [d] compare text, and pageCount is a Integer 32 attribute"),
        ("pageCount == 3.5", "In pageCount == 3.5: 3.5 is not a value of pageCount, a Integer 32 attribute (a whole number is needed)"),
        ("pageCount == \"many\"", "In pageCount == \"many\": \"many\" is not a value of pageCount, a Integer 32 attribute (a whole number is needed)"),
        ("title == 3", "In title == 3: 3 is not a value of title, a String attribute (a quoted string is needed)"),
        ("inPrint == 2", "In inPrint == 2: 2 is not a value of inPrint, a Boolean attribute (TRUE or FALSE is needed)"),
        ("inPrint IN {TRUE}", "In inPrint IN {TRUE}: IN does not apply to a Boolean attribute; use == TRUE or == FALSE"),
        ("publishedAt > \"soon\"", "In publishedAt > \"soon\": \"soon\" is not a value of publishedAt, a Date attribute (a date is needed: an ISO 8601 string such as \"2020-03-01\" or \"2020-03-01T12:00:00Z\", or seconds since 2001-01-01)"),
        ("identifier == \"nope\"", "In identifier == \"nope\": \"nope\" is not a value of identifier, a UUID attribute (a UUID string is needed)"),
        ("cover == \"x\"", "In cover == \"x\": cover is a Binary attribute: its values can only be compared with nil (== nil, != nil)"),
        ("colors != \"x\"", "In colors != \"x\": colors is a Transformable attribute: its values can only be compared with nil (== nil, != nil)"),
        ("location == 1", "In location == 1: location is an attribute of undefined type (a composite or a type the model does not name): it cannot be filtered on; a composite's elements can (location.<element>)"),
        ("location != nil", "In location != NIL: location is an attribute of undefined type (a composite or a type the model does not name): it cannot be filtered on; a composite's elements can (location.<element>)"),
        ("pageCount < nil", "In pageCount < NIL: nil is compared with == or !=, not <"),
        ("title IN {\"a\", nil}", "In title IN {\"a\", NIL}: nil cannot be in a list or range"),
        ("tags.name == \"x\"", "In tags.name == \"x\": Book.tags is a to-many relationship: say which records must match (ANY tags.name, ALL …, NONE …) or count them (tags.@count)"),
        ("ANY author.name == \"x\"", "In ANY author.name == \"x\": Book.author is a to-one relationship: compare its key path directly (author.attribute), without ANY, ALL, NONE or @count"),
        ("author.@count == 1", "In author.@count == 1: Book.author is a to-one relationship: compare its key path directly (author.attribute), without ANY, ALL, NONE or @count"),
        ("title.@count == 1", "In title.@count == 1: title is an attribute, not a relationship"),
        ("title.length == 1", "In title.length == 1: Book.title is an attribute; nothing can follow it in a key path"),
        ("author CONTAINS \"x\"", "In author CONTAINS \"x\": author is a to-one relationship: compare it with == or != and a record's ID (x-coredata://…), with IN and a list of IDs, or with nil"),
        ("author == 3", "In author == 3: author is a to-one relationship: compare it with == or != and a record's ID (x-coredata://…), with IN and a list of IDs, or with nil"),
        ("author == \"x-coredata://S/Tag/p1\"", "In author == \"x-coredata://S/Tag/p1\": author leads to Author, and Tag p1 is not one"),
        ("author == \"p1\"", "In author == \"p1\": Malformed id \"p1\": expected x-coredata://<store>/<Entity>/p<number>"),
    ]

    @Test("refused conditions are a 400 naming the condition and the reason", arguments: refused)
    func refuses(text: String, message: String) {
        #expect(throws: BrowserError.badRequest(message)) { try Self.validated(text) }
    }

    @Test func limitsOfTheWholeTree() throws {
        let condition = Self.comparison(["pageCount"], .greaterThan, .value(.integer(1)))
        var deep = condition
        for _ in 1..<16 { deep = .not(deep) }
        #expect(throws: Never.self) { try RecordFilter.validated(deep, for: Self.book, in: Self.schema) }
        #expect(throws: BrowserError.badRequest("The predicate is nested 17 levels deep; at most 16 are allowed")) {
            try RecordFilter.validated(.not(deep), for: Self.book, in: Self.schema)
        }
        let many = RecordFilter.any(Array(repeating: condition, count: 256))
        #expect(throws: Never.self) { try RecordFilter.validated(many, for: Self.book, in: Self.schema) }
        #expect(throws: BrowserError.badRequest("The predicate has 257 conditions; at most 256 are allowed")) {
            try RecordFilter.validated(.any(Array(repeating: condition, count: 257)), for: Self.book, in: Self.schema)
        }
    }

    @Test func theFailingConditionIsNamedByItsIndex() throws {
        let parsed = try PredicateParser.parse("pageCount > 1 AND (title == \"a\" OR nope == 2)")
        guard case .failure(let problem) = RecordFilter.checked(parsed.filter, for: Self.book, in: Self.schema) else {
            Issue.record("accepted an unknown name")
            return
        }
        #expect(problem.conditionIndex == 2)
        #expect(parsed.conditionSpans[2] == 35..<44)  // "nope == 2"
    }

    @Test func whereJoinsTheSearch() throws {
        let query = try RecordQuery.validated(
            Make.parameters(["search": "x", "searchAttr": "title", "where": "pageCount > 3 AND author.name == \"k\""]),
            for: Self.book, in: Self.schema)
        #expect(query.matchFilter == .all([
            RecordFilter.contains("title", "x"),
            .all([Self.comparison(["pageCount"], .greaterThan, .value(.integer(3))),
                  Self.comparison(["author", "name"], .equals, .value(.string("k")))]),
        ]))
        #expect(try RecordQuery.validated(Make.parameters(["where": "  "]), for: Self.book, in: Self.schema).filter == nil)
        #expect(throws: BrowserError.badRequest("where: at 12: expected a value after > (a quoted string, a number, TRUE, FALSE, NIL or CAST(…, \"NSDate\")), found the end of the text")) {
            try RecordQuery.validated(Make.parameters(["where": "pageCount > "]), for: Self.book, in: Self.schema)
        }
        // Without the store's schema no relationship can be followed.
        #expect(throws: BrowserError.self) {
            try RecordQuery.validated(Make.parameters(["where": "author.name == \"k\""]), for: Self.book)
        }
        var both = Make.parameters(["where": "pageCount > 3"])
        both.predicate = .all([])
        #expect(throws: BrowserError.badRequest("Give the predicate once: as where= or as the body's tree, not both")) {
            try RecordQuery.validated(both, for: Self.book, in: Self.schema)
        }
    }
}
