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

    @Test func browsableEntitiesLeaveOutAbstractOnesAndSortByName() {
        #expect(schema.browsableEntities.map(\.name) == ["Author", "Car", "ExpensiveSportCar", "SportCar"])
    }

    static let summaries: [([String: AttributeValue], String)] = [
        (["title": .string("Germinal"), "summary": .string("A")], "Germinal"),
        (["name": .string("Zola"), "title": .string("Germinal")], "Zola"),
        (["name": .string(""), "title": .string("Germinal")], "Germinal"),
        (["title": .null, "summary": .string("Alpha"), "subtitle": .null], "Alpha"),
        (["title": .null, "summary": .string("Alpha"), "subtitle": .string("Beta")], "Beta"),
        (["summary": .string(""), "subtitle": .string("Beta")], "Beta"),
        ([:], "Item p7"),
        (["pageCount": .integer(3)], "Item p7"),
    ]

    @Test("summary follows name, title, first non-empty String, else Entity pN", arguments: summaries)
    func summary(values: [String: AttributeValue], expected: String) {
        let entity = EntitySchema(name: "Item", attributes: [
            AttributeSchema(name: "title", type: .string), AttributeSchema(name: "name", type: .string),
            AttributeSchema(name: "summary", type: .string), AttributeSchema(name: "subtitle", type: .string),
            AttributeSchema(name: "pageCount", type: .integer16),
        ])
        #expect(RecordSummary.make(for: Make.record("Item", 7, values), entity: entity) == expected)
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
        #expect(BrowserError.badRequest("x").status == 400)
        #expect(BrowserError.notFound("x").status == 404)
        #expect(BrowserError(.methodNotAllowed, "x").status == 405)
        #expect(BrowserError.storeFailure("x").status == 500)
        struct Other: Error {}
        #expect(BrowserError.wrapping(Other()).status == 500)
        #expect(BrowserError.wrapping(BrowserError.notFound("y")) == .notFound("y"))
    }
}
