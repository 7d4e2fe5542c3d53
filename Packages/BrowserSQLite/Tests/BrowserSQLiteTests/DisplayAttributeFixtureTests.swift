import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// The display attribute chosen for real stores (`DisplayAttributeChoice` through `BrowserService`).
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct DisplayAttributeFixtureTests {
    /// The SwiftData store's `@Model` sources ship with the fixture; the expected display attribute of each entity is
    /// derived from them and the store's values, not written here: its name-like stored String (`name`, `title`,
    /// `displayName`, `fullName`, `label`, `<entity>Name`/`<entity>Title`, then another `…Name`/`…Title`) that some
    /// record fills in (a name nil in every record names none: CartModel's one cart has no `displayName`), else, for
    /// a class without records such as `CartItemModel`, the record's own identity (its `@Attribute(.unique)`
    /// String; with records its values decide, and a UUID never names one). Whatever is chosen must never be a
    /// reference to another record (a `…Id` named after another type than its class: `productId`, documented as
    /// "Domain: CartItem.productID") or a unit (a currency code).
    @Test func swiftDataEntitiesAreNamedByTheirNameLikeAttribute() async throws {
        let opened = try OpenedFixture("cartkit/swiftdata/CartKitSwiftData_v1.sqlite")
        let entities = try await BrowserService(store: opened.store).entities()
        let sources = Fixtures.url("cartkit/swiftdata/model-source")
        let raw = try RawDatabase(path: opened.directory.path("CartKitSwiftData_v1.sqlite").path)
        // Each class is a root entity: table `Z<NAME>`, column `Z<PROPERTY>` (fewer rows than the rule's sample).
        func filledIn(_ entity: String, _ property: String) throws -> Int64 {
            try raw.rows("SELECT count(Z\(property.uppercased())) FROM Z\(entity.uppercased())")[0][0] as? Int64 ?? 0
        }
        var expected: [String: String?] = [:]
        for entity in entities {
            let source = try String(contentsOf: sources.appendingPathComponent("\(entity.name).swift"), encoding: .utf8)
            let declared = ModelSourceProperty.strings(in: source)
            #expect(!declared.isEmpty, "\(entity.name).swift declares String properties")
            let properties = try declared.filter { try entity.count == 0 || filledIn(entity.name, $0.name) > 0 }
            let stem = entity.name.hasSuffix("Model") ? String(entity.name.dropLast(5)).lowercased() : entity.name.lowercased()
            let exact = ["name", "title", "displayname", "fullname", "label", stem + "name", stem + "title"]
            let named = properties.filter { exact.contains($0.name.lowercased()) }
                .min { exact.firstIndex(of: $0.name.lowercased())! < exact.firstIndex(of: $1.name.lowercased())! }
                ?? properties.first { $0.name.hasSuffix("Name") || $0.name.hasSuffix("Title") }
            expected.updateValue((named ?? (entity.count == 0 ? properties.first { $0.isUnique } : nil))?.name, forKey: entity.name)
            if let chosen = entity.summaryAttribute, let property = properties.first(where: { $0.name == chosen }) {
                #expect(!property.isReferenceToAnotherRecord(of: entity.name),
                        "\(entity.name).\(chosen) holds another record's ID: \(property.comment)")
                #expect(!property.isUnit, "\(entity.name).\(chosen) is a unit")
            }
        }
        let chosen = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.summaryAttribute) })
        #expect(chosen == expected)
        // What the derivation gives for this fixture, written out so a change in the sources or the rule shows.
        #expect(expected == ["CartModel": nil, "CartItemModifierModel": "name", "CartItemModel": "id"])
    }

    /// Apple Notes: every object inherits `zoneOwnerName`, nil in a local account; hashtags and inline attachments
    /// are named by their readable `displayText` and `altText` (they were "ICHashtag p8" after the nil name), media
    /// by their `filename` (no record in this store: chosen by name), notes and folders by their titles.
    @Test func notesRecordsAreNamedByTheirReadableText() async throws {
        let opened = try OpenedFixture("apple-notes-13/NoteStore.sqlite")
        let service = BrowserService(store: opened.store)
        let entities = try await service.entities()
        let chosen = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.summaryAttribute) })
        #expect(chosen["ICHashtag"] == "displayText" && chosen["ICInlineAttachment"] == "altText")
        #expect(chosen["ICMedia"] == "filename" && chosen["ICNote"] == "title" && chosen["ICFolder"] == "title")
        // Nil wherever there are records; an entity without any is named by what its model says alone.
        #expect(entities.filter { $0.count > 0 && $0.summaryAttribute == "zoneOwnerName" }.map(\.name) == [])
        let raw = try RawDatabase(path: opened.directory.path("NoteStore.sqlite").path)
        let tags = try raw.rows("SELECT Z_PK, ZDISPLAYTEXT FROM ZICCLOUDSYNCINGOBJECT WHERE Z_ENT = 7 ORDER BY Z_PK")
        #expect(tags.count == 2)
        for tag in tags {
            let id = ObjectID(storeIdentifier: opened.store.storeIdentifier, entity: "ICHashtag", primaryKey: tag[0] as! Int64)
            #expect(try await service.object(id: id.uri).summary == tag[1] as? String)
        }
    }

    @Test func everyFixtureEntityGetsANameOrNoneButNeverAUUIDColumn() async throws {
        var report: [String] = []
        for fixture in FixtureStore.all {
            let opened = try OpenedFixture(fixture.path)
            for entity in try await BrowserService(store: opened.store).entities() {
                report.append("\(fixture.path) \(entity.name): \(entity.summaryAttribute ?? "-")")
                #expect(entity.summaryAttribute.map { !$0.lowercased().hasSuffix("uuid") } ?? true)
            }
        }
        print(report.joined(separator: "\n"))
    }
}

