#if canImport(CoreData)
import CoreData

/// A small deterministic library in the demo's shape: three authors, tags, books with every Book attribute,
/// an AudioBook (a sub-entity row), and names with accents for the search tests.
enum TestLibrary {
    static func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    static func uuid(_ number: Int) -> UUID {
        UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - String(number).count) + String(number))!
    }

    static func insert(into context: NSManagedObjectContext) {
        let ada = context.insertRecord("Author", ["name": "Ada Byron", "bio": "Wrote the first algorithm.", "birthDate": date(-4_898_160_000)])
        let zola = context.insertRecord("Author", ["name": "Émile Zola", "bio": nil, "birthDate": date(-4_224_441_600.25)])
        let butler = context.insertRecord("Author", ["name": "Octavia Butler"])
        let tags = ["classic", "science", "fiction", "café culture"].map { context.insertRecord("Tag", ["name": $0]) }

        let books: [(String, Int32, NSManagedObject, [Int], String?)] = [
            ("Notes on the Analytical Engine", 65, ada, [0, 1], "19.99"),
            ("Thérèse Raquin", 256, zola, [0, 2], "7.50"),
            ("Germinal", 592, zola, [0, 2], "12.00"),
            ("The Café Catalogue", 96, zola, [3], nil),
            ("Kindred", 264, butler, [2, 1], "15.25"),
            ("the lowercase book", 12, ada, [], "3"),
            ("Germinal", 100, butler, [2], "1.10"),   // same title: the sort tie-breaker decides
        ]
        for (index, entry) in books.enumerated() {
            let book = context.insertRecord("Book", [
                "title": entry.0, "pageCount": NSNumber(value: entry.1), "publishedAt": date(Double(index) * 86_400.5),
                "summary": index.isMultiple(of: 2) ? "Volume \(index)" : nil,
                "price": entry.4.map { NSDecimalNumber(string: $0) }, "rating": NSNumber(value: Double(index) / 3),
                "wordCount": NSNumber(value: index == 4 ? Int64(9_007_199_254_740_993) : Int64(index * 1000)),
                "identifier": uuid(index + 1), "cover": index == 0 ? Data(count: 2048) : nil,
                "inPrint": NSNumber(value: index != 5),
            ])
            book.setValue(entry.2, forKey: "author")
            for tag in entry.3 { book.mutableSetValue(forKey: "tags").add(tags[tag]) }
        }
        let audio = context.insertRecord("AudioBook", [
            "title": "Kindred (Audio)", "pageCount": NSNumber(value: Int32(0)), "narrator": "Kim Staunton",
            "durationMinutes": NSNumber(value: Int16(650)), "identifier": uuid(900), "inPrint": NSNumber(value: true),
        ])
        audio.setValue(butler, forKey: "author")
        audio.mutableSetValue(forKey: "tags").add(tags[2])
    }
}

#endif
