/// Replays how Core Data names the columns of one table (format doc §7).
///
/// A column is `Z` + the upper-cased property name. All entities of an inheritance tree share their root's
/// table, so two sub-entities may declare properties of the same name: the entity with the lower entity number
/// gets the plain name, later ones a numeric suffix (`ZTITLE`, `ZTITLE1`, …; Notes' `ZACCOUNT`…`ZACCOUNT8`).
/// Within an entity, properties go in name order, a composite's elements (columns named after the element
/// alone) at the composite's place: Cocktail `author.id` → `ZID`, `id` → `ZID1` (seen twice; treated as a rule
/// because the result is checked against the table anyway).
enum ColumnAllocation {
    /// Columns by entity name, then by property key (attribute name, `composite.element`, to-one relationship).
    /// `tree` must be in entity-number order.
    static func allocate(tree: [EntityDefinition], reserved: Set<String>) -> [String: [String: String]] {
        var used = Set(reserved.map { $0.uppercased() })
        var result: [String: [String: String]] = [:]
        for entity in tree {
            var slots: [(order: [String], key: String, base: String)] = []
            for attribute in entity.attributes where StoreMapping.isStored(attribute) {
                if attribute.type == .composite {
                    for element in attribute.elements {
                        slots.append(([attribute.name, element.name], "\(attribute.name).\(element.name)", "Z" + element.name.uppercased()))
                    }
                } else {
                    slots.append(([attribute.name], attribute.name, "Z" + attribute.name.uppercased()))
                }
            }
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                slots.append(([relationship.name], relationship.name, "Z" + relationship.name.uppercased()))
            }
            slots.sort { $0.order.lexicographicallyPrecedes($1.order) }
            var columns: [String: String] = [:]
            for slot in slots {
                var candidate = slot.base
                var suffix = 1
                while used.contains(candidate.uppercased()) {
                    candidate = slot.base + String(suffix)
                    suffix += 1
                }
                used.insert(candidate.uppercased())
                columns[slot.key] = candidate
            }
            result[entity.name] = columns
        }
        return result
    }
}
