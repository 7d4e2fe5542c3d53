/// `GET /api/entities/:name/position`: where a record sits in a list.
public struct PositionDTO: Encodable, Sendable, Hashable {
    public var id: String
    /// The record's offset among the list's records, in the list's order.
    public var offset: Int
    /// The offset of the page of `limit` records that holds it.
    public var pageOffset: Int
    public var limit: Int

    public init(id: String, offset: Int, pageOffset: Int, limit: Int) {
        self.id = id
        self.offset = offset
        self.pageOffset = pageOffset
        self.limit = limit
    }
}
