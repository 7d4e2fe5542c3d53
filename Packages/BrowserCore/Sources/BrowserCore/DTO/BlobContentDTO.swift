/// The answer of `GET /api/object/content`: the inspector's report with where the value is kept and, for a
/// Transformable attribute whose model names one, its value transformer, in one flat object
/// (`{kind, size, summary, …, storage: "inline"|"external", externalName?, transformer?}`).
public struct BlobContentDTO: Encodable, Sendable {
    public var report: ContentReport
    public var storage: BlobStorage
    /// `AttributeSchema.valueTransformerName`: the bytes are what this transformer wrote.
    public var transformer: String?

    public init(report: ContentReport, storage: BlobStorage, transformer: String? = nil) {
        self.report = report
        self.storage = storage
        self.transformer = transformer
    }

    private enum StorageKeys: String, CodingKey {
        case storage, externalName, transformer
    }

    public func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: StorageKeys.self)
        try container.encodeIfPresent(transformer, forKey: .transformer)
        switch storage {
        case .inline:
            try container.encode("inline", forKey: .storage)
        case .external(let fileName):
            try container.encode("external", forKey: .storage)
            try container.encode(fileName, forKey: .externalName)
        }
    }
}
