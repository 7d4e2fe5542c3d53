/// `GET /api/entities/:name`.
public struct RecordsPageDTO: Encodable, Sendable, Hashable {
    public var total: Int
    public var offset: Int
    public var limit: Int
    public var rows: [RowDTO]
    /// The most bytes of a text value the rows carry (`ValuePreview.bytes`: the page's budget shared among its
    /// rows and text attributes); a longer value is `{"type":"text","truncated":true,"preview":…,"bytes":N}`,
    /// whole in `/api/object`. Nil (not sent) when values are whole.
    public var valuePreviewBytes: Int?

    public init(total: Int, offset: Int, limit: Int, rows: [RowDTO], valuePreviewBytes: Int? = nil) {
        self.total = total
        self.offset = offset
        self.limit = limit
        self.rows = rows
        self.valuePreviewBytes = valuePreviewBytes
    }
}

/// One record in a page.
public struct RowDTO: Encodable, Sendable, Hashable {
    public var id: String
    public var entity: String
    public var summary: String
    public var attrs: [String: AttributeValue]
    /// When the page is sorted by to-many relationships' counts (`sort=tags.@count`): each such relationship's
    /// count for this record (`"tags": 3`), so a list can show what it is ordered by. Nil (absent) otherwise.
    public var counts: [String: Int]?

    public init(id: String, entity: String, summary: String, attrs: [String: AttributeValue], counts: [String: Int]? = nil) {
        self.id = id
        self.entity = entity
        self.summary = summary
        self.attrs = attrs
        self.counts = counts
    }
}

/// Members in sorted-key order, as `BrowserJSON` sorts them.
extension RecordsPageDTO: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.beginObject()
        json.appendMember("limit", limit)
        json.appendMember("offset", offset)
        json.appendMember("rows", rows)
        json.appendMember("total", total)
        if let valuePreviewBytes {
            json.appendMember("valuePreviewBytes", valuePreviewBytes)
        }
        json.endObject()
    }
}

/// Members in sorted-key order.
extension RowDTO: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.beginObject()
        json.appendMember("attrs", attrs)
        if let counts { json.appendMember("counts", counts) }
        json.appendMember("entity", entity)
        json.appendMember("id", id)
        json.appendMember("summary", summary)
        json.endObject()
    }
}
