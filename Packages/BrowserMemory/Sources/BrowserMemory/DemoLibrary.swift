public import BrowserCore
import Foundation

/// The demo model and its seed data: the original plan's Author / Book / Tag model, extended with the
/// attribute types a browser must render (Decimal, Double with a NaN, a 64-bit integer beyond JavaScript's
/// exact range, UUID, Binary, Boolean) and a sub-entity (AudioBook) so inheritance shows in the counts.
///
/// The iOS demo app's `Model.xcdatamodeld` declares the same model (DemoModelTests checks it) and inserts the same
/// records, `DemoSeed`'s (it links BrowserMemory), so the Linux demo and the app show the same store. The seed is
/// deterministic: the same IDs and values on every run.
public enum DemoLibrary {
    /// Fixed so that links into the demo (`x-coredata://…/Book/p1`) stay valid across restarts.
    public static let storeIdentifier = "6F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A00"

    /// Generated books, so that paging matters and the largest page (500 rows) is full.
    public static let generatedBookCount = 600

    /// A title that must be shown as text: the browser tests check that nothing in it runs.
    public static let hostileTitle = #"<script>window.__xss=1</script> "quoted" <img src=x onerror="window.__xss=2">"#

    /// A summary with a RIGHT-TO-LEFT OVERRIDE (U+202E): drawn as is it reads "Invoice exe.pdf". The browser tests
    /// check that both views show the control character as a visible marker instead.
    public static let bidiSpoofSummary = "Invoice \u{202E}fdp.exe"

    public static let schema = StoreSchema(entities: [
        EntitySchema(
            name: "Author",
            attributes: [
                AttributeSchema(name: "name", type: .string, isOptional: false),
                AttributeSchema(name: "bio", type: .string),
                AttributeSchema(name: "birthDate", type: .date),
            ],
            relationships: [
                RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "author", deleteRule: .cascade),
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
                RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "tags", deleteRule: .nullify),
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
        RelationshipSchema(name: "author", destination: "Author", isToMany: false, inverse: "books", deleteRule: .nullify),
        RelationshipSchema(name: "tags", destination: "Tag", isToMany: true, inverse: "books", deleteRule: .nullify),
    ]

    /// A new store holding the demo data.
    public static func makeStore() async throws -> InMemoryStore {
        let store = InMemoryStore(schema: schema, storeIdentifier: storeIdentifier, summary: "In-memory demo store (Author, Book, AudioBook, Tag)")
        try await seed(store)
        return store
    }

    static func seed(_ store: InMemoryStore) async throws {
        var ids: [String: ObjectID] = [:]
        for record in DemoSeed.records {
            ids[record.key] = try await store.insert(record.entity, record.values, blobs: record.blobs)
        }
        for record in DemoSeed.records {
            for link in record.links {
                guard let source = ids[record.key], let target = ids[link.target] else { continue }
                try await store.relate(source, link.relationship, target)
            }
        }
    }
}
