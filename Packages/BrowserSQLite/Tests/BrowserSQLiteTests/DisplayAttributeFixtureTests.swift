import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// The display attribute chosen for real stores (`DisplayAttributeChoice` through `BrowserService`).
@Suite(.enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct DisplayAttributeFixtureTests {
    /// The SwiftData store's `@Model` sources, shipped with the fixture: each expected attribute must be a stored
    /// `String` property of its class there, and its name-like one.
    @Test func swiftDataEntitiesAreNamedByTheirNameLikeAttribute() async throws {
        let opened = try OpenedFixture("cartkit/swiftdata/CartKitSwiftData_v1.sqlite")
        let chosen = try await BrowserService(store: opened.store).entities()
            .reduce(into: [String: String?]()) { $0[$1.name] = $1.summaryAttribute }
        let expected: [String: String] = [
            "CartModel": "displayName", "CartItemModifierModel": "name",
            // No name or title: the product's identifier says which product the line is.
            "CartItemModel": "productId",
        ]
        #expect(chosen == expected.mapValues { $0 })
        let sources = Fixtures.url("cartkit/swiftdata/model-source")
        for (entity, attribute) in expected {
            let source = try String(contentsOf: sources.appendingPathComponent("\(entity).swift"), encoding: .utf8)
            #expect(source.contains("var \(attribute): String"), "\(entity).\(attribute) is a String in the model source")
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
