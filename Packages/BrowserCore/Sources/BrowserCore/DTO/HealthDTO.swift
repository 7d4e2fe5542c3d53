/// `GET /api/health`.
public struct HealthDTO: Encodable, Sendable, Hashable {
    public var ok: Bool
    public var store: String
    public var readOnly: Bool
    public var capabilities: [String]
    public var model: ModelOrigin?

    public init(ok: Bool, store: String, readOnly: Bool, capabilities: [String], model: ModelOrigin?) {
        self.ok = ok
        self.store = store
        self.readOnly = readOnly
        self.capabilities = capabilities
        self.model = model
    }
}
