#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import CoreData
import Testing

/// The live adapter answers predicates through `NSComparisonPredicate`/`NSCompoundPredicate` with the semantics
/// `RecordFilter` documents: the same records the in-memory store gives for the same data (expected lists are
/// worked out by hand from `TestLibrary`). Runs on the macOS job; compiled on Linux by apple-typecheck.
@Suite struct FilterPredicateTests {
    static let cases: [(String, [String])] = [
        ("pageCount > 255", ["Thérèse Raquin", "Germinal", "Kindred"]),
        ("NOT (price > 5)", ["The Café Catalogue", "the lowercase book", "Germinal", "Kindred (Audio)"]),
        ("price == nil", ["The Café Catalogue", "Kindred (Audio)"]),
        ("title ==[cd] \"THERESE RAQUIN\"", ["Thérèse Raquin"]),
        // [c] alone keeps accents: "Thé…" does not begin with "the".
        ("title BEGINSWITH[c] \"the\"", ["The Café Catalogue", "the lowercase book"]),
        ("title LIKE \"G*l\"", ["Germinal", "Germinal"]),
        ("title IN {\"Kindred\", \"Germinal\"}", ["Germinal", "Kindred", "Germinal"]),
        ("pageCount BETWEEN {96, 256}", ["Thérèse Raquin", "The Café Catalogue", "Germinal"]),
        ("author.name BEGINSWITH[cd] \"emile\" AND pageCount < 300", ["Thérèse Raquin", "The Café Catalogue"]),
        ("ANY tags.name == \"science\"", ["Notes on the Analytical Engine", "Kindred"]),
        ("ALL tags.name == \"fiction\"", ["the lowercase book", "Germinal", "Kindred (Audio)"]),
        // ALL is a SUBQUERY: options and a negated comparison inside it keep their meaning.
        ("ALL tags.name BEGINSWITH[c] \"F\"", ["the lowercase book", "Germinal", "Kindred (Audio)"]),
        ("NOT (ALL tags.name != \"science\")", ["Notes on the Analytical Engine", "Kindred"]),
        ("NONE tags.name == \"classic\"", ["The Café Catalogue", "Kindred", "the lowercase book", "Germinal", "Kindred (Audio)"]),
        ("tags.@count == 0", ["the lowercase book"]),
        ("tags.@count >= 2 AND inPrint == TRUE", ["Notes on the Analytical Engine", "Thérèse Raquin", "Germinal", "Kindred"]),
        // Forms apps write: each the same records as its key-path-first twin above.
        ("title == [cd] \"THERESE RAQUIN\"", ["Thérèse Raquin"]),
        ("{\"Kindred\", \"Germinal\"} CONTAINS title", ["Germinal", "Kindred", "Germinal"]),
        ("255 < pageCount", ["Thérèse Raquin", "Germinal", "Kindred"]),
        ("0 == tags.@count", ["the lowercase book"]),
        // Two attributes of one record: a value never differs from itself (nil included).
        ("pageCount != pageCount", []),
    ]

    @Test func eachPredicateSelectsTheDocumentedRecords() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        for (text, titles) in Self.cases {
            let page = try await service.records(of: "Book", parameters: RecordQueryParameters(predicateText: text))
            let found = page.rows.map { $0.attrs["title"].flatMap { value -> String? in
                if case .string(let title) = value { return title }
                return nil
            } ?? "" }
            #expect(found == titles, "\(text)")
            #expect(page.total == titles.count, "\(text)")
        }
    }

    /// ALL reaches Core Data as a subquery counted to zero, never as the `.all` modifier the SQLite store is reputed
    /// to reject (docs/decisions/predicate-language.md, "Live context").
    @Test func allIsASubqueryOfTheRecordsThatFail() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        let explained = try await service.explain(of: "Book", parameters: RecordQueryParameters(predicateText: "ALL tags.name == \"fiction\""))
        let predicate = try #require(explained.steps.first { $0.hasPrefix("predicate = ") })
        #expect(predicate.contains("count:(SUBQUERY(tags, $x, NOT "), "\(predicate)")
        #expect(predicate.contains("$x.name == \"fiction\""), "\(predicate)")
        #expect(!predicate.contains("ALL "), "\(predicate)")
        #expect(explained.total == 3)
    }

    @Test func aRecordIDIsComparedAsTheObjectAndAnUnknownOneMatchesNothing() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        let service = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        let zola = try #require(try await service.records(of: "Author", parameters: RecordQueryParameters(
            predicateText: "name BEGINSWITH \"Émile\"")).rows.first?.id)
        let books = try await service.records(of: "Book", parameters: RecordQueryParameters(predicateText: "author == \"\(zola)\""))
        #expect(books.total == 3)
        let unknown = zola.replacingOccurrences(of: "/p", with: "/p99")
        #expect(try await service.records(of: "Book", parameters: RecordQueryParameters(predicateText: "author == \"\(unknown)\"")).total == 0)
        #expect(try await service.records(of: "Book", parameters: RecordQueryParameters(predicateText: "author != \"\(unknown)\"")).total == 8)
    }
}

#endif
