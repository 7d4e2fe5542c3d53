/// A batch of an export's records by position: the attribute and relationship names once for the batch, and
/// per record its entity, its primary key, its attribute values in the order of `attributeNames` and its
/// relationships' values in the order of `relationshipNames`, all in flat arrays.
///
/// An export of a million records read into one `StoredRecord` each spent as much time building and hashing a
/// dictionary per row as SQLite spent reading the rows; here a row is a few array appends, and an encoder finds
/// a column by its slot, worked out once per batch.
///
/// A record that lacks an attribute another record of the batch has holds nil in its slot (a `StoredRecord`
/// without the key), so `record(at:)` gives back exactly the record a store's `page` lists.
public struct ExportBatch: Sendable, Hashable {
    /// A concrete entity of the batch's records, and the store its IDs name.
    public struct Entity: Sendable, Hashable {
        public var storeIdentifier: String
        public var name: String

        public init(storeIdentifier: String, name: String) {
            self.storeIdentifier = storeIdentifier
            self.name = name
        }
    }

    /// The names of the attribute slots: every attribute any record of the batch has.
    public let attributeNames: [String]
    /// The names of the relationship slots: the relationships the cursor was asked for.
    public let relationshipNames: [String]
    /// The concrete entities the rows name by index.
    public let entities: [Entity]
    /// Per row: its entity (an index into `entities`).
    public let entityIndexes: [Int]
    /// Per row: its primary key.
    public let primaryKeys: [Int64]
    /// Row after row, `attributeNames.count` values each.
    public let values: [AttributeValue?]
    /// Row after row, `relationshipNames.count` values each; nil where a record's relationship was not read.
    public let related: [RelatedValue?]

    public init(attributeNames: [String], relationshipNames: [String], entities: [Entity], entityIndexes: [Int],
                primaryKeys: [Int64], values: [AttributeValue?], related: [RelatedValue?]) {
        precondition(entityIndexes.count == primaryKeys.count, "one entity per row")
        precondition(values.count == primaryKeys.count * attributeNames.count, "one value per row and attribute")
        precondition(related.count == primaryKeys.count * relationshipNames.count, "one value per row and relationship")
        precondition(entityIndexes.allSatisfy(entities.indices.contains), "rows name entities of the batch")
        self.attributeNames = attributeNames
        self.relationshipNames = relationshipNames
        self.entities = entities
        self.entityIndexes = entityIndexes
        self.primaryKeys = primaryKeys
        self.values = values
        self.related = related
    }

    /// A batch of records read one by one (the default cursor's pages; tests). Slots are the names the records
    /// use, in the order first met.
    public init(records: [ExportedRecord]) {
        var attributeNames: [String] = []
        var attributeSlots: [String: Int] = [:]
        var relationshipNames: [String] = []
        var relationshipSlots: [String: Int] = [:]
        var entities: [Entity] = []
        var entitySlots: [Entity: Int] = [:]
        for exported in records {
            for name in exported.record.values.keys where attributeSlots[name] == nil {
                attributeSlots[name] = attributeNames.count
                attributeNames.append(name)
            }
            for name in exported.relationships.names where relationshipSlots[name] == nil {
                relationshipSlots[name] = relationshipNames.count
                relationshipNames.append(name)
            }
        }
        var entityIndexes: [Int] = []
        var values = [AttributeValue?](repeating: nil, count: records.count * attributeNames.count)
        var related = [RelatedValue?](repeating: nil, count: records.count * relationshipNames.count)
        for (row, exported) in records.enumerated() {
            let id = exported.record.id
            let entity = Entity(storeIdentifier: id.storeIdentifier, name: id.entity)
            if let index = entitySlots[entity] {
                entityIndexes.append(index)
            } else {
                entitySlots[entity] = entities.count
                entityIndexes.append(entities.count)
                entities.append(entity)
            }
            for (name, value) in exported.record.values {
                values[row * attributeNames.count + attributeSlots[name]!] = value
            }
            for (name, value) in zip(exported.relationships.names, exported.relationships.values) {
                related[row * relationshipNames.count + relationshipSlots[name]!] = value
            }
        }
        self.init(attributeNames: attributeNames, relationshipNames: relationshipNames, entities: entities,
                  entityIndexes: entityIndexes, primaryKeys: records.map(\.record.id.primaryKey), values: values,
                  related: related)
    }

    public var count: Int { primaryKeys.count }

    public func id(at row: Int) -> ObjectID {
        let entity = entities[entityIndexes[row]]
        return ObjectID(storeIdentifier: entity.storeIdentifier, entity: entity.name, primaryKey: primaryKeys[row])
    }

    /// The value in an attribute slot of a row; nil when the row's record lacks that attribute.
    public func value(at row: Int, slot: Int) -> AttributeValue? {
        values[row * attributeNames.count + slot]
    }

    /// The value in a relationship slot of a row; nil when it was not read for the row's record.
    public func relatedValue(at row: Int, slot: Int) -> RelatedValue? {
        related[row * relationshipNames.count + slot]
    }

    /// The row as the record a store's `page` lists, with what its relationships hold.
    public func record(at row: Int) -> ExportedRecord {
        var attributes: [String: AttributeValue] = [:]
        for (slot, name) in attributeNames.enumerated() {
            if let value = value(at: row, slot: slot) { attributes[name] = value }
        }
        var relationships: RelatedValues = [:]
        for (slot, name) in relationshipNames.enumerated() {
            if let value = relatedValue(at: row, slot: slot) { relationships[name] = value }
        }
        return ExportedRecord(record: StoredRecord(id: id(at: row), values: attributes), relationships: relationships)
    }

    /// Every row as `record(at:)` gives it.
    public var records: [ExportedRecord] { (0..<count).map(record(at:)) }
}
