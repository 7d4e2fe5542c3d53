/// One record as a store returns it: its identity and decoded attribute values.
public struct StoredRecord: Sendable, Hashable {
    public var id: ObjectID
    /// Values by attribute name, for the attributes of the record's concrete entity. A missing key reads as null.
    public var values: [String: AttributeValue]
    /// The record's version as read (Core Data's `Z_OPT` in a store file; a digest of the stored values and
    /// relationships in a live context; a count of writes in memory), which a write must name so it never
    /// overwrites a change it did not see. Set by `BrowserStore.record(_:)` of a store that can write; nil elsewhere
    /// (pages and exports do not read it).
    public var version: Int64?

    public init(id: ObjectID, values: [String: AttributeValue], version: Int64? = nil) {
        self.id = id
        self.values = values
        self.version = version
    }

    /// The concrete entity (a fetch of a parent entity returns records of its sub-entities too).
    public var entity: String { id.entity }
}

/// A page of records and the number of records that match the query in all.
public struct RecordPage: Sendable, Hashable {
    public var total: Int
    public var records: [StoredRecord]

    public init(total: Int, records: [StoredRecord]) {
        self.total = total
        self.records = records
    }
}

/// The first records reached through a relationship, and how many there are in all.
public struct RelatedRecords: Sendable, Hashable {
    public var total: Int
    /// In relationship order when the relationship is ordered, else in primary-key order.
    public var records: [StoredRecord]

    public init(total: Int, records: [StoredRecord]) {
        self.total = total
        self.records = records
    }
}

/// A record with the first records of each of its relationships and their counts: what a record's detail shows.
public struct RecordDetail: Sendable, Hashable {
    public var record: StoredRecord
    /// By relationship name: every relationship asked for.
    public var related: [String: RelatedRecords]

    public init(record: StoredRecord, related: [String: RelatedRecords]) {
        self.record = record
        self.related = related
    }
}
