public import BrowserCore
public import Foundation

/// The demo library's records as data: what `DemoLibrary` inserts into the in-memory store on Linux and what the
/// iOS demo app (`Apps/iOSDemo/Sources/SeedData.swift`, which links BrowserMemory) inserts through Core Data. One
/// description for both, so the two demos cannot drift apart.
///
/// Three authors, five tags, twelve named books (one with hostile markup in its title, one with a bidi override in its summary), two audiobooks and
/// `DemoLibrary.generatedBookCount` generated books, with every attribute type the browser renders. Records are
/// listed in insertion order (so primary keys follow it) and refer to each other by `key`.
public enum DemoSeed {
    public struct Record: Sendable {
        /// How other records' links name this one (`author-1`, `tag-3`, `book-12`…).
        public var key: String
        public var entity: String
        public var values: [String: AttributeValue]
        public var links: [Link]
        /// Bytes of Binary attributes (the books' covers, real PNG images: `DemoCover`).
        public var blobs: [String: Data] = [:]
    }

    /// A relationship from the record to another (the model's inverse is maintained by the store).
    public struct Link: Sendable {
        public var relationship: String
        public var target: String
    }

    public static let records: [Record] = authors + tags + books + audioBooks + generatedBooks

    static let authors: [Record] = [
        ("Ada Byron", "Wrote the first published algorithm.", "1815-12-10T00:00:00Z"),
        ("Émile Zola", "Naturalist novelist; the accent is there so search can ignore it.", "1840-04-02T00:00:00Z"),
        ("Octavia Butler", nil, "1947-06-22T12:30:15.250Z"),
    ].enumerated().map { index, author in
        Record(key: "author-\(index)", entity: "Author", values: [
            "name": .string(author.0), "bio": author.1.map(AttributeValue.string) ?? .null, "birthDate": date(author.2),
        ], links: [])
    }

    static let tags: [Record] = ["classic", "science", "fiction", "café culture", "notes"].enumerated().map {
        Record(key: "tag-\($0.offset)", entity: "Tag", values: ["name": .string($0.element)], links: [])
    }

    struct NamedBook {
        let title: String, pages: Int64, published: String?, summary: String?, author: Int, tags: [Int]
        var price: String? = nil, rating: Double? = nil, words: Int64? = nil, cover: Bool = false, inPrint = true
    }

