import Foundation

/// Answers the JSON API from any `BrowserStore`: validates requests against the store's schema, calls the
/// store, and shapes DTOs. It knows nothing of HTTP; every failure is a `BrowserError` carrying its status.
public struct BrowserService: Sendable {
    public let store: any BrowserStore
    /// The host's choice (`Options.readOnly`). Writes need it off *and* a store with the `write` capability.
    public let readOnly: Bool
    /// Seconds a facet counts before answering with what it has, marked cut (`FacetRequest.deadline`): the host's
    /// `Options.facetTimeBudget`. Nil: only the request's own budget limits it (a share of it, still).
    public let facetTimeBudget: Double?

    /// How many related records `/api/object` lists per relationship (the rest are paged with
    /// `/api/object/related`).
    public static let relationshipPreviewLimit = 20
    /// How many related records one store call reads when an export includes them all.
    static let relatedExportBatch = RecordQuery.maximumLimit

    private let displayAttributes = DisplayAttributes()

    public init(store: any BrowserStore, readOnly: Bool = true, facetTimeBudget: Double? = FacetRequest.defaultTimeBudget) {
        self.store = store
        self.readOnly = readOnly
        self.facetTimeBudget = facetTimeBudget
    }

    public func health() async throws(BrowserError) -> HealthDTO {
        let description = try await call { try await store.describe() }
        var capabilities = description.capabilities
        if readOnly { capabilities.remove(.write) }
        return HealthDTO(
            ok: true, store: description.summary, readOnly: !capabilities.contains(.write),
            capabilities: capabilities.names, model: description.model,
            writeRefusal: readOnly || capabilities.contains(.write) ? nil : description.writeRefusal
        )
    }

    public func entities() async throws(BrowserError) -> [EntityDTO] {
        let schema = try await call { try await store.schema() }
        var result: [EntityDTO] = []
        for entity in schema.browsableEntities {
            let count = try await call { try await store.count(of: entity.name) }
            result.append(EntityDTO(
                name: entity.name,
                parent: entity.parent,
                isAbstract: entity.isAbstract,
                count: count,
                summaryAttribute: try await displayAttribute(of: entity),
                attributes: entity.attributes.sorted { $0.name < $1.name }.map(AttributeDTO.init),
                relationships: entity.relationships.sorted { $0.name < $1.name }.map(RelationshipDTO.init)
            ))
        }
        return result
    }

    public func records(of entityName: String, parameters: RecordQueryParameters) async throws(BrowserError) -> RecordsPageDTO {
        let schema = try await call { try await store.schema() }
        let query = try await listQuery(of: entityName, parameters: parameters, in: schema)
        if let ids = try await recordsNamed(for: query, in: schema) {
            return try await recordWithID(ids, query: query, schema: schema)
        }
        let page = try await call { try await store.page(query) }
        var rows = try await rows(page.records, schema: schema, previewBytes: query.valuePreviewBytes)
        try await addCounts(to: &rows, of: page.records, sortedBy: query)
        return RecordsPageDTO(total: page.total, offset: query.offset, limit: query.limit, rows: rows,
                              valuePreviewBytes: query.valuePreviewBytes)
    }

    /// The query of a page of a list: `validatedQuery` with the page's preview length (`ValuePreview.bytes`: the
    /// page budget shared among its rows and the text attributes of the entity and its sub-entities).
    func listQuery(of entityName: String, parameters: RecordQueryParameters, in schema: StoreSchema) async throws(BrowserError) -> RecordQuery {
        var query = try await validatedQuery(of: entityName, parameters: parameters, in: schema)
        query.valuePreviewBytes = ValuePreview.bytes(rows: query.limit, textAttributes: Self.textAttributeCount(of: entityName, in: schema))
        return query
    }

    /// The different String and URI attribute names of an entity and its sub-entities: the text a row may hold.
    static func textAttributeCount(of entityName: String, in schema: StoreSchema) -> Int {
        var names: Set<String> = []
        for name in schema.subtree(of: entityName) {
            for attribute in schema.entity(named: name)?.attributes ?? [] where attribute.type == .string || attribute.type == .uri {
                names.insert(attribute.name)
            }
        }
        return names.count
    }

