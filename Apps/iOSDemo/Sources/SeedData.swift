import CoreData

/// The demo library, the same records `DemoLibrary` (Packages/BrowserMemory) seeds on Linux: three authors,
/// five tags, twelve named books (one with hostile markup in its title), two audiobooks and 600 generated
/// books, with every attribute type the browser renders.
enum SeedData {
    static let generatedBookCount = 600

    /// Runs on the context's own queue (`performBackgroundTask`); saves once.
    static func insertIfEmpty(into context: NSManagedObjectContext) throws {
        let existing = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author"))
        guard existing == 0 else { return }

        func insert(_ entity: String, _ values: [String: Any?]) -> NSManagedObject {
            let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
            for (key, value) in values { object.setValue(value, forKey: key) }
            return object
        }
        let formatter = ISO8601DateFormatter()
        func date(_ text: String) -> Date? {
            formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
            return formatter.date(from: text)
        }
        func uuid(_ number: Int) -> UUID {
            let hex = String(number, radix: 16, uppercase: true)
            return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
        }

        let authors = [
            insert("Author", ["name": "Ada Byron", "bio": "Wrote the first published algorithm.", "birthDate": date("1815-12-10T00:00:00Z")]),
            insert("Author", ["name": "Émile Zola", "bio": "Naturalist novelist; the accent is there so search can ignore it.", "birthDate": date("1840-04-02T00:00:00Z")]),
            insert("Author", ["name": "Octavia Butler", "bio": nil, "birthDate": date("1947-06-22T12:30:15.250Z")]),
        ]
        let tags = ["classic", "science", "fiction", "café culture", "notes"].map { insert("Tag", ["name": $0]) }

        struct NamedBook {
            let title: String, pages: Int32, published: String?, summary: String?, author: Int, tags: [Int]
            var price: String? = nil, rating: Double? = nil, words: Int64? = nil, cover: Int? = nil, inPrint = true
        }
        let hostileTitle = #"<script>window.__xss=1</script> "quoted" <img src=x onerror="window.__xss=2">"#
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
            let object = insert("Book", [
                "title": book.title, "pageCount": NSNumber(value: book.pages), "publishedAt": book.published.flatMap(date),
                "summary": book.summary, "price": book.price.map { NSDecimalNumber(string: $0) },
                "rating": book.rating.map { NSNumber(value: $0) }, "wordCount": book.words.map { NSNumber(value: $0) },
                "identifier": uuid(index + 1), "cover": book.cover.map { Data(count: $0) },
                "inPrint": NSNumber(value: book.inPrint),
            ])
            object.setValue(authors[book.author], forKey: "author")
            for tag in book.tags { object.mutableSetValue(forKey: "tags").add(tags[tag]) }
        }

        for (index, (title, narrator, minutes)) in [("Kindred (Audio)", "Kim Staunton", 650), ("Germinal (Audio)", "Leighton Pugh", 1_290)].enumerated() {
            let object = insert("AudioBook", [
                "title": title, "pageCount": NSNumber(value: Int32(0)), "narrator": narrator,
                "durationMinutes": NSNumber(value: Int16(minutes)), "identifier": uuid(900 + index),
                "inPrint": NSNumber(value: true), "publishedAt": date("2004-03-15T00:00:00Z"),
            ])
            object.setValue(authors[index == 0 ? 2 : 1], forKey: "author")
            object.mutableSetValue(forKey: "tags").add(tags[2])
        }

        // Generated books: deterministic values spread over the types, so paging and sorting have work to do.
        for number in 1...generatedBookCount {
            let object = insert("Book", [
                "title": "Generated Book " + String(repeating: "0", count: 3 - String(number).count) + String(number),
                "pageCount": NSNumber(value: Int32((number * 37) % 900 + 20)),
                "publishedAt": Date(timeIntervalSince1970: 946_684_800 + Double(number) * 86_400 * 11),
                "summary": number % 3 == 0 ? nil : "Volume \(number) of the generated shelf.",
                "price": NSDecimalNumber(string: "\(number % 50).99"),
                "rating": NSNumber(value: Double(number % 50) / 10),
                "wordCount": NSNumber(value: Int64(number) * 1_000),
                "identifier": uuid(1000 + number),
                "cover": number % 10 == 0 ? Data(count: number * 16) : nil,
                "inPrint": NSNumber(value: number % 4 != 0),
            ])
            object.setValue(authors[number % authors.count], forKey: "author")
            object.mutableSetValue(forKey: "tags").add(tags[number % tags.count])
        }
        try context.save()
    }
}
