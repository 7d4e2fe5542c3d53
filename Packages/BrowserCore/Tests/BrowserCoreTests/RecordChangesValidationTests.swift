@testable import BrowserCore
import Foundation
import Testing

/// What a write is checked for before a store sees it, from the model's own description: minimum and maximum
/// values and lengths, defaults on insert, derived attributes, required relationships and their counts, IDs of
/// other stores and entities. (The HTTP routes' tests cover the schema-only rules on the demo library.)
struct RecordChangesValidationTests {
    static let schema = StoreSchema(entities: [
        EntitySchema(name: "Shelf", attributes: [
            AttributeSchema(name: "label", type: .string, isOptional: false),
            AttributeSchema(name: "capacity", type: .integer16, isOptional: false),
            AttributeSchema(name: "opened", type: .date),
            AttributeSchema(name: "public", type: .boolean, isOptional: false),
            AttributeSchema(name: "weight", type: .double),
            AttributeSchema(name: "itemCount", type: .integer64),
        ], relationships: [
            RelationshipSchema(name: "room", destination: "Room", isToMany: false, inverse: "shelves"),
            RelationshipSchema(name: "items", destination: "Item", isToMany: true, inverse: "shelf"),
        ]),
        EntitySchema(name: "Room", relationships: [RelationshipSchema(name: "shelves", destination: "Shelf", isToMany: true, inverse: "room")]),
        EntitySchema(name: "Item", relationships: [RelationshipSchema(name: "shelf", destination: "Shelf", isToMany: false, inverse: "items")]),
        EntitySchema(name: "Poster", parent: "Item"),
    ])

    static let model = ModelDescription(entities: [
        ModelEntity(name: "Shelf", attributes: [
            ModelAttribute(name: "label", type: "String", isOptional: false, minimum: "2", maximum: "5"),
            ModelAttribute(name: "capacity", type: "Integer 16", isOptional: false, defaultValue: "12", minimum: "1", maximum: "40"),
            ModelAttribute(name: "opened", type: "Date", minimum: "2000-01-01T00:00:00Z"),
            ModelAttribute(name: "public", type: "Boolean", isOptional: false, defaultValue: "YES"),
            ModelAttribute(name: "weight", type: "Double", defaultValue: "1.5"),
            ModelAttribute(name: "itemCount", type: "Integer 64", derivation: "items.@count"),
        ], relationships: [
            ModelRelationship(name: "room", destination: "Room", inverse: "shelves", isToMany: false, isOptional: false, maxCount: 1),
            ModelRelationship(name: "items", destination: "Item", inverse: "shelf", isToMany: true, minCount: 0, maxCount: 2),
        ]),
    ])

    static let store = "AAAAAAAA-0000-0000-0000-000000000001"
    static func id(_ entity: String, _ key: Int64, store: String = store) -> String { "x-coredata://\(store)/\(entity)/p\(key)" }

    static func validate(_ body: String, _ purpose: RecordChangesValidation.Purpose = .update) throws(BrowserError) -> RecordChanges {
        let validation = RecordChangesValidation(entity: schema.entity(named: "Shelf")!, schema: schema, model: model, storeIdentifier: store)
        return try validation.changes(from: try RecordWriteBody.decode(Data(body.utf8)), for: purpose)
    }

    static func problems(_ body: String, _ purpose: RecordChangesValidation.Purpose = .update) -> [String: String] {
        do {
            _ = try validate(body, purpose)
            return [:]
        } catch {
            #expect(error.statusCode == 422, "\(error.message)")
            guard case .fields(let problems) = error.details else { return ["": error.message] }
            return Dictionary(uniqueKeysWithValues: problems.map { ($0.field, $0.message) })
        }
    }

