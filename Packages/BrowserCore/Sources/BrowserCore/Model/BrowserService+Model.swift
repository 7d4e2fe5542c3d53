/// `GET /api/model`.
extension BrowserService {
    public func model() async throws(BrowserError) -> ModelDTO {
        let model = try await call { try await store.model() }
        let description = try await call { try await store.describe() }
        let schema = try await call { try await store.schema() }
        var counts: [String: Int] = [:]
        // Only entities the store can count (a model entity the store does not hold has no count).
        for entity in model.entities where schema.entity(named: entity.name) != nil {
            counts[entity.name] = try await call { try await store.count(of: entity.name) }
        }
        return ModelDTO(model, source: description.model, counts: counts)
    }
}
