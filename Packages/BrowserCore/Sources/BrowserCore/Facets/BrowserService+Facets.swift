extension BrowserService {
    /// `GET /api/entities/:name/facets?attr=&top=&buckets=` with the list's parameters (`search`, `where`,
    /// `relatedTo`/`via`): the attribute's values among the list's records.
    public func facets(of entityName: String, attribute rawAttribute: String?, top rawTop: String?, buckets rawBuckets: String?,
                       parameters: RecordQueryParameters) async throws(BrowserError) -> FacetsDTO {
        let schema = try await call { try await store.schema() }
        let query = try await validatedQuery(of: entityName, parameters: parameters, in: schema)
        guard let name = rawAttribute, !name.isEmpty else {
            throw .badRequest("attr is required: the attribute whose values to count")
        }
        guard let entity = schema.entity(named: entityName), let attribute = entity.attribute(named: name) else {
            throw .badRequest("Cannot count \(entityName).\(name): it is not an attribute of \(entityName)")
        }
        guard FacetRequest.countableTypes.contains(attribute.type) else {
            throw .badRequest("Cannot count the values of \(entityName).\(name): a \(attribute.type.rawValue) attribute "
                + "holds opaque data; facets count String, number, date, Boolean, UUID and URI attributes")
        }
        let request = FacetRequest(
            query: query, attribute: attribute,
            top: try Self.boundedCount(rawTop, name: "top", default: FacetRequest.defaultTop, maximum: FacetRequest.maximumTop),
            buckets: try Self.boundedCount(rawBuckets, name: "buckets", default: FacetRequest.defaultBuckets,
                                           maximum: FacetRequest.maximumBuckets),
            deadline: FacetRequest.deadline(seconds: facetTimeBudget))
        let counts = try await call { try await store.facets(request) }
        return FacetsDTO(request: request, counts: counts)
    }

    /// A positive integer parameter, at most `maximum` (refused above it: a facet asked for 1,000 bars is a
    /// mistake, not a request to cap).
    static func boundedCount(_ raw: String?, name: String, default value: Int, maximum: Int) throws(BrowserError) -> Int {
        guard let raw else { return value }
        guard let number = Int(raw), number > 0, number <= maximum else {
            throw .badRequest("\(name) must be a whole number from 1 to \(maximum), got \"\(raw)\"")
        }
        return number
    }
}
