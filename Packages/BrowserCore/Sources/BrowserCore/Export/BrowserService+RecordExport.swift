import Foundation

/// `GET /api/entities/:name/export`: every record of a records view, as a file.
extension BrowserService {
    /// An export ready to send: its body, its download name, and its number of rows when that was cheap to know.
    public struct RecordExport: Sendable {
        public var stream: RecordExportStream
        public var filename: String
        /// Known up front without a filter (the entity's or the relationship's count); nil for a search, whose
        /// count would cost a second scan of the table.
        public var total: Int?
    }

    /// How many records the store hands an export at a time: large enough that per-batch costs vanish, small
    /// enough that a batch is a few hundred kilobytes of file.
    public static let exportBatchSize = 1_000

    /// The same parameters as `records(of:parameters:)` (`limit` and `offset` are ignored: an export holds every
    /// matching record) and the file's options.
    public func exportRecords(of entityName: String, parameters: RecordQueryParameters,
                              options: RecordExportOptions) async throws(BrowserError) -> RecordExport {
        let schema = try await call { try await store.schema() }
        var unpaged = parameters
        unpaged.limit = nil
        unpaged.offset = nil
        let query = try await validatedQuery(of: entityName, parameters: unpaged, in: schema)
        if let search = query.search?.text, try await recordsNamed(for: query, in: schema) != nil {
            throw .badRequest("The search \"\(search)\" names one record by its ID: export it with /api/object/export?id=…")
        }
        guard let entity = schema.entity(named: query.entity) else { throw .notFound("No entity named \"\(entityName)\"") }

        var total: Int?
        if query.matchFilter == nil {
            var first = query
            first.limit = 1
            total = query.scope == nil
                ? try await call { try await store.count(of: entity.name) }
                : try await call { [first] in try await store.page(first) }.total
        }
        let relationships = RecordExportStream.exportedRelationships(of: entity)
        let cursor = try await call {
            try await store.cursor(query, relationships: relationships, batchSize: Self.exportBatchSize)
        }
        let stream = RecordExportStream(service: self, cursor: cursor, entity: entity, schema: schema, options: options)
        return RecordExport(stream: stream, filename: Self.exportFilename(for: query, options: options),
                            total: total)
    }

    /// `Book.csv`; `Book-search-<text>.csv` for a search; `Author-p3-books.csv` for the records one record reaches.
    static func exportFilename(for query: RecordQuery, options: RecordExportOptions) -> String {
        var name = query.entity
        if let scope = query.scope {
            name = "\(scope.source.entity)-\(scope.source.shortForm)-\(scope.relationship)"
        }
        if let search = query.search?.text.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            // Letters, digits, '-' and '_' of the search (others become '_'), at most 40 of them.
            let safe = String(search.prefix(40).map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
            name += "-search-\(safe)"
        }
        return "\(name).\(options.fileExtension)"
    }
}