    /// The counts a page sorted by relationship counts is ordered by, per row (`RowDTO.counts`): one `related`
    /// count per row and count key, so at most `RecordQuery.maximumLimit` × `RecordQuery.maximumSortKeys` small
    /// reads. Asked of the store apart from the page's own sort, they show the order it gave.
    private func addCounts(to rows: inout [RowDTO], of records: [StoredRecord], sortedBy query: RecordQuery) async throws(BrowserError) {
        let counted = query.sortKeys.filter(\.countsRelationship).map(\.attribute)
        guard !counted.isEmpty else { return }
        for (index, record) in records.enumerated() {
            var counts: [String: Int] = [:]
            for name in counted {
                counts[name] = try await call { try await store.related(from: record.id, through: name, limit: 0) }.total
            }
            rows[index].counts = counts
        }
    }

    /// `GET /api/entities/:name/explain`: how the store answers the page the parameters describe.
    public func explain(of entityName: String, parameters: RecordQueryParameters) async throws(BrowserError) -> QueryExplanationDTO {
        let schema = try await call { try await store.schema() }
        let query = try await listQuery(of: entityName, parameters: parameters, in: schema)
        if let search = query.search?.text, let ids = try await recordsNamed(for: query, in: schema) {
            let page = try await recordWithID(ids, query: query, schema: schema)
            return QueryExplanationDTO(
                engine: try await call { try await store.describe() }.summary,
                steps: ["The search names a record by its ID (\(search.trimmingCharacters(in: .whitespaces))): the list is "
                    + "that record when it is one of the list's, read by its key, not a text search."],
                total: page.total, milliseconds: 0)
        }
        return try await call { try await store.explain(query) }
    }

    /// `GET /api/object/related`: the records `id` reaches through `rel`, as a page of the destination entity.
    public func related(id rawID: String?, relationship: String?, parameters: RecordQueryParameters) async throws(BrowserError) -> RecordsPageDTO {
        let schema = try await call { try await store.schema() }
        let source = try Self.requiredID(rawID)
        guard let entity = schema.entity(named: source.entity),
              let destination = relationship.flatMap(entity.relationship(named:))?.destination else {
            // Let the scope's validation say precisely what is wrong.
            _ = try RelationshipScope.validated(source: source.uri, relationship: relationship, listing: "", in: schema)
            throw .notFound("No record \(source.uri)")
        }
        var scoped = parameters
        scoped.relatedTo = source.uri
        scoped.via = relationship
        return try await records(of: destination, parameters: scoped)
    }

    /// `GET /api/entities/:name/position`: the offset of record `id` in the list the parameters describe.
    public func position(of entityName: String, id rawID: String?, parameters: RecordQueryParameters) async throws(BrowserError) -> PositionDTO {
        let id = try Self.requiredID(rawID)
        let schema = try await call { try await store.schema() }
        let query = try await validatedQuery(of: entityName, parameters: parameters, in: schema)
        guard let offset = try await call({ try await store.position(of: id, in: query) }) else {
            throw .notFound("\(id.entity) \(id.shortForm) is not in this list of \(entityName)")
        }
        return PositionDTO(id: id.uri, offset: offset, pageOffset: offset - offset % query.limit, limit: query.limit)
    }

