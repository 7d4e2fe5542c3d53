/// `GET /api/entities/:name`.
public struct RecordsPageDTO: Encodable, Sendable, Hashable {
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var rows: [RowDTO]

    public init(total: Int, offset: Int, limit: Int, rows: [RowDTO]) {
        self.total = total
        self.offset = offset
        self.limit = limit
        self.rows = rows
    }
}

/// One record in a page.
public struct RowDTO: Encodable, Sendable, Hashable {
    public var id: String
    public var entity: String
    public var summary: String
    public var attrs: [String: AttributeValue]

    public init(id: String, entity: String, summary: String, attrs: [String: AttributeValue]) {
        self.id = id
        self.entity = entity
        self.summary = summary
        self.attrs = attrs
    }
}

/// Members in sorted-key order, as `BrowserJSON` sorts them.
extension RecordsPageDTO: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.beginObject()
        json.appendKey("limit")
        json.appendInteger(Int64(limit))
        json.appendKey("offset")
        json.appendInteger(Int64(offset))
        json.appendKey("rows")
        json.appendArray(rows)
        json.appendKey("total")
        json.appendInteger(Int64(total))
        json.endObject()
    }
}

/// Members in sorted-key order.
extension RowDTO: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.beginObject()
        json.appendKey("attrs")
        json.appendObject(attrs)
        json.appendKey("entity")
        json.appendString(entity)
        json.appendKey("id")
        json.appendString(id)
        json.appendKey("summary")
        json.appendString(summary)
        json.endObject()
    }
}
