public import Foundation

/// A record's export with every related record (`/api/object/export?related=all`), produced piece by piece so an
/// author with 100,000 books is never held in memory as one document.
///
/// The bytes are exactly those of `BrowserJSON.encode` of the `ObjectDTO` with all items (a test compares them):
/// each fixed part is cut out of the encoding of the DTO with empty item lists, which sorted keys make stable,
/// and the items are encoded a page at a time between them.
public actor ObjectExportStream {
    private enum Phase {
        case head
        /// The opening of relationship `index` (or, past the last, the document's end).
        case relationship(index: Int)
        /// Items of relationship `index` from `offset`.
        case items(index: Int, offset: Int)
        case done
    }

    private let service: BrowserService
    private let id: ObjectID
    private let schema: StoreSchema
    /// The relationships with empty item lists and `included` = `count`: what the finished export says.
    private let relationships: [RelationshipItemsDTO]
    private let head: Data
    private let tail: Data
    private var phase = Phase.head

    /// `object` is the record as `/api/object` shows it; its relationships' counts say how many items follow.
    init(service: BrowserService, id: ObjectID, object: ObjectDTO, schema: StoreSchema) throws {
        self.service = service
        self.id = id
        self.schema = schema
        var shell = object
        shell.relationships = []
        (head, tail) = try Self.split(BrowserJSON.encode(shell), at: "relationships")
        relationships = object.relationships.map { relationship in
            var all = relationship
            all.items = []
            all.included = relationship.count
            return all
        }
    }

    /// The next piece of the document, or nil when it is complete.
    public func nextChunk() async throws -> Data? {
        switch phase {
        case .head:
            phase = .relationship(index: 0)
            return head
        case .relationship(let index):
            guard index < relationships.count else {
                phase = .done
                return tail
            }
            phase = .items(index: index, offset: 0)
            let opening = try Self.split(BrowserJSON.encode(relationships[index]), at: "items").opening
            return index == 0 ? opening : Data(",".utf8) + opening
        case .items(let index, let offset):
            let relationship = relationships[index]
            let references = offset < relationship.count
                ? try await service.relatedReferences(
                    of: id, through: relationship.name, offset: offset, limit: BrowserService.relatedExportBatch, schema: schema)
                : []
            guard !references.isEmpty else {
                // All of them, or fewer than counted (the store changed meanwhile): close the list.
                phase = .relationship(index: index + 1)
                return try Self.split(BrowserJSON.encode(relationship), at: "items").closing
            }
            phase = .items(index: index, offset: offset + references.count)
            var items = try BrowserJSON.encode(references)
            items.removeFirst()  // "["
            items.removeLast()  // "]"
            return offset == 0 ? items : Data(",".utf8) + items
        case .done:
            return nil
        }
    }

    /// An encoding whose array under `key` is empty, cut around that array: everything up to and including its
    /// `[`, and everything from its `]`.
    private static func split(_ data: Data, at key: String) throws -> (opening: Data, closing: Data) {
        let marker = Data("\"\(key)\":[]".utf8)
        guard let range = data.range(of: marker) else {
            throw BrowserError.storeFailure("Could not build the export: no empty \(key) list in its encoding")
        }
        let opening = Data(data[data.startIndex..<range.upperBound].dropLast())  // drop the "]"
        let closing = Data(data[(range.upperBound - 1)...])  // from the "]"
        return (opening, closing)
    }
}
