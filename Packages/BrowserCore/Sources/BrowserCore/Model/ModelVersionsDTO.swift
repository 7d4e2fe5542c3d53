/// `GET /api/model/versions`.
public struct ModelVersionsDTO: Encodable, Sendable {
    public var available: Bool
    public var reason: String?
    public var versions: [ModelVersionDTO]

    private enum CodingKeys: String, CodingKey { case available, reason, versions }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(available, forKey: .available)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encode(versions, forKey: .versions)
    }
}

public struct ModelVersionDTO: Encodable, Sendable {
    public var name: String
    public var path: String
    public var current: Bool
    public var used: Bool
    public var matchesStore: Bool
    /// `versionHashes` or `tables` when it matches; null otherwise.
    public var matchedBy: String?
    /// How it differs from the store, when it does not match.
    public var mismatch: String?
    public var entities: Int

    init(_ version: ModelVersion) {
        name = version.name
        path = version.path
        current = version.isCurrent
        used = version.isUsed
        entities = version.model.entities.count
        switch version.match {
        case .versionHashes: matchesStore = true; matchedBy = "versionHashes"
        case .tables: matchesStore = true; matchedBy = "tables"
        case .mismatch(let reason): matchesStore = false; mismatch = reason
        }
    }

    private enum CodingKeys: String, CodingKey { case name, path, current, used, matchesStore, matchedBy, mismatch, entities }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(path, forKey: .path)
        try container.encode(current, forKey: .current)
        try container.encode(used, forKey: .used)
        try container.encode(matchesStore, forKey: .matchesStore)
        try container.encode(matchedBy, forKey: .matchedBy)
        try container.encode(mismatch, forKey: .mismatch)
        try container.encode(entities, forKey: .entities)
    }
}

/// `GET /api/model/diff`.
public struct ModelDifferenceDTO: Encodable, Sendable {
    public var from: String
    public var to: String
    public var entities: [EntityChange]

    public struct EntityChange: Encodable, Sendable {
        public var name: String
        public var previousName: String?
        public var change: ModelDifference.Change
        public var fields: [ModelDifference.Field]
        public var attributes: [PropertyChange]
        public var relationships: [PropertyChange]
    }

    public struct PropertyChange: Encodable, Sendable {
        public var name: String
        public var previousName: String?
        public var change: ModelDifference.Change
        public var fields: [ModelDifference.Field]
    }

    init(from: String, to: String, _ difference: ModelDifference) {
        self.from = from
        self.to = to
        func property(_ item: ModelDifference.Property) -> PropertyChange {
            PropertyChange(name: item.name, previousName: item.previousName, change: item.change, fields: item.fields)
        }
        entities = difference.entities.map {
            EntityChange(name: $0.name, previousName: $0.previousName, change: $0.change, fields: $0.fields,
                         attributes: $0.attributes.map(property), relationships: $0.relationships.map(property))
        }
    }
}
