import BrowserCore
import BrowserMemory
import Foundation
import Testing

/// Long text in the in-memory store: a list page, its facets and a record's related items carry it cut
/// (`ValuePreview`), with its whole length; the detail has it whole, once; search and sort see it whole.
struct TextPreviewServiceTests {
    static let schema = StoreSchema(entities: [
        EntitySchema(name: "Note", attributes: [AttributeSchema(name: "title", type: .string), AttributeSchema(name: "rank", type: .integer32)],
                     relationships: [RelationshipSchema(name: "links", destination: "Note", isToMany: true)]),
    ])
    /// 99,995 bytes of words (readable text: an unbroken run of letters would look like an identifier, and records
    /// are not named after identifiers), a word only past every preview.
    static let long = String(repeating: "ab ", count: 33_330) + "omega"

    static let head = AttributeValue.truncatedText(prefix: String(long.prefix(ValuePreview.maximumBytes)), byteCount: long.utf8.count)
    static let longerHead = AttributeValue.truncatedText(prefix: String(long.prefix(ValuePreview.maximumBytes)),
                                                         byteCount: long.utf8.count + 1)

    func makeService() async throws -> (BrowserService, [ObjectID]) {
        let store = InMemoryStore(schema: Self.schema, storeIdentifier: "S")
        var ids: [ObjectID] = []
        for (index, body) in [Self.long, "short", Self.long + "z"].enumerated() {
            ids.append(try await store.insert("Note", ["title": .string(body), "rank": .integer(Int64(index))]))
        }
        try await store.relate(ids[1], "links", ids[0])
        return (BrowserService(store: store), ids)
    }

    @Test func aPageCarriesCutTextWithItsLengthAndTheDetailIsWhole() async throws {
        let (service, ids) = try await makeService()
        let page = try await service.records(of: "Note", parameters: .init())
        let bytes = try #require(page.valuePreviewBytes)
        #expect(bytes == ValuePreview.maximumBytes)
        #expect(page.rows.map { $0.attrs["title"] } == [Self.head, .string("short"), Self.longerHead])
        #expect(page.rows[0].summary == String(Self.long.prefix(RecordSummary.maximumBytes)) + "…")

        let detail = try await service.object(id: ids[0].uri)
        #expect(detail.attrs["title"] == .string(Self.long))
        let json = String(decoding: try BrowserJSON.encode(detail), as: UTF8.self)
        // The value once: the label is its start, not a second copy.
        #expect(json.utf8.count < Self.long.utf8.count + 2_000)

        let linked = try await service.object(id: ids[1].uri)
        #expect(linked.relationships.first?.items.map(\.summary) == [String(Self.long.prefix(RecordSummary.maximumBytes)) + "…"])
    }

    @Test func searchAndSortSeeWholeValues() async throws {
        let (service, ids) = try await makeService()
        let found = try await service.records(of: "Note", parameters: .init(search: "omegaz"))
        #expect(found.rows.map(\.id) == [ids[2].uri])
        let sorted = try await service.records(of: "Note", parameters: .init(sort: "title", order: "desc"))
        #expect(sorted.rows.map(\.id) == [ids[1].uri, ids[2].uri, ids[0].uri])
    }

    @Test func aPageOfManyRowsSharesItsBudget() async throws {
        let (service, _) = try await makeService()
        let page = try await service.records(of: "Note", parameters: .init(limit: "500"))
        #expect(page.valuePreviewBytes == ValuePreview.bytes(rows: 500, textAttributes: 1))
        guard case .truncatedText(let prefix, _)? = page.rows.first?.attrs["title"] else {
            Issue.record("the long body is not cut")
            return
        }
        #expect(prefix.utf8.count == ValuePreview.bytes(rows: 500, textAttributes: 1))
    }

    @Test func facetTopValuesAreCut() async throws {
        let (service, _) = try await makeService()
        let facets = try await service.facets(of: "Note", attribute: "title", top: nil, buckets: nil, parameters: .init())
        #expect(Set(facets.top.map(\.value)) == [.string("short"), Self.head, Self.longerHead])
        #expect(facets.distinct == 3)
    }
}