    static let namedBooks: [NamedBook] = [
        .init(title: "Notes on the Analytical Engine", pages: 65, published: "1843-09-01T00:00:00Z", summary: "Translator's notes that outgrew the paper.", author: 0, tags: [0, 1, 4], price: "19.99", rating: 4.8, words: 20_000, cover: true),
        .init(title: "The Long Road", pages: 412, published: "1999-05-01T00:00:00Z", summary: nil, author: 0, tags: [2], price: "10.11", rating: 3.5),
        .init(title: "Thérèse Raquin", pages: 256, published: "1867-12-01T00:00:00Z", summary: "A dark story set in a Paris passage.", author: 1, tags: [0, 2], price: "7.50", rating: 4.1),
        .init(title: "Germinal", pages: 592, published: "1885-03-01T00:00:00Z", summary: "Coal miners strike in northern France.", author: 1, tags: [0, 2], price: "12.00", rating: 4.6, words: 180_000),
        .init(title: "Au Bonheur des Dames", pages: 520, published: "1883-01-01T00:00:00Z", summary: "The first department store, and the café across the street.", author: 1, tags: [0, 3], rating: .nan),
        .init(title: "Kindred", pages: 264, published: "1979-06-01T00:00:00Z", summary: "Time travel and its costs.", author: 2, tags: [2, 1], price: "15.25", rating: 4.7, words: 9_007_199_254_740_993, cover: true),
        .init(title: "Parable of the Sower", pages: 345, published: "1993-10-01T00:00:00.5Z", summary: "A diary of the 2020s.", author: 2, tags: [2, 1], price: "14.00", rating: 4.5),
        .init(title: "Dawn", pages: 248, published: "1987-05-01T00:00:00Z", summary: nil, author: 2, tags: [2], rating: -.infinity, inPrint: false),
        .init(title: "The Café Catalogue", pages: 96, published: nil, summary: "Every CAFÉ in town, and one cafe.", author: 1, tags: [3], price: "3.00", cover: true),
        .init(title: "the lowercase book", pages: 12, published: "2020-02-29T23:59:59.999Z", summary: "Sorted after the capitals, byte order.", author: 0, tags: [4], rating: .infinity),
        .init(title: "Zebra Stripes", pages: 1, published: "2001-01-01T00:00:00Z", summary: DemoLibrary.bidiSpoofSummary, author: 2, tags: [], inPrint: false),
        .init(title: DemoLibrary.hostileTitle, pages: 3, published: "2024-01-01T00:00:00Z", summary: #"Contains <b>markup</b> & "quotes" that must show as text."#, author: 0, tags: [4]),
    ]

    static let books: [Record] = namedBooks.enumerated().map { index, book in
        Record(key: "book-\(index)", entity: "Book", values: [
            "title": .string(book.title),
            "pageCount": .integer(book.pages),
            "publishedAt": book.published.map(date) ?? .null,
            "summary": book.summary.map(AttributeValue.string) ?? .null,
            "price": book.price.flatMap { Decimal(string: $0) }.map(AttributeValue.decimal) ?? .null,
            "rating": book.rating.map(AttributeValue.double) ?? .null,
            "wordCount": book.words.map(AttributeValue.integer) ?? .null,
            "identifier": .uuid(uuid(index + 1)),
            "inPrint": .boolean(book.inPrint),
        ], links: [Link(relationship: "author", target: "author-\(book.author)")]
            + book.tags.map { Link(relationship: "tags", target: "tag-\($0)") },
           blobs: book.title == DemoLibrary.hostileTitle ? ["cover": DemoCover.hostileSVG]
               : book.cover ? ["cover": DemoCover.png(for: book.title)] : [:])
    }

    static let audioBooks: [Record] = [("Kindred (Audio)", "Kim Staunton", 650), ("Germinal (Audio)", "Leighton Pugh", 1_290)]
        .enumerated().map { index, audio in
            Record(key: "audiobook-\(index)", entity: "AudioBook", values: [
                "title": .string(audio.0), "pageCount": .integer(0), "narrator": .string(audio.1),
                "durationMinutes": .integer(Int64(audio.2)), "identifier": .uuid(uuid(900 + index)),
                "inPrint": .boolean(true), "publishedAt": date("2004-03-15T00:00:00Z"),
            ], links: [Link(relationship: "author", target: "author-\(index == 0 ? 2 : 1)"),
                       Link(relationship: "tags", target: "tag-2")])
        }

    /// Deterministic values spread over the types, so paging and sorting have work to do.
    static let generatedBooks: [Record] = (1...DemoLibrary.generatedBookCount).map(generatedBook)

    private static func generatedBook(_ number: Int) -> Record {
        let title = String(format: "Generated Book %03d", number)
        let pages = Int64((number * 37) % 900 + 20)
        let published = Date(timeIntervalSince1970: 946_684_800 + Double(number) * 86_400 * 11)
        let summary: AttributeValue = number % 3 == 0 ? .null : .string("Volume \(number) of the generated shelf.")
        let price = Decimal(number % 50) + Decimal(string: "0.99")!
        let values: [String: AttributeValue] = [
            "title": .string(title), "pageCount": .integer(pages), "publishedAt": .date(published),
            "summary": summary, "price": .decimal(price), "rating": .double(Double(number % 50) / 10),
            "wordCount": .integer(Int64(number) * 1_000), "identifier": .uuid(uuid(1000 + number)),
            "inPrint": .boolean(number % 4 != 0),
        ]
        return Record(key: "generated-\(number)", entity: "Book", values: values,
                      links: [Link(relationship: "author", target: "author-\(number % 3)"),
                              Link(relationship: "tags", target: "tag-\(number % 5)")],
                      blobs: number % 10 == 0 ? ["cover": DemoCover.png(for: title)] : [:])
    }

    private static func date(_ text: String) -> AttributeValue {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return .date(date) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text).map(AttributeValue.date) ?? .null
    }

    /// Deterministic UUIDs: `00000000-0000-4000-8000-<n as 12 hex digits>`.
    private static func uuid(_ number: Int) -> UUID {
        let hex = String(number, radix: 16, uppercase: true)
        return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
    }
}
