public import BrowserCore
public import Foundation

/// A store held in memory, with the semantics of Core Data's SQLite store: primary keys numbered per root
/// entity, fetches that include sub-entities, nulls first in ascending order, strings ordered by their UTF-8
/// bytes, `CONTAINS[cd]` search through `TextFolding`.
///
/// It backs the Linux demo and the tests of the other bricks, and is the reference for writes (`InMemoryStore+Writes`):
/// relationships are kept on both sides when the model declares an inverse, as Core Data does, and every record
/// has a version a write must name.
public actor InMemoryStore: BrowserStore {
    public nonisolated let storeIdentifier: String
    public nonisolated let storeSchema: StoreSchema
    private let summary: String

    /// Records by root entity, then primary key.
    var tables: [String: [Int64: Row]] = [:]
    /// The last primary key handed out per root entity (Core Data's `Z_MAX`).
    private var lastPrimaryKey: [String: Int64] = [:]
    /// The store's change counter (its `changeToken`).
    var version = 0

    struct Row: FilterableRecord {
        var id: ObjectID
        var values: [String: AttributeValue]
        /// Targets by relationship name, in relationship order.
        var links: [String: [ObjectID]]
        /// The bytes of Binary and Transformable attributes (`values` holds their size).
        var blobs: [String: Data] = [:]
        /// The record's version (Core Data's `Z_OPT`): 1 when inserted, one more for each write that changes it.
        var version: Int64 = 1
    }

    public init(schema: StoreSchema, storeIdentifier: String = UUID().uuidString, summary: String = "In-memory store") {
        self.storeSchema = schema
        self.storeIdentifier = storeIdentifier
        self.summary = summary
    }

    // MARK: Writing

    /// Inserts a record and returns its ID. Values are checked against the model: unknown attribute names and
    /// abstract entities are refused, as Core Data refuses them. `blobs` are the bytes of Binary and
    /// Transformable attributes (their `values` entry becomes their size).
    @discardableResult
    public func insert(
        _ entityName: String, _ values: [String: AttributeValue] = [:], blobs: [String: Data] = [:]
    ) throws -> ObjectID {
        guard let entity = storeSchema.entity(named: entityName) else {
            throw BrowserError.badRequest("No entity named \"\(entityName)\"")
        }
        guard !entity.isAbstract else {
            throw BrowserError.badRequest("Cannot insert into abstract entity \(entityName)")
        }
        for name in values.keys where entity.attribute(named: name) == nil {
            throw BrowserError.badRequest("\(entityName) has no attribute \"\(name)\"")
        }
        var values = values
        for (name, data) in blobs {
            guard entity.attribute(named: name)?.type.holdsBytes == true else {
                throw BrowserError.badRequest("\(entityName).\(name) is not a Binary or Transformable attribute")
            }
            values[name] = .binary(byteCount: data.count)
        }
        let root = storeSchema.root(of: entityName)
        let key = (lastPrimaryKey[root] ?? 0) + 1
        lastPrimaryKey[root] = key
        let id = ObjectID(storeIdentifier: storeIdentifier, entity: entityName, primaryKey: key)
        tables[root, default: [:]][key] = Row(id: id, values: values, links: [:], blobs: blobs)
        version += 1
        return id
    }

    /// Adds `target` to `source`'s relationship (replacing the target of a to-one), and `source` to the inverse.
    public func relate(_ source: ObjectID, _ relationshipName: String, _ target: ObjectID) throws {
        guard let entity = storeSchema.entity(named: source.entity),
              let relationship = entity.relationship(named: relationshipName) else {
            throw BrowserError.badRequest("\(source.entity) has no relationship \"\(relationshipName)\"")
        }
        guard storeSchema.subtree(of: relationship.destination).contains(target.entity) else {
            throw BrowserError.badRequest("\(relationshipName) leads to \(relationship.destination), not \(target.entity)")
        }
        guard rowExists(source), rowExists(target) else {
            throw BrowserError.notFound("Cannot relate records that are not in the store")
        }
        link(source, relationship, target)
        if let inverseName = relationship.inverse,
           let inverse = storeSchema.entity(named: target.entity)?.relationship(named: inverseName) {
            link(target, inverse, source)
        }
        version += 1
    }

    private func link(_ source: ObjectID, _ relationship: RelationshipSchema, _ target: ObjectID) {
        let root = storeSchema.root(of: source.entity)
        guard var row = tables[root]?[source.primaryKey] else { return }
        if relationship.isToMany {
            if row.links[relationship.name, default: []].contains(target) == false {
                row.links[relationship.name, default: []].append(target)
            }
        } else {
            // Replacing a to-one drops the old target's inverse link, as Core Data's inverse maintenance does.
            if let old = row.links[relationship.name]?.first, old != target, let inverseName = relationship.inverse {
                unlink(old, inverseName, source)
            }
            row.links[relationship.name] = [target]
        }
        tables[root]?[source.primaryKey] = row
    }

    private func unlink(_ source: ObjectID, _ relationshipName: String, _ target: ObjectID) {
        let root = storeSchema.root(of: source.entity)
        tables[root]?[source.primaryKey]?.links[relationshipName]?.removeAll { $0 == target }
    }

    /// The record with this ID, if the store holds it.
    func row(for id: ObjectID) -> Row? {
        rowExists(id) ? tables[storeSchema.root(of: id.entity)]?[id.primaryKey] : nil
    }

    func rowExists(_ id: ObjectID) -> Bool {
        id.storeIdentifier == storeIdentifier
            && tables[storeSchema.root(of: id.entity)]?[id.primaryKey]?.id.entity == id.entity
    }

    // MARK: BrowserStore

    public nonisolated func describe() async throws -> StoreDescription {
        // It can always write; the host decides whether it may (`BrowserService.readOnly`).
        StoreDescription(summary: summary, model: ModelOrigin(source: .live, name: nil, path: nil), capabilities: [.read, .write],
                         storeIdentifier: storeIdentifier)
    }

    public nonisolated func schema() async throws -> StoreSchema { storeSchema }

    public func count(of entity: String) async throws -> Int {
        let members = storeSchema.subtree(of: entity)
        return tables[storeSchema.root(of: entity)]?.values.reduce(0) { $0 + (members.contains($1.id.entity) ? 1 : 0) } ?? 0
    }

    public func page(_ query: RecordQuery) async throws -> RecordPage {
        let rows = try orderedRows(query)
        // A list's text is cut as its rows are built (`ValuePreview`): the page never holds a whole long value.
        let records = rows.dropFirst(query.offset).prefix(query.limit).map { row in
            StoredRecord(id: row.id, values: query.valuePreviewBytes.map { ValuePreview.cut(row.values, toBytes: $0) } ?? row.values)
        }
        return RecordPage(total: rows.count, records: Array(records))
    }

    public func position(of id: ObjectID, in query: RecordQuery) async throws -> Int? {
        try orderedRows(query).firstIndex { $0.id == id }
    }

    /// Every record the query matches, in its order: the entity's rows (sub-entities included), or the targets of
    /// the scope's relationship, filtered, then sorted by the keys (attributes, relationship counts; if any) and the primary key — except an
    /// ordered relationship without a sort, which keeps its own order (reversed for `desc`).
    private func orderedRows(_ query: RecordQuery) throws -> [Row] {
        let members = storeSchema.subtree(of: query.entity)
        let matcher = FilterMatcher(query.matchFilter, entity: query.entity, schema: storeSchema)
        let candidates: [Row]
        if let scope = query.scope {
            guard rowExists(scope.source), let source = tables[storeSchema.root(of: scope.source.entity)]?[scope.source.primaryKey] else {
                return []
            }
            candidates = (source.links[scope.relationship] ?? []).compactMap { tables[storeSchema.root(of: $0.entity)]?[$0.primaryKey] }
        } else {
            candidates = Array((tables[storeSchema.root(of: query.entity)] ?? [:]).values)
        }
        var rows = candidates.filter { members.contains($0.id.entity) && matcher.matches($0, resolve: row(for:)) }
        let descending = query.tieBreak == .descending
        if query.sortKeys.isEmpty, query.scope?.isOrdered == true {
            return descending ? rows.reversed() : rows
        }
        rows.sort { left, right in
            for key in query.sortKeys {
                let comparison = StoreOrdering.compare(StoreOrdering.sortValue(of: left, by: key), StoreOrdering.sortValue(of: right, by: key))
                if comparison != .orderedSame {
                    return key.order == .descending ? comparison == .orderedDescending : comparison == .orderedAscending
                }
            }
            return descending ? left.id.primaryKey > right.id.primaryKey : left.id.primaryKey < right.id.primaryKey
        }
        return rows
    }

    public func record(_ id: ObjectID) async throws -> StoredRecord? {
        guard rowExists(id), let row = tables[storeSchema.root(of: id.entity)]?[id.primaryKey] else { return nil }
        return StoredRecord(id: row.id, values: row.values, version: row.version)
    }

    public func related(from id: ObjectID, through relationship: String, limit: Int) async throws -> RelatedRecords {
        guard rowExists(id), let row = tables[storeSchema.root(of: id.entity)]?[id.primaryKey] else {
            throw BrowserError.notFound("No record \(id.uri)")
        }
        var targets = row.links[relationship] ?? []
        let ordered = storeSchema.entity(named: id.entity)?.relationship(named: relationship)?.isOrdered ?? false
        if !ordered {
            // An unordered relationship has no order of its own; list it by primary key, as the SQLite reader does
            // (keys are numbered per root entity, so sub-entity records interleave with their parent's) and as a
            // scoped page lists it, so the detail's first items and the related list's pages agree.
            targets.sort { $0.primaryKey < $1.primaryKey }
        }
        let records = targets.prefix(limit).compactMap { target -> StoredRecord? in
            // Related items only name their records (a summary): their text is cut.
            tables[storeSchema.root(of: target.entity)]?[target.primaryKey].map {
                StoredRecord(id: $0.id, values: ValuePreview.cut($0.values, toBytes: ValuePreview.summaryBytes))
            }
        }
        return RelatedRecords(total: targets.count, records: records)
    }

    public func blob(of id: ObjectID, attribute: String) async throws -> BlobLookup {
        guard rowExists(id), let row = tables[storeSchema.root(of: id.entity)]?[id.primaryKey] else { return .noRecord }
        guard let data = row.blobs[attribute] else { return .noValue }
        return .value(InMemoryBlob(data))
    }

    public func changeToken() async throws -> ChangeToken? {
        ChangeToken(String(version))
    }
}