    /// `id` is the raw query parameter (nil when absent). `allRelated` includes every related record, not only
    /// the first `relationshipPreviewLimit` of each relationship (an export that asked for them all).
    public func object(id rawID: String?, allRelated: Bool = false) async throws(BrowserError) -> ObjectDTO {
        let id = try Self.requiredID(rawID)
        let schema = try await call { try await store.schema() }
        guard let entity = schema.entity(named: id.entity), !entity.isAbstract else {
            throw .notFound("No record \(id.uri): the model has no entity \"\(id.entity)\"")
        }
        let names = entity.relationships.map(\.name)
        guard let detail = try await call({ try await store.detail(of: id, relationships: names, limit: Self.relationshipPreviewLimit) })
        else {
            throw .notFound("No record \(id.uri)")
        }
        let record = detail.record
        var relationships: [RelationshipItemsDTO] = []
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
            var related = detail.related[relationship.name] ?? RelatedRecords(total: 0, records: [])
            if allRelated, related.records.count < related.total {
                related.records = try await everyRelated(from: id, through: relationship, in: schema)
            }
            relationships.append(RelationshipItemsDTO(
                name: relationship.name,
                destination: relationship.destination,
                toMany: relationship.isToMany,
                ordered: relationship.isOrdered,
                count: related.total,
                items: try await references(related.records, schema: schema)
            ))
        }
        return ObjectDTO(
            id: id.uri, entity: id.entity,
            summary: RecordSummary.make(for: record, attribute: try await displayAttribute(of: entity)),
            attrs: Self.attributeValues(of: record, entity: entity),
            relationships: relationships,
            // Only where it can be sent back: a read-only server shows none.
            version: readOnly ? nil : record.version
        )
    }

    /// The bytes of a Binary or Transformable attribute of a record, ready to serve. `id` and `attribute` are the
    /// raw query parameters (nil when absent). The value's head is inspected for its file name's extension and,
    /// for a raster image whose header parsed, its own content type (`ContentReport.mimeType`).
    public func blob(id rawID: String?, attribute rawAttribute: String?) async throws(BrowserError) -> ServedBlob {
        let (id, attribute, reader) = try await blobReader(id: rawID, attribute: rawAttribute)
        let head = try await call { try await reader.read(0..<min(reader.size, Self.blobHeadSize)) }
        let report = ContentInspector.inspect(head, totalSize: reader.size, transformerName: attribute.valueTransformerName)
        return ServedBlob(reader: reader, mimeType: report.mimeType,
                          filename: Self.blobFilename(id: id, attribute: attribute.name, fileExtension: report.kind.fileExtension))
    }

    /// What a Binary or Transformable value holds (`GET /api/object/content`): the whole value up to
    /// `contentInspectionLimit` is inspected, the head of a larger one (the report says how much).
    public func content(id rawID: String?, attribute rawAttribute: String?) async throws(BrowserError) -> BlobContentDTO {
        let (_, attribute, reader) = try await blobReader(id: rawID, attribute: rawAttribute)
        let bytes = try await call { try await reader.read(0..<min(reader.size, Self.contentInspectionLimit)) }
        let report = ContentInspector.inspect(bytes, totalSize: reader.size, transformerName: attribute.valueTransformerName,
                                              limits: Self.contentLimits)
        return BlobContentDTO(report: report, storage: reader.storage,
                              transformer: attribute.type == .transformable ? attribute.valueTransformerName : nil)
    }

    /// The bytes read to name a served value: enough for every image header the inspector reads (a JPEG's frame
    /// header follows at most 64 KiB of EXIF data), and no more: every Range page of a hex view pays for it.
    static let blobHeadSize = 72 * 1024
    /// What `content` shows of a value: a tree of at most 2,000 nodes (a person reads a tree by expanding it; a
    /// larger one only costs encoding time, and the answer says where it was cut).
    static let contentLimits = ContentLimits(maxTreeNodes: 2_000)
    /// The most of a value `content` reads and inspects: memory for one request, bounded.
    public static let contentInspectionLimit = 32 * 1024 * 1024

    /// The record's ID, the attribute, and a reader of its bytes; every refusal is a `BrowserError`.
    private func blobReader(id rawID: String?, attribute rawAttribute: String?) async throws(BrowserError)
        -> (ObjectID, AttributeSchema, any BlobReader) {
        let id = try Self.requiredID(rawID)
        let attribute = try await bytesAttribute(rawAttribute, of: id)
        switch try await call({ try await store.blob(of: id, attribute: attribute.name) }) {
        case .noRecord:
            throw .notFound("No record \(id.uri)")
        case .noValue:
            throw .notFound("\(id.entity) \(id.shortForm) has no value for \(attribute.name) (it is nil)")
        case .value(let reader):
            return (id, attribute, reader)
        }
    }

    /// The attribute named `rawAttribute` of the record's entity, which must hold bytes.
    private func bytesAttribute(_ rawAttribute: String?, of id: ObjectID) async throws(BrowserError) -> AttributeSchema {
        guard let name = rawAttribute, !name.isEmpty else {
            throw .badRequest("Missing attr: pass &attr=<attribute name> (a Binary or Transformable attribute)")
        }
        let schema = try await call { try await store.schema() }
        guard let entity = schema.entity(named: id.entity) else {
            throw .notFound("No record \(id.uri): the model has no entity \"\(id.entity)\"")
        }
        guard let attribute = entity.attribute(named: name) else {
            throw .notFound("\(id.entity) has no attribute \"\(name)\"")
        }
        guard attribute.type.holdsBytes else {
            throw .badRequest("\(id.entity).\(name) is a \(attribute.type.rawValue) attribute; only Binary and "
                + "Transformable attributes have bytes to fetch")
        }
        return attribute
    }

    /// The download name of a blob: `<Entity>-p<primary key>-<attribute>.<extension>`.
    public static func blobFilename(id: ObjectID, attribute: String, fileExtension: String) -> String {
        "\(id.entity)-\(id.shortForm)-\(attribute).\(fileExtension)"
    }

    /// The export of a record with every related record, produced piece by piece (`related=all`).
    public func exportStream(id rawID: String?) async throws(BrowserError) -> (ObjectExportStream, filename: String) {
        let object = try await object(id: rawID)
        let id = try Self.requiredID(rawID)
        let schema = try await call { try await store.schema() }
        let stream = try await call { () throws -> ObjectExportStream in
            try ObjectExportStream(service: self, id: id, object: object, schema: schema)
        }
        return (stream, Self.exportFilename(for: object))
    }

    /// One page of the records `id` reaches through `relationship`, as references, in the order an export lists
    /// them (the relationship's order when it has one, else primary keys).
    func relatedReferences(of id: ObjectID, through relationship: String, offset: Int, limit: Int,
                           schema: StoreSchema) async throws(BrowserError) -> [ObjectReferenceDTO] {
        guard let definition = schema.entity(named: id.entity)?.relationship(named: relationship) else {
            throw .notFound("\(id.entity) has no relationship \"\(relationship)\"")
        }
        var query = RecordQuery(entity: definition.destination, limit: limit, offset: offset)
        query.scope = RelationshipScope(source: id, relationship: relationship, isOrdered: definition.isOrdered)
        let page = try await call { [query] in try await store.page(query) }
        return try await references(page.records, schema: schema)
    }

    /// The download name of an export: `<Entity>-p<primary key>.json`.
    public static func exportFilename(for object: ObjectDTO) -> String {
        let short = (try? ObjectID(uri: object.id))?.shortForm ?? "object"
        return "\(object.entity)-\(short).json"
    }

    /// An entity whose records can be listed. Abstract entities can: Core Data fetches them as the records of
    /// their sub-entities, and each row says its concrete entity.
    static func browsableEntity(_ name: String, in schema: StoreSchema) throws(BrowserError) -> EntitySchema {
        guard let entity = schema.entity(named: name) else {
            throw .notFound("No entity named \"\(name)\"")
        }
        return entity
    }

    /// The query for a list of `entityName`: the parameters validated against the entity, and `relatedTo`/`via`
    /// against the model and the store (the source record must exist).
    func validatedQuery(of entityName: String, parameters: RecordQueryParameters,
                                in schema: StoreSchema) async throws(BrowserError) -> RecordQuery {
        let entity = try Self.browsableEntity(entityName, in: schema)
        var query = try RecordQuery.validated(parameters, for: entity, in: schema)
        if let problem = try await foreignObject(in: query.filter) { throw .badRequest(problem.message) }
        if let source = parameters.relatedTo {
            let scope = try RelationshipScope.validated(source: source, relationship: parameters.via,
                                                        listing: entity.name, in: schema)
            guard try await call({ try await store.record(scope.source) }) != nil else {
                throw .notFound("No record \(scope.source.uri)")
            }
            query.scope = scope
        } else if let via = parameters.via, !via.isEmpty {
            throw .badRequest("via=\(via) needs relatedTo=<the record's id>")
        }
        return query
    }

    /// The record a search names by ID — its `x-coredata:` URI, or `p<primary key>` — when it is of the list's
    /// entity (or below it) and of this store; nil when the search is not an ID (it is then searched as text).
    static func objectIDSearch(_ search: String?, for query: RecordQuery, in schema: StoreSchema,
                               storeIdentifier: String?) throws(BrowserError) -> [ObjectID]? {
        guard let text = search?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let subtree = schema.subtree(of: query.entity)
        if text.hasPrefix(ObjectID.scheme + "://") {
            guard let id = try? ObjectID(uri: text) else { return nil }
            return subtree.contains(id.entity) && (storeIdentifier == nil || id.storeIdentifier == storeIdentifier) ? [id] : []
        }
        guard text.count > 1, text.first == "p", let key = Int64(text.dropFirst()), key > 0,
              text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), let storeIdentifier
        else { return nil }
        // Primary keys are numbered per table, so at most one concrete entity of the subtree has this one.
        return subtree.sorted().compactMap { name in
            schema.entity(named: name).flatMap { $0.isAbstract ? nil : ObjectID(storeIdentifier: storeIdentifier, entity: name, primaryKey: key) }
        }
    }

    /// The records a list's search names by ID (see `objectIDSearch`), or nil when the search is text: the one
    /// place records, explain and export tell an ID search from a text search.
    func recordsNamed(for query: RecordQuery, in schema: StoreSchema) async throws(BrowserError) -> [ObjectID]? {
        guard let search = query.search?.text, Self.mayNameARecord(search) else { return nil }
        return try Self.objectIDSearch(search, for: query, in: schema, storeIdentifier: await storeIdentifier())
    }

    /// Cheap test before asking the store for its identifier: only `x-coredata:` URIs and `p<digits>` can.
    static func mayNameARecord(_ search: String) -> Bool {
        let text = search.trimmingCharacters(in: .whitespaces)
        return text.hasPrefix(ObjectID.scheme + "://") || (text.first == "p" && text.count > 1 && text.dropFirst().allSatisfy(\.isNumber))
    }

    /// A list searched by ID: the record, if it is one of the query's (scope and `where` included), else nothing.
    private func recordWithID(_ candidates: [ObjectID], query: RecordQuery, schema: StoreSchema) async throws(BrowserError) -> RecordsPageDTO {
        var unsearched = query
        unsearched.search = nil
        for id in candidates {
            guard try await call({ try await store.position(of: id, in: unsearched) }) != nil,
                  let record = try await call({ try await store.record(id) }) else { continue }
            let rows = query.offset == 0 ? try await rows([record], schema: schema, previewBytes: query.valuePreviewBytes) : []
            return RecordsPageDTO(total: 1, offset: query.offset, limit: query.limit, rows: rows,
                                  valuePreviewBytes: query.valuePreviewBytes)
        }
        return RecordsPageDTO(total: 0, offset: query.offset, limit: query.limit, rows: [], valuePreviewBytes: query.valuePreviewBytes)
    }

    /// A record ID of another store in the filter (see `RecordFilter.foreignObject`); the store is asked for its
    /// identifier only when the filter names a record.
    func foreignObject(in filter: RecordFilter?) async throws(BrowserError) -> FilterProblem? {
        guard let filter, filter.namesRecords, let identifier = try await storeIdentifier() else { return nil }
        return filter.foreignObject(storeIdentifier: identifier)
    }

    /// The store's UUID as the adapter describes it.
    private func storeIdentifier() async throws(BrowserError) -> String? {
        try await call { try await store.describe() }.storeIdentifier
    }

    static func requiredID(_ rawID: String?) throws(BrowserError) -> ObjectID {
        guard let rawID, !rawID.isEmpty else {
            throw .badRequest("Missing id: pass ?id=<x-coredata URI> (URL-encoded)")
        }
        return try ObjectID(uri: rawID)
    }

    /// The display attribute of the entity, chosen on first use from a sample of its records.
    func displayAttribute(of entity: EntitySchema) async throws(BrowserError) -> String? {
        if let known = await displayAttributes.known(entity.name) { return known }
        var sample: [StoredRecord] = []
        if entity.attributes.contains(where: { $0.type == .string }) {
            var query = RecordQuery(entity: entity.name, limit: DisplayAttributeChoice.sampleSize)
            // The sample judges how values look (present, distinct, short): their starts are enough.
            query.valuePreviewBytes = ValuePreview.summaryBytes
            sample = try await call { try await store.page(query) }.records
        }
        return await displayAttributes.remember(DisplayAttributeChoice.choose(for: entity, sample: sample), for: entity.name)
    }

    func summary(of record: StoredRecord, schema: StoreSchema) async throws(BrowserError) -> String {
        guard let entity = schema.entity(named: record.entity) else { return RecordSummary.make(for: record, attribute: nil) }
        return RecordSummary.make(for: record, attribute: try await displayAttribute(of: entity))
    }

    /// The rows of a page, every text value cut to `previewBytes` (`ValuePreview.cut`): a store that cut them
    /// as it read them hands over nothing longer; one that could not (a live context) is cut here, so no adapter
    /// can make a page carry whole values.
    private func rows(_ records: [StoredRecord], schema: StoreSchema, previewBytes: Int?) async throws(BrowserError) -> [RowDTO] {
        var rows: [RowDTO] = []
        rows.reserveCapacity(records.count)
        for record in records {
            var values = Self.attributeValues(of: record, entity: schema.entity(named: record.entity))
            if let previewBytes { values = ValuePreview.cut(values, toBytes: previewBytes) }
            rows.append(RowDTO(id: record.id.uri, entity: record.entity,
                               summary: try await summary(of: record, schema: schema), attrs: values))
        }
        return rows
    }

    private func references(_ records: [StoredRecord], schema: StoreSchema) async throws(BrowserError) -> [ObjectReferenceDTO] {
        var references: [ObjectReferenceDTO] = []
        references.reserveCapacity(records.count)
        for record in records {
            references.append(ObjectReferenceDTO(id: record.id.uri, entity: record.entity,
                                                 summary: try await summary(of: record, schema: schema)))
        }
        return references
    }

    /// Every record reached through a relationship, read in pages in the relationship's order.
    private func everyRelated(from id: ObjectID, through relationship: RelationshipSchema,
                              in schema: StoreSchema) async throws(BrowserError) -> [StoredRecord] {
        var query = RecordQuery(entity: relationship.destination, limit: Self.relatedExportBatch)
        query.scope = RelationshipScope(source: id, relationship: relationship.name, isOrdered: relationship.isOrdered)
        var records: [StoredRecord] = []
        while true {
            let page = try await call { [query] in try await store.page(query) }
            records += page.records
            guard page.records.count == query.limit else { return records }
            query.offset += query.limit
        }
    }

    /// Every attribute of the entity, null where the store gave no value, so a row always has the same keys.
    static func attributeValues(of record: StoredRecord, entity: EntitySchema?) -> [String: AttributeValue] {
        guard let entity else { return record.values }
        var values: [String: AttributeValue] = [:]
        for attribute in entity.attributes {
            values[attribute.name] = record.values[attribute.name] ?? .null
        }
        return values
    }

    /// Runs a store call, turning whatever it throws into a `BrowserError` (500 unless the store chose a status).
    func call<T>(_ body: () async throws -> T) async throws(BrowserError) -> T {
        do {
            return try await body()
        } catch {
            throw BrowserError.wrapping(error)
        }
    }
}
