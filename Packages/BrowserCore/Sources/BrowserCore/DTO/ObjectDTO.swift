/// `GET /api/object` and `GET /api/object/export`.
public struct ObjectDTO: Encodable, Sendable, Hashable {
    public var id: String
    public var entity: String
    public var summary: String
    public var attrs: [String: AttributeValue]
    public var relationships: [RelationshipItemsDTO]
    /// The record's version as read, to send back with a change or delete (`PATCH`/`DELETE /api/object`); absent
    /// when the store keeps no versions (it does not write).
    public var version: Int64?

    public init(id: String, entity: String, summary: String, attrs: [String: AttributeValue], relationships: [RelationshipItemsDTO],
                version: Int64? = nil) {
        self.id = id
        self.entity = entity
        self.summary = summary
        self.attrs = attrs
        self.relationships = relationships
        self.version = version
    }
}

/// One relationship of a record with its first items.
public struct RelationshipItemsDTO: Encodable, Sendable, Hashable {
    public var name: String
    public var destination: String
    public var toMany: Bool
    public var ordered: Bool
    /// How many records the relationship holds (0 or 1 for a to-one).
    public var count: Int
    /// How many of them `items` holds: the first `BrowserService.relationshipPreviewLimit`, or all of them
    /// (an export with `related=all`). The rest are paged with `/api/object/related`.
    public var included: Int
    public var items: [ObjectReferenceDTO]

    public init(name: String, destination: String, toMany: Bool, ordered: Bool, count: Int, items: [ObjectReferenceDTO]) {
        self.name = name
        self.destination = destination
        self.toMany = toMany
        self.ordered = ordered
        self.count = count
        self.included = items.count
        self.items = items
    }
}

/// A link to another record.
public struct ObjectReferenceDTO: Encodable, Sendable, Hashable {
    public var id: String
    public var entity: String
    public var summary: String

    public init(id: String, entity: String, summary: String) {
        self.id = id
        self.entity = entity
        self.summary = summary
    }
}

/// Members in sorted-key order, as `BrowserJSON` sorts them; no `version` member when there is none.
extension ObjectDTO: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.beginObject()
        json.appendMember("attrs", attrs)
        json.appendMember("entity", entity)
        json.appendMember("id", id)
        json.appendMember("relationships", relationships)
        json.appendMember("summary", summary)
        if let version {
            json.appendMember("version", version)
        }
        json.endObject()
    }
}

/// Members in sorted-key order.
extension RelationshipItemsDTO: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.beginObject()
        json.appendMember("count", count)
        json.appendMember("destination", destination)
        json.appendMember("included", included)
        json.appendMember("items", items)
        json.appendMember("name", name)
        json.appendMember("ordered", ordered)
        json.appendMember("toMany", toMany)
        json.endObject()
    }
}

/// Members in sorted-key order.
extension ObjectReferenceDTO: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.beginObject()
        json.appendMember("entity", entity)
        json.appendMember("id", id)
        json.appendMember("summary", summary)
        json.endObject()
    }
}
