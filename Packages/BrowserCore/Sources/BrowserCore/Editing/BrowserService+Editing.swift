public import Foundation

/// Writes: `POST /api/entities/:name`, `PATCH /api/object`, `GET /api/object/delete-preview` and
/// `DELETE /api/object`. Each is checked against the model (`RecordChangesValidation`) before the store sees it,
/// and answers the record as it is afterwards, read back from the store.
extension BrowserService {
    /// `POST /api/entities/:name`: a new record of a concrete entity.
    public func insert(into entityName: String, body: Data) async throws(BrowserError) -> ObjectDTO {
        let (schema, description) = try await writableStore()
        guard let entity = schema.entity(named: entityName) else { throw .notFound("No entity \"\(entityName)\"") }
        guard !entity.isAbstract else {
            throw .badRequest("\(entityName) is abstract: create a record of one of its sub-entities ("
                + schema.subtree(of: entityName).subtracting([entityName]).sorted().joined(separator: ", ") + ")")
        }
        let sent = try RecordWriteBody.decode(body)
        if sent.version != nil { throw .badRequest("A new record has no version: leave \"version\" out") }
        let changes = try await validation(for: entity, schema: schema, description: description).changes(from: sent, for: .insert)
        let id = try await call { try await store.insert(into: entityName, changes) }
        return try await object(id: id.uri)
    }

    /// `PATCH /api/object?id=`: sets the body's attributes and relationships, if the record's version is still
    /// the body's `version`.
    public func update(id rawID: String?, body: Data) async throws(BrowserError) -> ObjectDTO {
        let (schema, description) = try await writableStore()
        let (id, entity) = try Self.writableRecord(rawID, in: schema)
        let sent = try RecordWriteBody.decode(body)
        guard let version = sent.version else {
            throw .badRequest("Missing \"version\": send the record's version as GET /api/object gave it, so a change made since is never overwritten")
        }
        let changes = try await validation(for: entity, schema: schema, description: description).changes(from: sent, for: .update)
        guard !changes.isEmpty else { throw .badRequest("The body changes nothing: give \"attrs\" or \"relationships\"") }
        try await call { try await store.update(id, expecting: version, changes) }
        return try await object(id: id.uri)
    }

    /// `GET /api/object/delete-preview?id=`: what deleting the record would do, for the confirmation.
    public func deletionPreview(id rawID: String?) async throws(BrowserError) -> DeletionEffects {
        let (schema, _) = try await writableStore()
        let (id, _) = try Self.writableRecord(rawID, in: schema)
        return try await call { try await store.deletionEffects(of: id) }
    }

    /// `DELETE /api/object?id=&version=`.
    public func delete(id rawID: String?, version rawVersion: String?) async throws(BrowserError) -> DeletionEffects {
        let (schema, _) = try await writableStore()
        let (id, _) = try Self.writableRecord(rawID, in: schema)
        guard let rawVersion, let version = Int64(rawVersion) else {
            throw .badRequest(rawVersion == nil
                ? "Missing version: pass &version=<the record's version as GET /api/object gave it>"
                : "version must be a whole number, got \"\(rawVersion ?? "")\"")
        }
        return try await call { try await store.delete(id, expecting: version) }
    }

    /// The schema and description of a store that writes now, or a 403 saying why it does not.
    private func writableStore() async throws(BrowserError) -> (StoreSchema, StoreDescription) {
        let description = try await call { try await store.describe() }
        guard !readOnly else {
            throw .forbidden("The server is read-only: start it with writes on (browser-demo --writable; Options.readOnly = false)")
        }
        guard description.capabilities.contains(.write) else {
            throw .forbidden("This store cannot be written" + (description.writeRefusal.map { ": \($0)" } ?? ""))
        }
        return (try await call { try await store.schema() }, description)
    }

    private static func writableRecord(_ rawID: String?, in schema: StoreSchema) throws(BrowserError) -> (ObjectID, EntitySchema) {
        let id = try requiredID(rawID)
        guard let entity = schema.entity(named: id.entity), !entity.isAbstract else {
            throw .notFound("No record \(id.uri): the model has no entity \"\(id.entity)\"")
        }
        return (id, entity)
    }

    private func validation(for entity: EntitySchema, schema: StoreSchema, description: StoreDescription) async throws(BrowserError) -> RecordChangesValidation {
        RecordChangesValidation(entity: entity, schema: schema, model: try await call { try await store.model() },
                                storeIdentifier: description.storeIdentifier)
    }
}
