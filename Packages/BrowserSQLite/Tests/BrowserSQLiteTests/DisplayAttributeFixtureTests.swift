import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// The display attribute chosen for real stores (`DisplayAttributeChoice` through `BrowserService`).
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct DisplayAttributeFixtureTests {
    /// The SwiftData store's `@Model` sources ship with the fixture; the expected display attribute of each entity is
    /// derived from them, not written here: its name-like stored String (`name`, `title`, `displayName`, `fullName`,
    /// `label`, `<entity>Name`/`<entity>Title`, then another `…Name`/`…Title`), else — a class with none, such as
    /// `CartItemModel` — the record's own identity (its `@Attribute(.unique)` String). Whatever is chosen must never
    /// be a reference to another record (a `…Id` named after another type than its class: `productId`, documented
    /// as "Domain: CartItem.productID") or a unit (a currency code).
    @Test func swiftDataEntitiesAreNamedByTheirNameLikeAttribute() async throws {
        let opened = try OpenedFixture("cartkit/swiftdata/CartKitSwiftData_v1.sqlite")
        let entities = try await BrowserService(store: opened.store).entities()
        let sources = Fixtures.url("cartkit/swiftdata/model-source")
        var expected: [String: String?] = [:]
        for entity in entities {
            let source = try String(contentsOf: sources.appendingPathComponent("\(entity.name).swift"), encoding: .utf8)
            let properties = ModelSourceProperty.strings(in: source)
            #expect(!properties.isEmpty, "\(entity.name).swift declares String properties")
            let stem = entity.name.hasSuffix("Model") ? String(entity.name.dropLast(5)).lowercased() : entity.name.lowercased()
            let exact = ["name", "title", "displayname", "fullname", "label", stem + "name", stem + "title"]
            let named = properties.filter { exact.contains($0.name.lowercased()) }
                .min { exact.firstIndex(of: $0.name.lowercased())! < exact.firstIndex(of: $1.name.lowercased())! }
                ?? properties.first { $0.name.hasSuffix("Name") || $0.name.hasSuffix("Title") }
            expected[entity.name] = (named ?? properties.first { $0.isUnique })?.name
            if let chosen = entity.summaryAttribute, let property = properties.first(where: { $0.name == chosen }) {
                #expect(!property.isReferenceToAnotherRecord(of: entity.name),
                        "\(entity.name).\(chosen) holds another record's ID: \(property.comment)")
                #expect(!property.isUnit, "\(entity.name).\(chosen) is a unit")
            }
        }
        let chosen = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.summaryAttribute) })
        #expect(chosen == expected)
        // What the derivation gives for this fixture, written out so a change in the sources or the rule shows.
        #expect(expected == ["CartModel": "displayName", "CartItemModifierModel": "name", "CartItemModel": "id"])
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
