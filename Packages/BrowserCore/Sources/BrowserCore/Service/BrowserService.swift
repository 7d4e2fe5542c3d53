/// Answers the JSON API from any `BrowserStore`: validates requests against the store's schema, calls the
/// store, and shapes DTOs. It knows nothing of HTTP; every failure is a `BrowserError` carrying its status.
public struct BrowserService: Sendable {
    public let store: any BrowserStore
    /// The host's choice (`Options.readOnly`). Writes need it off *and* a store with the `write` capability.
    public let readOnly: Bool

    /// How many related records `/api/object` lists per relationship.
    public static let relationshipPreviewLimit = 20

    public init(store: any BrowserStore, readOnly: Bool = true) {
        self.store = store
        self.readOnly = readOnly
    }

    public func health() async throws(BrowserError) -> HealthDTO {
        let description = try await call { try await store.describe() }
        var capabilities = description.capabilities
        if readOnly { capabilities.remove(.write) }
        return HealthDTO(
            ok: true, store: description.summary, readOnly: !capabilities.contains(.write),
            capabilities: capabilities.names, model: description.model
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
                count: count,
                attributes: entity.attributes.sorted { $0.name < $1.name }.map(AttributeDTO.init),
                relationships: entity.relationships.sorted { $0.name < $1.name }.map(RelationshipDTO.init)
            ))
        }
        return result
    }

    public func records(of entityName: String, parameters: RecordQueryParameters) async throws(BrowserError) -> RecordsPageDTO {
        let schema = try await call { try await store.schema() }
        let entity = try Self.browsableEntity(entityName, in: schema)
        let query = try RecordQuery.validated(parameters, for: entity)
        let page = try await call { try await store.page(query) }
        return RecordsPageDTO(
            total: page.total,
            offset: query.offset,
            limit: query.limit,
            rows: page.records.map { record in
                RowDTO(
                    id: record.id.uri, entity: record.entity,
                    summary: RecordSummary.make(for: record, entity: schema.entity(named: record.entity)),
                    attrs: Self.attributeValues(of: record, entity: schema.entity(named: record.entity))
                )
            }
        )
    }

    /// `id` is the raw query parameter (nil when absent).
    public func object(id rawID: String?) async throws(BrowserError) -> ObjectDTO {
        guard let rawID, !rawID.isEmpty else {
            throw .badRequest("Missing id: pass ?id=<x-coredata URI> (URL-encoded)")
        }
        let id = try ObjectID(uri: rawID)
        let schema = try await call { try await store.schema() }
        guard let entity = schema.entity(named: id.entity), !entity.isAbstract else {
            throw .notFound("No record \(rawID): the model has no entity \"\(id.entity)\"")
        }
        guard let record = try await call({ try await store.record(id) }) else {
            throw .notFound("No record \(rawID)")
        }
        var relationships: [RelationshipItemsDTO] = []
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
            let related = try await call {
                try await store.related(from: id, through: relationship.name, limit: Self.relationshipPreviewLimit)
            }
            relationships.append(RelationshipItemsDTO(
                name: relationship.name,
                destination: relationship.destination,
                toMany: relationship.isToMany,
                ordered: relationship.isOrdered,
                count: related.total,
                items: related.records.map {
                    ObjectReferenceDTO(id: $0.id.uri, entity: $0.entity,
                                       summary: RecordSummary.make(for: $0, entity: schema.entity(named: $0.entity)))
                }
            ))
        }
        return ObjectDTO(
            id: id.uri, entity: id.entity,
            summary: RecordSummary.make(for: record, entity: entity),
            attrs: Self.attributeValues(of: record, entity: entity),
            relationships: relationships
        )
    }

    /// The download name of an export: `<Entity>-p<primary key>.json`.
    public static func exportFilename(for object: ObjectDTO) -> String {
        let short = (try? ObjectID(uri: object.id))?.shortForm ?? "object"
        return "\(object.entity)-\(short).json"
    }

    static func browsableEntity(_ name: String, in schema: StoreSchema) throws(BrowserError) -> EntitySchema {
        guard let entity = schema.entity(named: name) else {
            throw .notFound("No entity named \"\(name)\"")
        }
        guard !entity.isAbstract else {
            throw .notFound("\"\(name)\" is an abstract entity; browse one of its sub-entities")
        }
        return entity
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
    private func call<T>(_ body: () async throws -> T) async throws(BrowserError) -> T {
        do {
            return try await body()
        } catch {
            throw BrowserError.wrapping(error)
        }
    }
}
