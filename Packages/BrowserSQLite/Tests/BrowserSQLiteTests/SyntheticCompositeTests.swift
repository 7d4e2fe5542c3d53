import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// SwiftData composite attributes (format doc §7): no column of their own; each element is a column named after
/// the element alone, allocated at the composite's place in name order, so `author.id` takes `ZID` and the
/// entity's own `id` gets `ZID1`. They are shown as `composite.element` attributes.
struct SyntheticCompositeTests {
    static let model = SyntheticStore.modelXML("""
        <composite name="Person">
            <attribute name="id" optional="YES" attributeType="String"/>
            <attribute name="name" optional="YES" attributeType="String"/>
        </composite>
        <entity name="Cocktail" representedClassName="Cocktail" syncable="YES">
            <attribute name="author" optional="YES" attributeType="Composite" composite="Person"/>
            <attribute name="id" optional="YES" attributeType="String"/>
            <attribute name="strength" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
        </entity>
        """)

    @Test func compositeElementsAreFlattenedColumnsShownAsDottedAttributes() async throws {
        let synthetic = try SyntheticStore(
            entities: [.init(number: 1, name: "Cocktail")],
            tables: ["CREATE TABLE ZCOCKTAIL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTRENGTH FLOAT, ZID VARCHAR, ZID1 VARCHAR, ZNAME VARCHAR )"],
            modelXML: Self.model
        ) { database in
            try database.run("INSERT INTO ZCOCKTAIL VALUES (1, 1, 1, 0.4, 'author-7', 'negroni', 'Camillo')", [])
        }
        let store = try SQLiteStore.open(storeAt: synthetic.storeURL, model: synthetic.modelURL)
        let cocktail = try #require(try await store.schema().entity(named: "Cocktail"))
        #expect(cocktail.attributes.map(\.name) == ["author.id", "author.name", "id", "strength"])
        #expect(store.mapping.entities["Cocktail"]?.attribute(named: "author.id")?.column == "ZID")
        #expect(store.mapping.entities["Cocktail"]?.attribute(named: "id")?.column == "ZID1")

        let record = try #require(try await store.page(RecordQuery(entity: "Cocktail")).records.first)
        #expect(record.values["author.id"] == .string("author-7"))
        #expect(record.values["author.name"] == .string("Camillo"))
        #expect(record.values["id"] == .string("negroni"))
        #expect(record.values["strength"] == .double(0.4))

        // A composite element is searchable like any String attribute.
        let query = try RecordQuery.validated(RecordQueryParameters(search: "camillo", searchAttribute: "author.name"), for: cocktail)
        #expect(try await store.page(query).total == 1)
    }
}
