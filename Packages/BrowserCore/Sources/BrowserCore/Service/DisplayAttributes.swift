/// The display attribute chosen for each entity (`DisplayAttributeChoice`), remembered for the server's life so
/// that names do not change under the user while they browse, and each entity's sample is read once.
actor DisplayAttributes {
    /// Entity name → its display attribute (`.some(nil)`: the entity has none).
    private var chosen: [String: String?] = [:]

    func known(_ entity: String) -> String?? { chosen[entity] }

    /// Keeps the first choice made: two requests that raced to choose agree from then on.
    func remember(_ attribute: String?, for entity: String) -> String? {
        if let earlier = chosen[entity] { return earlier }
        chosen[entity] = .some(attribute)
        return attribute
    }
}
