import Dispatch

/// The contract every store adapter implements: the in-memory store, the SQLite store-file reader and the live
/// Core Data context adapter.
///
/// BrowserCore validates every request before calling a store: entity and attribute names come from the
/// store's own `schema()`, limits are in range. A store returns `nil` (not an error) for a record it does not
/// have, throws `BrowserError` for conditions a client caused, and may throw anything else for its own failures
/// (reported as 500).
///
/// Semantics every adapter shares, so the same data gives the same answers:
/// - A fetch of an entity includes its sub-entities' records, and counts them.
/// - Records without `sort` come in primary-key order; with it, by the attribute then the primary key, both in
///   the query's order. Nulls sort before every value in ascending order; strings sort by their UTF-8 bytes
///   (SQLite's BINARY collation, which Core Data's SQLite store uses).
/// - `RecordFilter` means what its documentation says (two-valued logic, `TextFolding` for `[c]`/`[d]`).
/// - IDs are `ObjectID`s whose `storeIdentifier` is the store's UUID; an ID of another store is not found.
public protocol BrowserStore: Sendable {
    func describe() async throws -> StoreDescription

    /// The model, abstract entities included.
    func schema() async throws -> StoreSchema

    /// The number of records of the entity, sub-entities included.
    func count(of entity: String) async throws -> Int

    /// One page of records and the total number of matches; with `query.valuePreviewBytes`, text values longer
    /// than that may come cut (`ValuePreview.cut`), and a store that can cut them as it reads does. With `query.scope`, only the records the scope's
    /// source reaches through its relationship (in the relationship's order when it is ordered and the query
    /// has no sort; a source record the store does not have reaches none).
    func page(_ query: RecordQuery) async throws -> RecordPage

    /// Where the record sits among the query's records in the query's order (its offset, so a client can open
    /// the page that holds it), or nil when it is not one of them. `query.offset` and `query.limit` are ignored.
    func position(of id: ObjectID, in query: RecordQuery) async throws -> Int?

    /// The record with this ID, or nil when the store has none.
    func record(_ id: ObjectID) async throws -> StoredRecord?

    /// The records reached from `id` through `relationship` (a relationship of the record's entity):
    /// the first `limit` of them and their number. They only name their records (a summary, an ID), so a store
    /// may hand their text cut to `ValuePreview.summaryBytes` (`ValuePreview.cut`), and one that can does.
    func related(from id: ObjectID, through relationship: String, limit: Int) async throws -> RelatedRecords

    /// The record and the first `limit` records of each of `relationships` (relationships of its entity) with
    /// their counts, or nil when the store has no such record. A store that can reads them in one read
    /// transaction, so the record and its counts are one snapshot of the data; the default calls `record` and
    /// `related` one after the other.
    func detail(of id: ObjectID, relationships: [String], limit: Int) async throws -> RecordDetail?

    /// A token that changes when the store's data changes, or nil when the store cannot tell.
    func changeToken() async throws -> ChangeToken?

    /// The raw bytes of a Binary or Transformable attribute of the record (BrowserCore has checked the
    /// attribute's name and type): inline values without Core Data's external-storage marker, and values kept
    /// in files beside the store. A store throws `BrowserError.notFound` for an external file that is missing.
    func blob(of id: ObjectID, attribute: String) async throws -> BlobLookup

    /// Every record the query matches, in its order (`query.offset` and `query.limit` are ignored), handed out
    /// `batchSize` at a time with what the entity's `relationships` hold. A store that can reads them all in
    /// one read transaction, so an export is one snapshot of the data; the default (`PagedRecordCursor`) reads
    /// page after page.
    func cursor(_ query: RecordQuery, relationships: [RelationshipSchema], batchSize: Int) async throws -> any RecordCursor

    /// Answers `page(query)` and says how: the statements run, their plans and times, the store's own plans and
    /// caches that served it, and hints. The default times `page` and says the store has no query to show.
    func explain(_ query: RecordQuery) async throws -> QueryExplanationDTO

    /// The store's persistent history (Core Data's history tracking): transactions with their changes, for the
    /// query's window and filters (BrowserCore has checked its entity names). The default: no history.
    func history(_ query: HistoryQuery) async throws -> StoreHistory

    /// Unsaved edits of a live context; the default: a store with no unsaved state.
    func pendingChanges() async throws -> StorePendingChanges

    /// An attribute's values among the records of `request.query` (its filter and scope): nulls, the most
    /// frequent values, the number of distinct ones, and for numbers and dates the range and a histogram
    /// (`FacetHistogram`'s buckets). The default counts in Swift over `cursor` (`FacetCounter`, sampling past
    /// `FacetRequest.sampleLimit` records).
    func facets(_ request: FacetRequest) async throws -> FacetCounts

