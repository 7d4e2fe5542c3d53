import BrowserCore
import Testing

struct SchemaAndSummaryTests {
    let schema = StoreSchema(entities: [
        EntitySchema(name: "Car"),
        EntitySchema(name: "SportCar", parent: "Car"),
        EntitySchema(name: "ExpensiveSportCar", parent: "SportCar"),
        EntitySchema(name: "Writer", isAbstract: true),
        EntitySchema(name: "Author", parent: "Writer"),
    ])

    @Test func subtreeIncludesEveryDescendant() {
        #expect(schema.subtree(of: "Car") == ["Car", "SportCar", "ExpensiveSportCar"])
        #expect(schema.subtree(of: "SportCar") == ["SportCar", "ExpensiveSportCar"])
        #expect(schema.subtree(of: "ExpensiveSportCar") == ["ExpensiveSportCar"])
    }

    @Test func rootWalksToTheTopOfTheChain() {
        #expect(schema.root(of: "ExpensiveSportCar") == "Car")
        #expect(schema.root(of: "Author") == "Writer")
        #expect(schema.root(of: "Car") == "Car")
    }

    @Test func browsableEntitiesIncludeAbstractOnesAndSortByName() {
        #expect(schema.browsableEntities.map(\.name) == ["Author", "Car", "ExpensiveSportCar", "SportCar", "Writer"])
    }

    static let summaries: [([String: AttributeValue], String?, String)] = [
        (["title": .string("Germinal"), "name": .string("Zola")], "title", "Germinal"),
        (["title": .string("Germinal"), "name": .string("Zola")], "name", "Zola"),
        (["title": .string("  "), "name": .string("Zola")], "title", "Item p7"),
        (["title": .null], "title", "Item p7"),
        (["title": .string("Germinal")], nil, "Item p7"),
        ([:], "title", "Item p7"),
    ]

    @Test("summary is the display attribute's value, else Entity pN", arguments: summaries)
    func summary(values: [String: AttributeValue], attribute: String?, expected: String) {
        #expect(RecordSummary.make(for: Make.record("Item", 7, values), attribute: attribute) == expected)
    }

    static let folding: [(String, String, Bool)] = [
        ("Café", "cafe", true), ("CAFÉ", "cafe", true), ("café", "CAFE", true), ("Straße", "strasse", true),
        ("naïve", "NAIVE", true), ("Ωmega", "ωμ", false), ("Ωmega", "ωm", true), ("İstanbul", "istanbul", true),
        ("Germinal", "germ", true), ("Germinal", "x", false), ("", "a", false), ("anything", "", true),
    ]

    @Test("CONTAINS[cd] folding", arguments: folding)
    func contains(text: String, needle: String, expected: Bool) {
        #expect(TextFolding.contains(text, needle) == expected)
    }

    @Test func errorsCarryTheirStatus() {
        #expect(BrowserError.badRequest("x").statusCode == 400)
        #expect(BrowserError.notFound("x").statusCode == 404)
        #expect(BrowserError.storeFailure("x").statusCode == 500)
        #expect(BrowserError.unavailable("x").statusCode == 503)
        struct Other: Error {}
        #expect(BrowserError.wrapping(Other()).statusCode == 500)
        #expect(BrowserError.wrapping(BrowserError.notFound("y")) == .notFound("y"))
    }
}
