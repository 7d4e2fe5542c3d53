public import BrowserCore
import Foundation

/// The demo model and its seed data: the original plan's Author / Book / Tag model, extended with the
/// attribute types a browser must render (Decimal, Double with a NaN, a 64-bit integer beyond JavaScript's
/// exact range, UUID, Binary, Boolean) and a sub-entity (AudioBook) so inheritance shows in the counts.
///
/// The iOS demo app's `Model.xcdatamodeld` declares the same model, so the Linux demo and the app show the
/// same store. The seed is deterministic: the same IDs and values on every run.
public enum DemoLibrary {
    /// Fixed so that links into the demo (`x-coredata://…/Book/p1`) stay valid across restarts.
    public static let storeIdentifier = "6F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A00"

    /// Generated books, so that paging matters and the largest page (500 rows) is full.
    public static let generatedBookCount = 600

    /// A title that must be shown as text: the browser tests check that nothing in it runs.
    public static let hostileTitle = #"<script>window.__xss=1</script> "quoted" <img src=x onerror="window.__xss=2">"#

    public static let schema = StoreSchema(entities: [
        EntitySchema(
            name: "Author",
            attributes: [
                AttributeSchema(name: "name", type: .string, isOptional: false),
                AttributeSchema(name: "bio", type: .string),
                AttributeSchema(name: "birthDate", type: .date),
            ],
            relationships: [
                RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "author"),
            ]
        ),
        EntitySchema(name: "Book", attributes: bookAttributes, relationships: bookRelationships),
        EntitySchema(
            name: "AudioBook", parent: "Book",
            attributes: bookAttributes + [
                AttributeSchema(name: "narrator", type: .string),
                AttributeSchema(name: "durationMinutes", type: .integer16, isOptional: false),
            ],
            relationships: bookRelationships
        ),
        EntitySchema(
            name: "Tag",
            attributes: [AttributeSchema(name: "name", type: .string, isOptional: false)],
            relationships: [
                RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "tags"),
            ]
        ),
    ])

    private static let bookAttributes = [
        AttributeSchema(name: "title", type: .string, isOptional: false),
        AttributeSchema(name: "pageCount", type: .integer32, isOptional: false),
        AttributeSchema(name: "publishedAt", type: .date),
        AttributeSchema(name: "summary", type: .string),
        AttributeSchema(name: "price", type: .decimal),
        AttributeSchema(name: "rating", type: .double),
        AttributeSchema(name: "wordCount", type: .integer64),
        AttributeSchema(name: "identifier", type: .uuid, isOptional: false),
        AttributeSchema(name: "cover", type: .binary),
        AttributeSchema(name: "inPrint", type: .boolean, isOptional: false),
    ]

    private static let bookRelationships = [
        RelationshipSchema(name: "author", destination: "Author", isToMany: false, inverse: "books"),
        RelationshipSchema(name: "tags", destination: "Tag", isToMany: true, inverse: "books"),
    ]

    /// A new store holding the demo data.
    public static func makeStore() async throws -> InMemoryStore {
        let store = InMemoryStore(schema: schema, storeIdentifier: storeIdentifier, summary: "In-memory demo store (Author, Book, Tag)")
        try await seed(store)
        return store
    }

    private static func date(_ text: String) -> AttributeValue {
        // Fixed ISO dates; the formatter is local to the seed, which runs once.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return .date(date) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text).map(AttributeValue.date) ?? .null
    }

    static func seed(_ store: InMemoryStore) async throws {
        let authors = [
            try await store.insert("Author", ["name": .string("Ada Byron"), "bio": .string("Wrote the first published algorithm."), "birthDate": date("1815-12-10T00:00:00Z")]),
            try await store.insert("Author", ["name": .string("Émile Zola"), "bio": .string("Naturalist novelist; the accent is there so search can ignore it."), "birthDate": date("1840-04-02T00:00:00Z")]),
            try await store.insert("Author", ["name": .string("Octavia Butler"), "bio": .null, "birthDate": date("1947-06-22T12:30:15.250Z")]),
        ]
        var tags: [ObjectID] = []
        for name in ["classic", "science", "fiction", "café culture", "notes"] {
            tags.append(try await store.insert("Tag", ["name": .string(name)]))
        }

        struct NamedBook {
            let title: String, pages: Int64, published: String?, summary: String?, author: Int, tags: [Int]
            var price: String? = nil, rating: Double? = nil, words: Int64? = nil, cover: Int? = nil, inPrint = true
        }
        let books: [NamedBook] = [
            .init(title: "Notes on the Analytical Engine", pages: 65, published: "1843-09-01T00:00:00Z", summary: "Translator's notes that outgrew the paper.", author: 0, tags: [0, 1, 4], price: "19.99", rating: 4.8, words: 20_000, cover: 2048),
            .init(title: "The Long Road", pages: 412, published: "1999-05-01T00:00:00Z", summary: nil, author: 0, tags: [2], price: "10.11", rating: 3.5),
            .init(title: "Thérèse Raquin", pages: 256, published: "1867-12-01T00:00:00Z", summary: "A dark story set in a Paris passage.", author: 1, tags: [0, 2], price: "7.50", rating: 4.1),
            .init(title: "Germinal", pages: 592, published: "1885-03-01T00:00:00Z", summary: "Coal miners strike in northern France.", author: 1, tags: [0, 2], price: "12.00", rating: 4.6, words: 180_000),
            .init(title: "Au Bonheur des Dames", pages: 520, published: "1883-01-01T00:00:00Z", summary: "The first department store, and the café across the street.", author: 1, tags: [0, 3], rating: .nan),
            .init(title: "Kindred", pages: 264, published: "1979-06-01T00:00:00Z", summary: "Time travel and its costs.", author: 2, tags: [2, 1], price: "15.25", rating: 4.7, words: 9_007_199_254_740_993, cover: 512),
            .init(title: "Parable of the Sower", pages: 345, published: "1993-10-01T00:00:00.5Z", summary: "A diary of the 2020s.", author: 2, tags: [2, 1], price: "14.00", rating: 4.5),
            .init(title: "Dawn", pages: 248, published: "1987-05-01T00:00:00Z", summary: nil, author: 2, tags: [2], rating: -.infinity, inPrint: false),
            .init(title: "The Café Catalogue", pages: 96, published: nil, summary: "Every CAFÉ in town, and one cafe.", author: 1, tags: [3], price: "3.00", cover: 0),
            .init(title: "the lowercase book", pages: 12, published: "2020-02-29T23:59:59.999Z", summary: "Sorted after the capitals, byte order.", author: 0, tags: [4], rating: .infinity),
            .init(title: "Zebra Stripes", pages: 1, published: "2001-01-01T00:00:00Z", summary: "The smallest book.", author: 2, tags: [], inPrint: false),
            .init(title: hostileTitle, pages: 3, published: "2024-01-01T00:00:00Z", summary: #"Contains <b>markup</b> & "quotes" that must show as text."#, author: 0, tags: [4]),
        ]
        for (index, book) in books.enumerated() {
            let values: [String: AttributeValue] = [
                "title": .string(book.title),
                "pageCount": .integer(book.pages),
                "publishedAt": book.published.map(date) ?? .null,
                "summary": book.summary.map(AttributeValue.string) ?? .null,
                "price": book.price.flatMap { Decimal(string: $0) }.map(AttributeValue.decimal) ?? .null,
                "rating": book.rating.map(AttributeValue.double) ?? .null,
                "wordCount": book.words.map(AttributeValue.integer) ?? .null,
                "identifier": .uuid(uuid(index + 1)),
                "cover": book.cover.map { AttributeValue.binary(byteCount: $0) } ?? .null,
                "inPrint": .boolean(book.inPrint),
            ]
            let id = try await store.insert("Book", values)
            try await store.relate(id, "author", authors[book.author])
            for tag in book.tags { try await store.relate(id, "tags", tags[tag]) }
        }

        for (index, (title, narrator, minutes)) in [("Kindred (Audio)", "Kim Staunton", 650), ("Germinal (Audio)", "Leighton Pugh", 1_290)].enumerated() {
            let id = try await store.insert("AudioBook", [
                "title": .string(title), "pageCount": .integer(0), "narrator": .string(narrator),
                "durationMinutes": .integer(Int64(minutes)), "identifier": .uuid(uuid(900 + index)),
                "inPrint": .boolean(true), "publishedAt": date("2004-03-15T00:00:00Z"),
            ])
            try await store.relate(id, "author", authors[index == 0 ? 2 : 1])
            try await store.relate(id, "tags", tags[2])
        }

        // Generated books: deterministic values spread over the types, so paging and sorting have work to do.
        for number in 1...generatedBookCount {
            let id = try await store.insert("Book", [
                "title": .string(String(format: "Generated Book %03d", number)),
                "pageCount": .integer(Int64((number * 37) % 900 + 20)),
                "publishedAt": .date(Date(timeIntervalSince1970: 946_684_800 + Double(number) * 86_400 * 11)),
                "summary": number % 3 == 0 ? .null : .string("Volume \(number) of the generated shelf."),
                "price": .decimal(Decimal(number % 50) + Decimal(string: "0.99")!),
                "rating": .double(Double(number % 50) / 10),
                "wordCount": .integer(Int64(number) * 1_000),
                "identifier": .uuid(uuid(1000 + number)),
                "cover": number % 10 == 0 ? .binary(byteCount: number * 16) : .null,
                "inPrint": .boolean(number % 4 != 0),
            ])
            try await store.relate(id, "author", authors[number % authors.count])
            try await store.relate(id, "tags", tags[number % tags.count])
        }
    }

    /// Deterministic UUIDs: `00000000-0000-4000-8000-<n as 12 hex digits>`.
    private static func uuid(_ number: Int) -> UUID {
        let hex = String(number, radix: 16, uppercase: true)
        return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
    }
}