    /// The model as the store's source declares it (`GET /api/model`). The default describes `schema()` and says
    /// that everything a schema does not carry is unknown.
    func model() async throws -> ModelDescription

    /// The versions of the model file the store was opened with, each with its model and whether it matches the
    /// store (`/api/model/versions`, `/api/model/diff`). The default: none to compare.
    func modelVersions() async throws -> ModelVersions

    // MARK: Writes
    //
    // Offered only by a store whose `describe()` lists the `write` capability, and called only when the host turned
    // writes on (`BrowserService.readOnly` false). BrowserCore has checked the changes against the schema and the
    // model (`RecordChanges`' contract); the store checks what only it can — that the record and every target exist
    // (`BrowserError.invalidFields` for a target, `.notFound` for the record), the version (`.conflict` with
    // `.versions`, nothing written) — and writes each request all or nothing, keeping both sides of every
    // relationship in step and every record it changes a new version, as Core Data does.

    /// Creates a record of `entity` (a concrete entity) with `changes`, and returns its ID.
    func insert(into entity: String, _ changes: RecordChanges) async throws -> ObjectID

    /// Sets `changes` on the record, if its version is still `version`.
    func update(_ id: ObjectID, expecting version: Int64, _ changes: RecordChanges) async throws

    /// What deleting the record would do under the model's delete rules, without doing it.
    func deletionEffects(of id: ObjectID) async throws -> DeletionEffects

    /// Deletes the record (and what its Cascade rules delete, clearing what its Nullify rules clear), if its
    /// version is still `version` and no Deny rule blocks it (`.conflict` with `.blockedBy`, nothing written).
    func delete(_ id: ObjectID, expecting version: Int64) async throws -> DeletionEffects
}

extension BrowserStore {
    public func changeToken() async throws -> ChangeToken? { nil }

    // A read-only store: the write routes are not offered for it (its capabilities lack `write`), so these are
    // reached only through a store that claims `write` and forgot to implement one.
    public func insert(into entity: String, _ changes: RecordChanges) async throws -> ObjectID { throw Self.cannotWrite }
    public func update(_ id: ObjectID, expecting version: Int64, _ changes: RecordChanges) async throws { throw Self.cannotWrite }
    public func deletionEffects(of id: ObjectID) async throws -> DeletionEffects { throw Self.cannotWrite }
    public func delete(_ id: ObjectID, expecting version: Int64) async throws -> DeletionEffects { throw Self.cannotWrite }

    private static var cannotWrite: BrowserError { .storeFailure("\(Self.self) does not write records") }
    public func detail(of id: ObjectID, relationships: [String], limit: Int) async throws -> RecordDetail? {
        guard let record = try await record(id) else { return nil }
        var related: [String: RelatedRecords] = [:]
        for name in relationships {
            related[name] = try await self.related(from: id, through: name, limit: limit)
        }
        return RecordDetail(record: record, related: related)
    }

    public func history(_ query: HistoryQuery) async throws -> StoreHistory {
        .unavailable("This store does not keep a history of its changes.")
    }

    public func pendingChanges() async throws -> StorePendingChanges {
        .unavailable("Only a live context has unsaved changes: this store is read from what is saved.")
    }

    public func model() async throws -> ModelDescription {
        ModelDescription(schema: try await schema(),
                         reason: "\(type(of: self)) describes its model only by entities, types and relationships.")
    }

    public func modelVersions() async throws -> ModelVersions {
        .unavailable("The model does not come from a versioned model file (an .xcdatamodeld or .momd named with --model).")
    }

    public func cursor(_ query: RecordQuery, relationships: [RelationshipSchema], batchSize: Int) async throws -> any RecordCursor {
        PagedRecordCursor(store: self, query: query, relationships: relationships, batchSize: batchSize)
    }

    public func facets(_ request: FacetRequest) async throws -> FacetCounts {
        var counting = request.query
        counting.sortKeys = []
        counting.offset = 0
        counting.limit = 1
        let total = try await page(counting).total
        return try await FacetCounter.count(
            request, total: total, cursor: cursor(request.query, relationships: [], batchSize: RecordQuery.maximumLimit))
    }

    public func explain(_ query: RecordQuery) async throws -> QueryExplanationDTO {
        let started = DispatchTime.now().uptimeNanoseconds
        let page = try await self.page(query)
        return QueryExplanationDTO(
            engine: "\(type(of: self))",
            steps: ["This store filters, sorts and pages its records in its own code: there is no query or plan to show."],
            total: page.total, milliseconds: RequestBudget.milliseconds(since: started))
    }
}

