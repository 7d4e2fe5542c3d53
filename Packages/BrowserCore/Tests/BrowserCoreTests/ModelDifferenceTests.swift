import BrowserCore
import Foundation
import Testing

/// How two versions of a model are paired and compared (`ModelDifference`), on small models built here.
struct ModelDifferenceTests {
    private func model(_ entities: ModelEntity...) -> ModelDescription {
        ModelDescription(entities: entities)
    }

    private func entity(_ name: String, renamedFrom: String? = nil, parent: String? = nil,
                        attributes: [ModelAttribute] = [], relationships: [ModelRelationship] = []) -> ModelEntity {
        ModelEntity(name: name, parent: parent, renamingIdentifier: renamedFrom, attributes: attributes,
                    relationships: relationships)
    }

    private func attribute(_ name: String, _ type: String = "String", optional: Bool = true, renamedFrom: String? = nil,
                           defaultValue: String? = nil) -> ModelAttribute {
        ModelAttribute(name: name, type: type, isOptional: optional, defaultValue: defaultValue, renamingIdentifier: renamedFrom)
    }

    private func lines(_ difference: ModelDifference) -> [String] {
        difference.entities.flatMap { entity -> [String] in
            let head = "\(entity.change) \(entity.previousName.map { "\($0) → " } ?? "")\(entity.name)"
                + entity.fields.map { " \($0.field): \($0.from ?? "none") → \($0.to ?? "none")" }.joined()
            let properties = (entity.attributes + entity.relationships).map { property in
                "  \(property.change) \(property.previousName.map { "\($0) → " } ?? "")\(property.name)"
                    + property.fields.map { " \($0.field): \($0.from ?? "none") → \($0.to ?? "none")" }.joined()
            }
            return [head] + properties
        }
    }

    @Test func identicalModelsDifferInNothing() {
        let one = model(entity("Post", attributes: [attribute("title")]))
        #expect(ModelDifference.between(one, one).entities.isEmpty)
    }

    @Test func aRenamingIdentifierPairsEntitiesAndPropertiesInEitherDirection() {
        let old = model(entity("ExpensiveCar", attributes: [attribute("color")]))
        let new = model(entity("LuxuryCar", renamedFrom: "ExpensiveCar", attributes: [attribute("hexColor", renamedFrom: "color")]))
        #expect(lines(ModelDifference.between(old, new)) == ["renamed ExpensiveCar → LuxuryCar", "  renamed color → hexColor"])
        // From the later version back to the earlier one, the later one's identifiers still pair them.
        #expect(lines(ModelDifference.between(new, old)) == ["renamed LuxuryCar → ExpensiveCar", "  renamed hexColor → color"])
    }

    @Test func aNameTakenAgainIsTheSameElementNotARenaming() {
        // "title" exists in both: it is title, whatever another attribute's renaming identifier says.
        let old = model(entity("Post", attributes: [attribute("title"), attribute("body")]))
        let new = model(entity("Post", attributes: [attribute("title"), attribute("text", renamedFrom: "title")]))
        #expect(lines(ModelDifference.between(old, new)) == ["changed Post", "  removed body", "  added text"])
    }

    @Test func unpairedElementsAreAddedOrRemovedAndPairedOnesListWhatChanged() {
        let old = model(
            entity("Post", attributes: [attribute("title", optional: true), attribute("views", "Integer 16")],
                   relationships: [ModelRelationship(name: "sections", destination: "Section", inverse: "post", isToMany: true,
                                                     deleteRule: .cascade)]),
            entity("Draft"))
        let new = model(
            entity("Post", parent: "Item", attributes: [attribute("title", optional: false),
                                                       attribute("views", "Integer 64", defaultValue: "0")],
                   relationships: [ModelRelationship(name: "sections", destination: "Section", inverse: "post", isToMany: true,
                                                     maxCount: 10, deleteRule: .nullify)]),
            entity("Section"))
        #expect(lines(ModelDifference.between(old, new)) == [
            "removed Draft",
            "changed Post parent: none → Item",
            "  changed title optional: true → false",
            "  changed views type: Integer 16 → Integer 64 defaultValue: none → 0",
            "  changed sections maxCount: none → 10 deleteRule: Cascade → Nullify",
            "added Section",
        ])
    }

    /// A value the version does not have is written as `null`, not left out (found comparing every versioned
    /// fixture with the model files: `{"field": "parent", "to": "Item"}` lacked its `from`).
    @Test func aMissingValueIsWrittenAsNull() throws {
        let field = ModelDifference.Field(field: "parent", from: nil, to: "Item")
        let json = String(decoding: try BrowserJSON.encode(field), as: UTF8.self)
        #expect(json.contains(#""from":null"#))
        #expect(json.contains(#""to":"Item""#))
    }
}
