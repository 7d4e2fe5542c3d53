/// Every record of a query, handed out in batches: what an export reads (`GET /api/entities/:name/export`).
///
/// A cursor is used by one export at a time: `next()` is never called again before the previous call returned.
/// It holds what it reads from (a SQLite cursor: its own connection and read transaction) until it has handed
/// out its last batch or is released.
public protocol RecordCursor: Sendable {
    /// The next records in the query's order (never an empty batch), or nil once every record has been handed out.
    func next() async throws -> ExportBatch?
}

/// One record of an export with what its relationships hold: the record each to-one relationship points to (for
/// its ID and name) and the number of records each to-many relationship reaches. A row of an `ExportBatch` read
/// back as a record (`ExportBatch.record(at:)`), and what the default cursor builds its batches from.
public struct ExportedRecord: Sendable, Hashable {
    public var record: StoredRecord
    /// By relationship name, for the relationships the cursor was asked for.
    public var relationships: RelatedValues

    public init(record: StoredRecord, relationships: RelatedValues) {
        self.record = record
        self.relationships = relationships
    }
}

/// What an exported record's relationships hold, by name. Kept as two arrays (the names shared by every record of
/// a batch) rather than a dictionary: an export of a million records would otherwise hash every relationship
/// name twice per record, and a handful of short names is found faster by comparing them.
public struct RelatedValues: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    public private(set) var names: [String]
    public private(set) var values: [RelatedValue]

    /// `values[i]` is what relationship `names[i]` holds.
    public init(names: [String], values: [RelatedValue]) {
        precondition(names.count == values.count, "one value per relationship name")
        self.names = names
        self.values = values
    }

    public init(dictionaryLiteral elements: (String, RelatedValue)...) {
        self.init(names: elements.map(\.0), values: elements.map(\.1))
    }

    public subscript(name: String) -> RelatedValue? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            if let index = names.firstIndex(of: name) {
                if let newValue { values[index] = newValue } else {
                    names.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                names.append(name)
                values.append(newValue)
            }
        }
    }
}

/// What one relationship of an exported record holds.
public enum RelatedValue: Sendable, Hashable {
    /// The record a to-one relationship points to; nil when it points to none.
    case toOne(StoredRecord?)
    /// How many records a to-many relationship reaches.
    case toMany(count: Int)
    /// The store cannot read the relationship (its column is missing); the reason.
    case unreadable(String)
}

/// The cursor any store gets without writing its own: pages of `BrowserStore.page` one after the other, and
/// `related` for each record's relationships. Each page is its own read, so a store that changes during the
/// export can give a file that is not one snapshot; stores that can hold a snapshot (BrowserSQLite) implement
/// `cursor(_:batchSize:)` themselves.
public actor PagedRecordCursor: RecordCursor {
    private let store: any BrowserStore
    private var query: RecordQuery
    private let relationships: [RelationshipSchema]
    private var finished = false

    public init(store: any BrowserStore, query: RecordQuery, relationships: [RelationshipSchema], batchSize: Int) {
        self.store = store
        self.query = query
        self.query.offset = 0
        self.query.limit = batchSize
        self.relationships = relationships
    }

    public func next() async throws -> ExportBatch? {
        guard !finished else { return nil }
        let page = try await store.page(query)
        query.offset += page.records.count
        if page.records.count < query.limit { finished = true }
        guard !page.records.isEmpty else { return nil }
        var batch: [ExportedRecord] = []
        batch.reserveCapacity(page.records.count)
        for record in page.records {
            var values: RelatedValues = [:]
            for relationship in relationships {
                let related = try await store.related(from: record.id, through: relationship.name,
                                                      limit: 1)
                values[relationship.name] = relationship.isToMany
                    ? .toMany(count: related.total) : .toOne(related.records.first)
            }
            batch.append(ExportedRecord(record: record, relationships: values))
        }
        return ExportBatch(records: batch)
    }
}