/// A stored String property of a SwiftData `@Model` class, read from its source: `public var productId: String`,
/// with its doc comment and whether `@Attribute(.unique)` marks it.
struct ModelSourceProperty {
    var name: String
    var comment: String
    var isUnique: Bool

    /// Every `var x: String` / `String?` of the class, in source order (computed properties have a body: left out).
    static func strings(in source: String) -> [ModelSourceProperty] {
        var found: [ModelSourceProperty] = []
        var comment: [String] = []
        var unique = false
        for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("///") {
                comment.append(String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("@Attribute") {
                unique = unique || line.contains(".unique")
            } else if let name = storedString(line) {
                found.append(ModelSourceProperty(name: name, comment: comment.joined(separator: " "), isUnique: unique))
                comment = []
                unique = false
            } else if !line.hasPrefix("//") && !line.isEmpty {
                comment = []
                unique = false
            }
        }
        return found
    }

    /// `public var productId: String` → "productId"; nil for other lines (a body `{`, another type, a `let`).
    private static func storedString(_ line: String) -> String? {
        let words = line.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(of: "var"), index + 2 < words.count, words[index + 1].hasSuffix(":") else { return nil }
        let type = words[index + 2]
        guard type == "String" || type == "String?", index + 3 == words.count || words[index + 3] == "=" else { return nil }
        return String(words[index + 1].dropLast())
    }

    /// "Domain: CartItem.productID" on a `productId`: an identifier of a type other than the class's own.
    func isReferenceToAnotherRecord(of entity: String) -> Bool {
        guard name.hasSuffix("Id") || name.hasSuffix("ID") else { return false }
        let owner = name.dropLast(2).lowercased()
        let ownType = entity.hasSuffix("Model") ? String(entity.dropLast(5)).lowercased() : entity.lowercased()
        return !owner.isEmpty && owner != ownType
    }

    /// A currency code or another unit of a value: never what a person calls a record.
    var isUnit: Bool { name.hasSuffix("CurrencyCode") || name.hasSuffix("Unit") }
}
