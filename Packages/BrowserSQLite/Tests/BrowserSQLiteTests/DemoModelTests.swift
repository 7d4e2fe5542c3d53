import BrowserCore
import BrowserMemory
@testable import BrowserSQLite
import Foundation
import Testing

/// The iOS demo app's `Model.xcdatamodeld` and the Linux demo's `DemoLibrary.schema` describe the same model, so
/// the app and `browser-demo` show the same store. Read with the store-file reader's own XML model reader.
struct DemoModelTests {
    static let modelURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Apps/iOSDemo/Sources/Model.xcdatamodeld/Model.xcdatamodel/contents")

    @Test func iOSDemoModelIsTheDemoLibrarysSchema() throws {
        let model = try XMLModelReader.read(Array(try Data(contentsOf: Self.modelURL)))
        #expect(model.entities.map(\.name).sorted() == DemoLibrary.schema.entities.map(\.name).sorted())
        for expected in DemoLibrary.schema.entities {
            let lineage = model.lineage(of: expected.name)
            let entity = try #require(lineage.first, "\(expected.name) is missing from the iOS model")
            #expect(entity.parent == expected.parent, "\(expected.name)'s parent")
            // Every attribute and relationship, inherited ones included, as DemoLibrary lists them.
            let attributes = lineage.flatMap(\.attributes).map {
                AttributeSchema(name: $0.name, type: $0.type.attributeType, isOptional: $0.isOptional)
            }
            #expect(attributes.sorted { $0.name < $1.name } == expected.attributes.sorted { $0.name < $1.name },
                    "\(expected.name)'s attributes")
            let relationships = lineage.flatMap(\.relationships).map {
                RelationshipSchema(name: $0.name, destination: $0.destination, isToMany: $0.isToMany,
                                   isOrdered: $0.isOrdered, inverse: $0.inverse, deleteRule: $0.deleteRule)
            }
            #expect(relationships.sorted { $0.name < $1.name } == expected.relationships.sorted { $0.name < $1.name },
                    "\(expected.name)'s relationships")
        }
    }
}
