import BrowserCore

/// What deleting a record does under the model's delete rules, worked out from the store before anything is
/// written: `deletionEffects` shows it, `delete` carries it out in the same transaction it was computed in.
///
/// The rules as Core Data applies them: **Cascade** deletes the targets too (transitively); **Nullify** removes the
/// deleted record from each surviving target's inverse; **Deny** refuses the delete while the relationship holds a
/// record that is not itself being deleted; **No Action** leaves the targets as they are, their inverse still
/// naming the deleted record (Core Data's documented meaning: the app must clean up). A surviving target whose
/// required relationship would be left empty (or below its minimum) blocks the delete too, as Core Data's
/// validation of that save would.
struct DeletionPlan {
    struct Removal {
        var source: Int64
        var entity: EntityMapping
        var relationship: RelationshipMapping
        var target: Int64
    }

    /// Every record deleted, the requested one first, with its entity.
    var deleted: [(primaryKey: Int64, entity: EntityMapping)] = []
    /// The pairs to unlink before the rows go: every relationship of a deleted record except No Action ones.
    var removals: [Removal] = []
    var effects: DeletionEffects

    static func make(for primaryKey: Int64, entity: EntityMapping, id: ObjectID, in session: WriteSession) throws -> DeletionPlan {
        var plan = DeletionPlan(effects: DeletionEffects(id: id.uri))
        var deletedRows: Set<RowKey> = [RowKey(table: entity.table, primaryKey: primaryKey)]
        var queue = [(primaryKey, entity)]
        plan.deleted = [(primaryKey, entity)]
        while !queue.isEmpty {
            let (next, nextEntity) = queue.removeFirst()
            for relationship in nextEntity.relationships.values.sorted(by: { $0.name < $1.name }) where relationship.deleteRule == .cascade {
                guard let destination = session.mapping.entities[relationship.destination] else { continue }
                for target in try session.targets(of: next, entity: nextEntity, through: relationship) {
                    let row = RowKey(table: destination.table, primaryKey: target)
                    guard deletedRows.insert(row).inserted else { continue }
                    let targetEntity = try session.entity(of: target, in: destination.table)
                    plan.deleted.append((target, targetEntity))
                    queue.append((target, targetEntity))
                }
            }
        }

        var cascades: [String: Int] = [:]
        for (_, deletedEntity) in plan.deleted.dropFirst() { cascades[deletedEntity.name, default: 0] += 1 }
        // Counted in records that lose something (a tag losing four deleted books is one tag changed), as every store counts.
        var clears: [String: [String: Set<Int64>]] = [:]
        var blocked: [String: [String: Int]] = [:]
        /// Surviving targets whose inverse loses members: checked against the inverse's required rules below.
        var losing: [RowKey: (entity: EntityMapping, inverse: RelationshipMapping)] = [:]
        for (source, sourceEntity) in plan.deleted {
            for relationship in sourceEntity.relationships.values.sorted(by: { $0.name < $1.name }) {
                guard let destination = session.mapping.entities[relationship.destination] else { continue }
                let targets = try session.targets(of: source, entity: sourceEntity, through: relationship)
                let surviving = targets.filter { !deletedRows.contains(RowKey(table: destination.table, primaryKey: $0)) }
                switch relationship.deleteRule {
                case .deny where !surviving.isEmpty:
                    blocked[sourceEntity.name, default: [:]][relationship.name, default: 0] += surviving.count
                    continue
                case .noAction, nil:
                    continue
                default:
                    break
                }
                let inverse = WriteRefusal.inverse(of: relationship, in: session.mapping)
                for target in targets {
                    plan.removals.append(Removal(source: source, entity: sourceEntity, relationship: relationship, target: target))
                }
                guard let inverse else { continue }
                for target in surviving {
                    let targetEntity = try session.entity(of: target, in: destination.table)
                    clears[targetEntity.name, default: [:]][inverse.name, default: []].insert(target)
                    losing[RowKey(table: destination.table, primaryKey: target)] = (targetEntity, inverse)
                }
            }
        }
        for (row, loss) in losing.sorted(by: { ($0.key.table, $0.key.primaryKey) < ($1.key.table, $1.key.primaryKey) }) {
            guard let destination = session.mapping.entities[loss.inverse.destination] else { continue }
            let remaining = try session.targets(of: row.primaryKey, entity: loss.entity, through: loss.inverse)
                .filter { !deletedRows.contains(RowKey(table: destination.table, primaryKey: $0)) }.count
            let required = !loss.inverse.isOptional || (loss.inverse.isToMany && loss.inverse.minCount > 0)
            if required, remaining < max(1, loss.inverse.minCount) {
                blocked[loss.entity.name, default: [:]][loss.inverse.name, default: 0] += 1
            }
        }
        plan.effects = DeletionEffects(
            id: id.uri,
            cascades: cascades.map { EntityCount(entity: $0.key, count: $0.value) },
            clears: clears.flatMap { entity, rows in rows.map { RelationshipEffect(entity: entity, relationship: $0.key, count: $0.value.count) } },
            blockedBy: blocked.flatMap { entity, counts in counts.map { RelationshipEffect(entity: entity, relationship: $0.key, count: $0.value) } })
        return plan
    }
}
