import BrowserCore
import Testing

struct DisplayAttributeChoiceTests {
    static func entity(_ name: String, strings: [String], others: [AttributeSchema] = []) -> EntitySchema {
        EntitySchema(name: name, attributes: strings.map { AttributeSchema(name: $0, type: .string) } + others)
    }

    static func sample(_ entity: String, _ rows: [[String: String?]]) -> [StoredRecord] {
        rows.enumerated().map { index, values in
            Make.record(entity, Int64(index + 1), values.mapValues { $0.map(AttributeValue.string) ?? .null })
        }
    }

    @Test func aNameAttributeWinsOverWhatSortsFirst() {
        // The old rule took the alphabetically first String: every cocktail was named after `author.person`.
        let cocktail = Self.entity("Cocktail", strings: ["author.person", "cocktailName", "glass", "instructions"])
        let rows = (1...8).map { ["author.person": "Sam", "cocktailName": "Drink \($0)", "glass": "coupe",
                                  "instructions": String(repeating: "Stir. ", count: 30)] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: cocktail, sample: Self.sample("Cocktail", rows)) == "cocktailName")
    }

    @Test func exactNamesComeInTheirOrder() {
        let entity = Self.entity("Book", strings: ["bookTitle", "title", "name"])
        #expect(DisplayAttributeChoice.choose(for: entity, sample: []) == "name")
        let titled = Self.entity("Book", strings: ["bookTitle", "subtitle", "title"])
        #expect(DisplayAttributeChoice.choose(for: titled, sample: []) == "title")
        let prefixed = Self.entity("CDCartItem", strings: ["code", "cartItemName"])
        #expect(DisplayAttributeChoice.choose(for: prefixed, sample: []) == "cartItemName")
    }

    @Test func aNameThatIsAlmostNeverFilledInIsPassedOver() {
        let entity = Self.entity("Person", strings: ["displayName", "email"])
        let rows = (1...10).map { ["displayName": $0 == 1 ? "Ann" : nil, "email": "p\($0)@example.com"] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: entity, sample: Self.sample("Person", rows)) == "email")
        // One record is too few to judge: the name stands (SwiftData's CartModel has one, without a displayName).
        let one = [["displayName": nil, "email": "a@example.com"]] as [[String: String?]]
        #expect(DisplayAttributeChoice.choose(for: entity, sample: Self.sample("Person", one)) == "displayName")
    }

    @Test func valuesDecideWhenNoNameSaysIt() {
        let ingredient = Self.entity("Ingredient", strings: ["amountUnit", "label2", "uuidString", "what"])
        let rows = (1...12).map { index -> [String: String?] in
            ["amountUnit": ["oz", "ml"][index % 2], "label2": String(index),
             "uuidString": "31D0046D-3C85-410E-BBB0-141FC0105E\(String(format: "%02d", index))",
             "what": ["Gin", "Tonic", "Lime", "Mint", "Rum", "Sugar", "Soda", "Ice", "Salt", "Vodka", "Egg", "Cola"][index - 1]]
        }
        #expect(DisplayAttributeChoice.choose(for: ingredient, sample: Self.sample("Ingredient", rows)) == "what")
    }

    @Test func digitsNameARecordOnlyWhenNothingElseDoes() {
        let car = Self.entity("Car", strings: ["maker", "numberPlate"])
        let rows = (1...12).map { ["maker": ["FIAT", "Renault"][$0 % 2], "numberPlate": String(100 + $0)] as [String: String?] }
        #expect(DisplayAttributeChoice.choose(for: car, sample: Self.sample("Car", rows)) == "numberPlate")
    }

    @Test func uuidsAndRepeatedCodesAreNotNames() {
        let album = Self.entity("Album", strings: ["cloudGUID", "kind"])
        let rows = (1...12).map { index -> [String: String?] in
            ["cloudGUID": "31D0046D-3C85-410E-BBB0-141FC0105E\(String(format: "%02d", index))", "kind": "2"]
        }
        #expect(DisplayAttributeChoice.choose(for: album, sample: Self.sample("Album", rows)) == nil)
    }

    @Test func anEmptyEntityFallsBackToIdentifiersThenPlainStrings() {
        // SwiftData's CartItemModel: no name-like attribute and no rows.
        let item = Self.entity("CartItemModel", strings: ["id", "imageURLString", "productId", "totalPriceCurrencyCode"])
        #expect(DisplayAttributeChoice.choose(for: item, sample: []) == "productId")
        let note = Self.entity("Note", strings: ["id", "body"])
        #expect(DisplayAttributeChoice.choose(for: note, sample: []) == "body")
        #expect(DisplayAttributeChoice.choose(for: Self.entity("Blob", strings: []), sample: []) == nil)
    }
}
