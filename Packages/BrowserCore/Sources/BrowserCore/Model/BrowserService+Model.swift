/// `GET /api/model`, `/api/model/versions` and `/api/model/diff`.
extension BrowserService {
    /// The store's model, or with `version` one version of its versioned model file.
    public func model(version: String? = nil) async throws(BrowserError) -> ModelDTO {
        let model: ModelDescription
        var source = try await call { try await store.describe() }.model
        if let version {
            let found = try await self.version(named: version)
            model = found.model
            source = ModelOrigin(source: .file, name: found.name, path: found.path)
        } else {
            model = try await call { try await store.model() }
        }
        let schema = try await call { try await store.schema() }
        var counts: [String: Int] = [:]
        // Only entities the store can count (a model entity the store does not hold has no count).
        for entity in model.entities where schema.entity(named: entity.name) != nil {
            counts[entity.name] = try await call { try await store.count(of: entity.name) }
        }
        return ModelDTO(model, source: source, counts: counts)
    }

    public func modelVersions() async throws(BrowserError) -> ModelVersionsDTO {
        switch try await call({ try await store.modelVersions() }) {
        case .unavailable(let reason):
            return ModelVersionsDTO(available: false, reason: reason, versions: [])
        case .versions(let versions):
            return ModelVersionsDTO(available: true, versions: versions.map(ModelVersionDTO.init))
        }
    }

    /// What differs from version `from` to version `to` (both required).
    public func modelDifference(from: String?, to: String?) async throws(BrowserError) -> ModelDifferenceDTO {
        guard let from, !from.isEmpty, let to, !to.isEmpty else {
            throw .badRequest("from and to must name two versions of the model (see /api/model/versions)")
        }
        let old = try await version(named: from)
        let new = try await version(named: to)
        return ModelDifferenceDTO(from: old.name, to: new.name, ModelDifference.between(old.model, new.model))
    }

    private func version(named name: String) async throws(BrowserError) -> ModelVersion {
        switch try await call({ try await store.modelVersions() }) {
        case .unavailable(let reason):
            throw .notFound("The store's model has no versions: \(reason)")
        case .versions(let versions):
            guard let version = versions.first(where: { $0.name == name }) else {
                throw .notFound("No model version \"\(name)\" (the versions are \(versions.map(\.name).joined(separator: ", ")))")
            }
            return version
        }
    }
}
