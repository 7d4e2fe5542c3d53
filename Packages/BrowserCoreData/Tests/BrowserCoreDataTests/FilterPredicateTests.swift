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
        ("NONE tags.name == \"classic\"", ["The Café Catalogue", "Kindred", "the lowercase book", "Germinal", "Kindred (Audio)"]),
        ("tags.@count == 0", ["the lowercase book"]),
        ("tags.@count >= 2 AND inPrint == TRUE", ["Notes on the Analytical Engine", "Thérèse Raquin", "Germinal", "Kindred"]),
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
