#if canImport(CoreData)
import BrowserCore
import BrowserCoreData
import BrowserSQLite
import CoreData
import Testing

/// The same objects, saved by Core Data to an SQLite file, read through the live adapter and through the
/// store-file reader: every answer of the API must be byte-for-byte the same JSON.
@Suite struct ParityTests {
    private func json(_ value: some Encodable) throws -> String {
        String(decoding: try BrowserJSON.encode(value), as: UTF8.self)
    }

    @Test func liveContextAndStoreFileGiveTheSameJSON() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("BrowserCoreDataParity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stack = try TestStack(storeURL: folder.appendingPathComponent("Library.sqlite"))
        try await stack.seed { TestLibrary.insert(into: $0) }

        let live = BrowserService(store: ManagedContextStore(context: stack.container.viewContext))
        // The reader takes the model Core Data cached in the file: the same model, found independently.
        let file = BrowserService(store: try SQLiteStore.open(storeAt: folder.appendingPathComponent("Library.sqlite")))

        #expect(try json(await live.entities()) == json(await file.entities()))

        let queries: [RecordQueryParameters] = [
            .init(), .init(limit: "3", offset: "2"), .init(sort: "title"), .init(sort: "title", order: "desc"),
            .init(sort: "price", order: "desc"), .init(sort: "publishedAt"), .init(search: "cafe"),
            .init(search: "GERM", searchAttribute: "title"), .init(sort: "wordCount", limit: "4"),
        ]
        for entity in ["Author", "Book", "AudioBook", "Tag"] {
            for query in queries where entity == "Book" || (query.sort == nil && query.searchAttribute == nil) {
                let livePage = try await live.records(of: entity, parameters: query)
                let filePage = try await file.records(of: entity, parameters: query)
                #expect(try json(livePage) == json(filePage), "\(entity) \(query)")
            }
            for row in try await live.records(of: entity, parameters: .init()).rows {
                #expect(try json(await live.object(id: row.id)) == json(await file.object(id: row.id)), "\(row.id)")
            }
        }
    }
}

#endif
