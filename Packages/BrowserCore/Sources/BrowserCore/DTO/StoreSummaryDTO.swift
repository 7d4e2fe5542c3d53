/// `GET /api/stores`: the stores one server serves, in the order the host gave them. The first is the one the
/// routes without `/stores/:store` mean.
public struct StoreListDTO: Encodable, Sendable, Hashable {
    public var stores: [StoreSummaryDTO]
    /// Whether `?refresh=1` can find stores added since (a server started on a folder of stores, such as
    /// `browser-demo simulators`).
    public var refreshable: Bool

    public init(stores: [StoreSummaryDTO], refreshable: Bool) {
        self.stores = stores
        self.refreshable = refreshable
    }
}

/// One served store, as the store switcher lists it.
public struct StoreSummaryDTO: Encodable, Sendable, Hashable {
    /// Used in `/api/stores/:store/…` and in the UI's `?store=`: letters, digits, `.`, `_` and `-`.
    public var id: String
    public var name: String
    /// Where the store belongs, outermost first, for grouping (a simulator's device, then its app); empty for none.
    public var group: [String]
    /// `file`, `memory` or `context`.
    public var kind: String
    /// The store file's path, for a file.
    public var path: String?
    /// Where the model came from; nil until the store is open or when the store cannot say.
    public var model: ModelOrigin?
    public var entityCount: Int?
    /// The file's size and its `-wal`'s, in bytes (nil for a store that is not a file).
    public var bytes: Int?
    public var walBytes: Int?
    /// Whether the store keeps persistent history (the History view has something to show).
    public var historyTracked: Bool?
    /// Why the store could not be opened; the other fields stay as known.
    public var error: String?

    public init(id: String, name: String, group: [String], kind: String, path: String? = nil,
                model: ModelOrigin? = nil, entityCount: Int? = nil, bytes: Int? = nil, walBytes: Int? = nil,
                historyTracked: Bool? = nil, error: String? = nil) {
        self.id = id
        self.name = name
        self.group = group
        self.kind = kind
        self.path = path
        self.model = model
        self.entityCount = entityCount
        self.bytes = bytes
        self.walBytes = walBytes
        self.historyTracked = historyTracked
        self.error = error
    }

    // Absent values are sent as null, so a client can tell "unknown" from a missing key.
    enum CodingKeys: String, CodingKey {
        case id, name, group, kind, path, model, entityCount, bytes, walBytes, historyTracked, error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(group, forKey: .group)
        try container.encode(kind, forKey: .kind)
        try container.encode(path, forKey: .path)
        try container.encode(model, forKey: .model)
        try container.encode(entityCount, forKey: .entityCount)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(walBytes, forKey: .walBytes)
        try container.encode(historyTracked, forKey: .historyTracked)
        try container.encode(error, forKey: .error)
    }
}
