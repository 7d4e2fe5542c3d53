/// The answer of `GET /api/object/content`: the inspector's report with where the value is kept, in one flat
/// object (`{kind, size, summary, …, storage: "inline"|"external", externalName?}`).
public struct BlobContentDTO: Encodable, Sendable {
    public var report: ContentReport
    public var storage: BlobStorage

    private enum StorageKeys: String, CodingKey {
        case storage, externalName
    }

    public func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: StorageKeys.self)
        switch storage {
        case .inline:
            try container.encode("inline", forKey: .storage)
        case .external(let fileName):
            try container.encode("external", forKey: .storage)
            try container.encode(fileName, forKey: .externalName)
        }
    }
}