    @Test func theModelsMinimumsAndMaximumsBoundValuesAndLengths() throws {
        let refused = Self.problems(#"{"attrs": {"label": "a", "capacity": 41, "opened": "1999-12-31"}}"#)
        #expect(refused["attrs.label"] == "length below the model's minimum of 2 characters")
        #expect(refused["attrs.capacity"] == "value above the model's maximum of 40")
        #expect(refused["attrs.opened"] == "value below the model's minimum of 2000-01-01T00:00:00Z")
        #expect(Self.problems(#"{"attrs": {"label": "abcdef"}}"#)["attrs.label"] == "length above the model's maximum of 5 characters")
        // Lengths count UTF-16 units, as NSString.length does: "é😀" is 3.
        #expect(try Self.validate(#"{"attrs": {"label": "é😀", "capacity": 40}}"#).attributes == ["label": .string("é😀"), "capacity": .integer(40)])
    }

    @Test func anInsertTakesTheModelsDefaultsAndNamesEveryRequiredValueMissing() throws {
        let missing = Self.problems(#"{"attrs": {}}"#, .insert)
        #expect(missing == ["attrs.label": "required: the model gives it no default value",
                            "relationships.room": "required: the model does not let it be nil"])
        let changes = try Self.validate(#"{"attrs": {"label": "Oak"}, "relationships": {"room": "\#(Self.id("Room", 1))"}}"#, .insert)
        #expect(changes.attributes == ["label": .string("Oak"), "capacity": .integer(12), "public": .boolean(true), "weight": .double(1.5)])
        #expect(changes.relationships == ["room": .toOne(ObjectID(storeIdentifier: Self.store, entity: "Room", primaryKey: 1))])
    }

    @Test func derivedAttributesAndRequiredRelationshipsCannotBeSetOrCleared() {
        let refused = Self.problems(#"{"attrs": {"itemCount": 3}, "relationships": {"room": null}}"#)
        #expect(refused["attrs.itemCount"] == "derived (items.@count): Core Data computes it, so it cannot be set")
        #expect(refused["relationships.room"] == "required: the model does not let it be nil")
    }

    @Test func relationshipTargetsAreIDsOfThisStoreAndTheDestinationWithinTheCounts() throws {
        let item = Self.id("Item", 1), poster = Self.id("Poster", 2)
        let changes = try Self.validate(#"{"relationships": {"items": ["\#(item)", "\#(poster)"]}}"#)
        #expect(changes.relationships["items"]?.targets.map(\.uri) == [item, poster], "a sub-entity's record is a destination too")
        #expect(Self.problems(#"{"relationships": {"items": ["\#(item)", "\#(poster)", "\#(Self.id("Item", 3))"]}}"#)["relationships.items"]
            == "3 records, above the model's maximum of 2")
        #expect(Self.problems(#"{"relationships": {"items": ["\#(item)", "\#(item)"]}}"#)["relationships.items"] == "\(item) is listed twice")
        #expect(Self.problems(#"{"relationships": {"room": "\#(Self.id("Room", 1, store: "OTHER"))"}}"#)["relationships.room"]
            == "\(Self.id("Room", 1, store: "OTHER")) is an object of another store")
        #expect(Self.problems(#"{"relationships": {"room": "nonsense"}}"#)["relationships.room"]?.hasPrefix("Malformed id") == true)
        #expect(Self.problems(#"{"relationships": {"room": ["\#(Self.id("Room", 1))"]}}"#)["relationships.room"]
            == "a to-one relationship takes one object ID or null")
    }

    @Test func valuesTakeTheirAttributesTypes() throws {
        let changes = try Self.validate(#"{"attrs": {"capacity": "7", "opened": "2020-03-01T12:00:00Z", "public": false, "weight": 2}}"#)
        #expect(changes.attributes["capacity"] == .integer(7))
        #expect(changes.attributes["opened"] == .date(Date(timeIntervalSince1970: 1_583_064_000)))
        #expect(changes.attributes["weight"] == .double(2))
        let refused = Self.problems(#"{"attrs": {"capacity": 1.5, "public": "yes", "opened": "soon", "label": 12}}"#)
        #expect(Set(refused.keys) == ["attrs.capacity", "attrs.public", "attrs.opened", "attrs.label"])
        #expect(refused["attrs.capacity"]?.contains("a whole number is needed") == true)
    }
}
