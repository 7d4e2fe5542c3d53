import BrowserCore
import BrowserMemory
import Foundation
import Testing

/// The in-memory store's writes, with the rules the demo library does not exercise: a one-to-one inverse that moves,
/// a Deny rule, No Action, an unknown rule, and versions.
struct InMemoryStoreWriteTests {
    static let schema = StoreSchema(entities: [
        EntitySchema(name: "Person", attributes: [AttributeSchema(name: "name", type: .string)], relationships: [
            RelationshipSchema(name: "badge", destination: "Badge", isToMany: false, inverse: "holder", deleteRule: .deny),
            RelationshipSchema(name: "notes", destination: "Note", isToMany: true, inverse: "person", deleteRule: .noAction),
            RelationshipSchema(name: "desk", destination: "Desk", isToMany: false, deleteRule: nil),
        ]),
        EntitySchema(name: "Badge", attributes: [AttributeSchema(name: "code", type: .string)], relationships: [
            RelationshipSchema(name: "holder", destination: "Person", isToMany: false, inverse: "badge", deleteRule: .nullify),
        ]),
        EntitySchema(name: "Note", relationships: [
            RelationshipSchema(name: "person", destination: "Person", isToMany: false, inverse: "notes", deleteRule: .nullify),
        ]),
        EntitySchema(name: "Desk"),
    ])

    @Test func aOneToOneInverseMovesAndEveryRecordItTouchesGetsOneNewVersion() async throws {
        let store = InMemoryStore(schema: Self.schema, storeIdentifier: "S")
        let ann = try await store.insert("Person", ["name": .string("Ann")])
        let bob = try await store.insert("Person", ["name": .string("Bob")])
        let badge = try await store.insert(into: "Badge", RecordChanges(attributes: ["code": .string("B1")], relationships: ["holder": .toOne(ann)]))
        #expect(try await store.record(badge)?.version == 1)
        #expect(try await store.record(ann)?.version == 2, "Ann's badge relationship changed")
        #expect(try await store.related(from: ann, through: "badge", limit: 5).records.map(\.id) == [badge])

        // Giving Bob the badge takes it from Ann: Ann, Bob and the badge each change once.
        try await store.update(bob, expecting: 1, RecordChanges(attributes: ["name": .string("Robert")], relationships: ["badge": .toOne(badge)]))
        #expect(try await store.related(from: ann, through: "badge", limit: 5).total == 0)
        #expect(try await store.related(from: badge, through: "holder", limit: 5).records.map(\.id) == [bob])
        #expect(try await [ann, bob, badge].asyncMap { try await store.record($0)?.version } == [3, 2, 2])
        #expect(try await store.record(bob)?.values["name"] == .string("Robert"))

        // A stale version changes nothing.
        await #expect(throws: BrowserError.self) {
            try await store.update(bob, expecting: 1, RecordChanges(attributes: ["name": .string("Lost")]))
        }
        #expect(try await store.record(bob)?.values["name"] == .string("Robert"))
    }

    @Test func denyBlocksNoActionLeavesTheOtherSideAndAnUnknownRuleRefuses() async throws {
        let store = InMemoryStore(schema: Self.schema, storeIdentifier: "S")
        let ann = try await store.insert("Person", ["name": .string("Ann")])
        let badge = try await store.insert(into: "Badge", RecordChanges(relationships: ["holder": .toOne(ann)]))
        let note = try await store.insert(into: "Note", RecordChanges(relationships: ["person": .toOne(ann)]))

        let effects = try await store.deletionEffects(of: ann)
        #expect(effects.blockedBy == [RelationshipEffect(entity: "Person", relationship: "badge", count: 1)])
        do {
            _ = try await store.delete(ann, expecting: 3)
            Issue.record("a Deny rule with a badge must block the delete")
        } catch let error as BrowserError {
            #expect(error.statusCode == 409)
            #expect(error.details == .blockedBy(effects.blockedBy))
        }
        #expect(try await store.record(ann) != nil)

        // Deleting the badge nullifies Ann's side; then Ann goes, and No Action leaves the note pointing at her.
        let badgeEffects = try await store.delete(badge, expecting: 1)
        #expect(badgeEffects.clears == [RelationshipEffect(entity: "Person", relationship: "badge", count: 1)])
        let annVersion = try #require(try await store.record(ann)?.version)
        let annEffects = try await store.delete(ann, expecting: annVersion)
        #expect(annEffects.clears.isEmpty && annEffects.cascades.isEmpty)
        #expect(try await store.record(ann) == nil)
        #expect(try await store.record(note)?.version == 1, "No Action does not touch the note")

        // A rule the model does not state (nil) is not guessed: the delete is refused while the relationship holds.
        let cy = try await store.insert("Person", ["name": .string("Cy")])
        let desk = try await store.insert("Desk")
        try await store.update(cy, expecting: 1, RecordChanges(relationships: ["desk": .toOne(desk)]))
        await #expect(throws: BrowserError.forbidden("Person.desk's delete rule is unknown, so what a delete does cannot be decided")) {
            _ = try await store.delete(cy, expecting: 2)
        }
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
