/// `GET /api/health`.
public struct HealthDTO: Encodable, Sendable, Hashable {
    public var ok: Bool
    public var store: String
    public var readOnly: Bool
    public var capabilities: [String]
    public var model: ModelOrigin?
    /// Why the store is read-only although the host turned writes on (absent otherwise), for the UI to say.
    public var writeRefusal: String?

    public init(ok: Bool, store: String, readOnly: Bool, capabilities: [String], model: ModelOrigin?, writeRefusal: String? = nil) {
        self.ok = ok
        self.store = store
        self.readOnly = readOnly
        self.capabilities = capabilities
        self.model = model
        self.writeRefusal = writeRefusal
    }
}
