import BrowserCore
import Foundation
import Testing

/// Predicate forms apps write in their own code that Core Data accepts: each is read, checked against the model,
/// printed in the one canonical spelling, and that spelling reads back as the same tree. (Which records each
/// selects, on a store file, in memory and in the Python oracle: `PredicateEquivalenceTests` and
/// `AppPredicateFormsStoreTests` in BrowserSQLite.)
struct AppPredicateFormsTests {
    static let schema = Make.librarySchema()
    static let tag = "x-coredata://\(Make.storeID)/Tag/p1"
    static let author1 = "x-coredata://\(Make.storeID)/Author/p1"
    static let author2 = "x-coredata://\(Make.storeID)/Author/p2"

    /// (entity, as an app writes it, canonical text).
    static let forms: [(String, String, String)] = [
        // @count after to-one steps.
        ("Book", "author.books.@count > 0", "author.books.@count > 0"),
        ("Agent", "bestseller.author.books.@count >= 2", "bestseller.author.books.@count >= 2"),
        // An option after a space.
        ("Book", "title == [c] \"processing\"", "title ==[c] \"processing\""),
        ("Book", "title LIKE [c] \"a*\"", "title LIKE[c] \"a*\""),
        ("Book", "title CONTAINS [cd] \"é\"", "title CONTAINS[cd] \"é\""),
        // A value on the left.
        ("Book", "{\"abc\", \"def\"} CONTAINS title", "title IN {\"abc\", \"def\"}"),
        ("Book", "CAST(694224000, \"NSDate\") < publishedAt && publishedAt < CAST(725760000, \"NSDate\")",
         "publishedAt > CAST(\"2023-01-01T00:00:00Z\", \"NSDate\") AND publishedAt < CAST(\"2024-01-01T00:00:00Z\", \"NSDate\")"),
        ("Book", "300 <= pageCount", "pageCount >= 300"),
        ("Book", "nil == title", "title == NIL"),
        ("Book", "0 == tags.@count", "tags.@count == 0"),
        // Two key paths compared.
        ("Book", "wordCount > pageCount", "wordCount > pageCount"),
        ("Book", "rating != pageCount", "rating != pageCount"),
        // Record membership in a to-many.
        ("Book", "\"\(tag)\" IN tags", "ANY tags == \"\(tag)\""),
        ("Book", "tags CONTAINS \"\(tag)\"", "ANY tags == \"\(tag)\""),
        ("Book", "ANY tags == \"\(tag)\"", "ANY tags == \"\(tag)\""),
        ("Book", "NONE tags == \"\(tag)\"", "NONE tags == \"\(tag)\""),
        ("Book", "ALL tags IN {\"\(tag)\"}", "ALL tags IN {\"\(tag)\"}"),
        ("Book", "\"x\" IN tags.name", "ANY tags.name == \"x\""),
        // A to-one IN a list of record IDs.
        ("Book", "author IN {\"\(author1)\", \"\(author2)\"}", "author IN {\"\(author1)\", \"\(author2)\"}"),
        ("Book", "author IN {}", "author IN {}"),
    ]

    @Test("each form is accepted, printed canonically, and reads back", arguments: forms)
    func accepted(entity name: String, written: String, canonical: String) throws {
        let entity = try #require(Self.schema.entity(named: name))
        let tree = try RecordFilter.validated(PredicateParser.parse(written).filter, for: entity, in: Self.schema)
        #expect(PredicateText.format(tree) == canonical)
        let reread = try RecordFilter.validated(PredicateParser.parse(canonical).filter, for: entity, in: Self.schema)
        #expect(reread == tree)
        let decoded = try RecordFilter.decodeQueryBody(BrowserJSON.encode(["where": tree]))
        #expect(try RecordFilter.validated(decoded, for: entity, in: Self.schema) == tree)
    }

    @Test func membershipIsTheRelatedRecordItself() throws {
        let book = try #require(Self.schema.entity(named: "Book"))
        let tree = try RecordFilter.validated(PredicateParser.parse("tags CONTAINS \"\(Self.tag)\"").filter, for: book, in: Self.schema)
        #expect(tree == .quantified(.any, relationship: "tags", FilterComparison(FilterKeyPath([]), .equals, .object(Self.tag))))
        let list = try RecordFilter.validated(PredicateParser.parse("author IN {\"\(Self.author1)\"}").filter, for: book, in: Self.schema)
        #expect(list == .comparison(FilterComparison(FilterKeyPath("author"), .in, .objects([Self.author1]))))
        #expect(list.namesRecords)
        #expect(list.foreignObject(storeIdentifier: "another") != nil)
    }

    /// (entity, text, why it is refused).
    static let refused: [(String, String, String)] = [
        ("Book", "tags CONTAINS \"x-coredata://\(Make.storeID)/Author/p1\"",
         "In tags CONTAINS \"x-coredata://\(Make.storeID)/Author/p1\": tags leads to Tag, and Author p1 is not one"),
        ("Book", "ANY tags > 3", "In ANY tags > 3: each related Tag record: compare it with == or != and a record's ID (x-coredata://…), with IN and a list of IDs, or with nil"),
        ("Book", "title == foo", "In title == foo: Book has no attribute \"foo\" to compare title with (a text value goes in quotes: \"foo\")"),
        ("Book", "title > pageCount", "In title > pageCount: > compares numbers and dates, and title is a String attribute"),
        ("Book", "title == pageCount", "In title == pageCount: title is a String attribute and pageCount a Integer 32 one: they cannot be compared"),
        ("Book", "title CONTAINS summary", "In title CONTAINS summary: Book has no attribute \"summary\" to compare title with (a text value goes in quotes: \"summary\")"),
        ("Book", "author.name == title", "In author.name == title: two key paths are compared only as attributes of the same record (author.name and title must both be attributes of Book, without relationship steps)"),
        ("Book", "author.books.name.@count > 0",
         "In author.books.name.@count > 0: Author.books is not a to-one relationship: @count follows to-one relationships to the to-many relationship it counts"),
        ("Book", "author IN {\"x\"}", "In author IN {\"x\"}: Malformed id \"x\": expected x-coredata://<store>/<Entity>/p<number>"),
    ]

    @Test("what Core Data would not take either is refused with the reason", arguments: refused)
    func refusedWithReason(entity name: String, text: String, message: String) throws {
        let entity = try #require(Self.schema.entity(named: name))
        let parsed = try PredicateParser.parse(text).filter
        #expect(throws: BrowserError.badRequest(message)) { try RecordFilter.validated(parsed, for: entity, in: Self.schema) }
    }
}
