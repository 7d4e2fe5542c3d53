/// The model of a store: its entities and their inheritance.
public struct StoreSchema: Sendable, Hashable {
    /// Every entity, abstract ones and sub-entities included, in the order the store gave them.
    public let entities: [EntitySchema]
    private let indexByName: [String: Int]

    public init(entities: [EntitySchema]) {
        self.entities = entities
        var index: [String: Int] = [:]
        for (offset, entity) in entities.enumerated() where index[entity.name] == nil {
            index[entity.name] = offset
        }
        self.indexByName = index
    }

    public func entity(named name: String) -> EntitySchema? {
        indexByName[name].map { entities[$0] }
    }

    /// The entities a client may browse, sorted by name. Abstract ones are included: Core Data fetches an
    /// abstract entity as its sub-entities' records, and that list is how a relationship to one is followed.
    public var browsableEntities: [EntitySchema] {
        entities.sorted { $0.name < $1.name }
    }

    /// The entity and all its descendants: the entities whose records a fetch of `name` returns
    /// (Core Data's `includesSubentities`, on by default).
    public func subtree(of name: String) -> Set<String> {
        var result: Set<String> = [name]
        var frontier = [name]
        while let current = frontier.popLast() {
            for child in entities where child.parent == current && !result.contains(child.name) {
                result.insert(child.name)
                frontier.append(child.name)
            }
        }
        return result
    }

    /// The root of the entity's inheritance chain (the entity itself for a root). Core Data stores a whole
    /// inheritance tree in one table and numbers primary keys per root.
    public func root(of name: String) -> String {
        var current = name
        var seen: Set<String> = [name]
        while let parent = entity(named: current)?.parent, !seen.contains(parent) {
            seen.insert(parent)
            current = parent
        }
        return current
    }
}
