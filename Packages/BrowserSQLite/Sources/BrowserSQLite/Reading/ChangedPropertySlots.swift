/// Which property each bit of `ACHANGE.ZCOLUMNS` stands for, per entity (format doc §11.1), and the decoding of
/// an update's bitmap into the names of the properties it changed (Core Data's `updatedProperties`).
///
/// Bit *i* is in byte `i / 8` under mask `0x80 >> (i % 8)`; the bitmap is `ceil(n / 8)` bytes for an entity of
/// *n* slots. The slots, inherited properties included: the to-one relationships (foreign keys), the to-ones whose
/// destination has sub-entities again (their entity column), the to-ones whose inverse is an ordered to-many again
/// (their order column), the stored attributes, then the one-to-many and the many-to-many relationships in the
/// order of Core Data's property table (`PropertyTableOrder`).
///
/// A bitmap of another length, or with a bit past the last slot, was written under another model version or by
/// a Core Data whose layout differs: it is not decoded (nil), never guessed. Entities whose layout rests on what
/// was never verified (a composite attribute, a to-one stored only on its inverse's side, a property table too
/// large to replay) have no slots, and their bitmaps are not decoded either.
struct ChangedPropertySlots: Sendable {
    /// Slot names in bit order, by entity name; an entity without a replayable layout is absent.
    private let slotsByEntity: [String: [String]]

    init(model: ModelDefinition, mapping: StoreMapping) {
        let context = Context(model: model, mapping: mapping)
        var tables: [String: PropertyTableOrder] = [:]
        var slots: [String: [String]] = [:]
        for entity in model.entities where mapping.entities[entity.name] != nil {
            if let layout = context.slots(of: entity.name, tables: &tables) { slots[entity.name] = layout }
        }
        slotsByEntity = slots
    }

    func slots(of entity: String) -> [String]? { slotsByEntity[entity] }

    /// The names of the properties whose bits are set, sorted and each once; nil when the entity has no known
    /// layout or the bitmap does not fit it.
    func changedProperties(_ bitmap: [UInt8], entity: String) -> [String]? {
        guard let slots = slotsByEntity[entity], bitmap.count == (slots.count + 7) / 8 else { return nil }
        var names: Set<String> = []
        for bit in Self.setBits(bitmap) {
            guard bit < slots.count else { return nil }
            names.insert(slots[bit])
        }
        return names.sorted()
    }

    /// The positions of the bits set, in the format's numbering (the high bit of the first byte is 0).
    static func setBits(_ bitmap: [UInt8]) -> [Int] {
        var bits: [Int] = []
        for (index, byte) in bitmap.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 { bits.append(index * 8 + bit) }
        }
        return bits
    }

    /// The model and its mapping, read while the slots of each entity are laid out.
    private struct Context {
        let model: ModelDefinition
        let mapping: StoreMapping

        /// The entity's slots; its property table (and its ancestors') is built into `tables` on the way.
        func slots(of entity: String, tables: inout [String: PropertyTableOrder]) -> [String]? {
            let lineage = Array(model.lineage(of: entity).reversed())
            var toOnes: [RelationshipDefinition] = []
            var attributes: [String] = []
            for level in lineage {
                guard !level.attributes.contains(where: { $0.type == .composite }) else { return nil }
                toOnes += level.relationships.filter { !$0.isTransient && !$0.isToMany }.sorted { $0.name < $1.name }
                attributes += level.attributes.filter(StoreMapping.isStored).map(\.name).sorted()
            }
            guard let table = table(of: lineage, tables: &tables) else { return nil }

            let relationships = mapping.entities[entity]?.relationships ?? [:]
            let withEntityColumn = toOnes.filter {
                if case .foreignKey(_, .some)? = relationships[$0.name]?.storage { return true }
                return false
            }
            let withOrderColumn = toOnes.filter { inverse(of: $0)?.isOrdered == true && inverse(of: $0)?.isToMany == true }
            let toManys = lineage.flatMap { $0.relationships.filter { !$0.isTransient && $0.isToMany } }
            let byName = Dictionary(toManys.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let inTableOrder = table.keys.compactMap { byName[$0] }
            guard inTableOrder.count == byName.count else { return nil }
            let oneToMany = inTableOrder.filter { inverse(of: $0)?.isToMany != true }
            let manyToMany = inTableOrder.filter { inverse(of: $0)?.isToMany == true }
            return (toOnes + withEntityColumn + withOrderColumn).map(\.name) + attributes
                + (oneToMany + manyToMany).map(\.name)
        }

        /// The property table of the last entity of `lineage` (root first): a copy of its parent's with the
        /// entity's own keys added. Nil when a key cannot be named (a to-one without its own column) or placed.
        private func table(of lineage: [EntityDefinition], tables: inout [String: PropertyTableOrder]) -> PropertyTableOrder? {
            guard let entity = lineage.last else { return nil }
            if let known = tables[entity.name] { return known.isReplayable ? known : nil }
            var table: PropertyTableOrder
            if lineage.count > 1 {
                guard let parent = self.table(of: Array(lineage.dropLast()), tables: &tables) else { return nil }
                table = parent
            } else {
                table = PropertyTableOrder()
                for key in ["_ent", "_pk", "_opt"] { table.insert(key) }
            }
            for name in entity.attributes.filter(StoreMapping.isStored).map(\.name).sorted() { table.insert(name) }
            let relationships = entity.relationships.filter { !$0.isTransient }
            for toOne in relationships.filter({ !$0.isToMany }).sorted(by: { $0.name < $1.name }) {
                guard case .foreignKey(let column, let entityColumn)? = mapping.entities[entity.name]?.relationships[toOne.name]?.storage
                else {
                    tables[entity.name] = PropertyTableOrder.unreplayable
                    return nil
                }
                table.insert("_" + column.uppercased())
                if let entityColumn { table.insert("_" + entityColumn.uppercased()) }
                table.insert(toOne.name)
            }
            let toManys = relationships.filter(\.isToMany).sorted { $0.name < $1.name }
            for toMany in toManys.filter({ !$0.isOrdered }) + toManys.filter(\.isOrdered) { table.insert(toMany.name) }
            tables[entity.name] = table
            return table.isReplayable ? table : nil
        }

        /// The relationship's inverse, looked up from its destination up the destination's lineage.
        private func inverse(of relationship: RelationshipDefinition) -> RelationshipDefinition? {
            guard let name = relationship.inverse else { return nil }
            for ancestor in model.lineage(of: relationship.destination) {
                if let found = ancestor.relationships.first(where: { $0.name == name }) { return found }
            }
            return nil
        }
    }
}
