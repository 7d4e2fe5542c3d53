#if canImport(CoreData)
import BrowserCore
import CoreData

/// What deleting a live object would do under the model's delete rules, computed from the rules and the object
/// graph without deleting anything (the in-memory store's semantics, `InMemoryStore+Writes`): Cascade reaches
/// records transitively, Nullify clears the inverse on records that stay, Deny blocks while its relationship holds
/// a record, No Action leaves the other side as it is.
///
/// Why walk rather than delete in a child context and look (decision): `delete(_:)` only marks the object, and
/// Core Data applies the rules in `processPendingChanges()`; what it then cleared would have to be read back from
/// each object's `changedValues()` (whose content for relationships this repository has never observed), and a
/// Deny rule is only reported by a failed save. The walk reads what the rules say directly, in the same context
/// and the same `perform` as the delete that follows it, and `delete(_:)` then lets Core Data apply the rules
/// itself. Targets are fetched, not faulted in by ID, so a row a No Action rule left dangling is not counted and
/// never fired (a fault for a missing row raises an exception).
enum LiveDeletion {
    static func effects(of object: NSManagedObject, id: ObjectID, in context: NSManagedObjectContext) throws -> DeletionEffects {
        var deleted: [NSManagedObject] = [object]
        var deletedIDs: Set<NSManagedObjectID> = [object.objectID]
        var links: [(relationship: NSRelationshipDescription, targets: [NSManagedObject])] = []
        var blocked: [Pair: Int] = [:]
        var index = 0
        while index < deleted.count {
            let current = deleted[index]
            index += 1
            for (_, relationship) in current.entity.relationshipsByName.sorted(by: { $0.key < $1.key }) where !relationship.isTransient {
                let targets = try existingTargets(of: current, through: relationship, in: context)
                guard !targets.isEmpty else { continue }
                links.append((relationship, targets))
                switch relationship.deleteRule {
                case .denyDeleteRule:
                    blocked[Pair(current.entity.name ?? "", relationship.name), default: 0] += targets.count
                case .cascadeDeleteRule:
                    for target in targets where deletedIDs.insert(target.objectID).inserted { deleted.append(target) }
                case .nullifyDeleteRule, .noActionDeleteRule:
                    break
                @unknown default:
                    throw BrowserError.forbidden("\(current.entity.name ?? "").\(relationship.name)'s delete rule "
                        + "(\(relationship.deleteRule.rawValue)) is unknown to this version of CoreDataBrowser, so what a delete does cannot be decided")
                }
            }
        }
        var clears: [Pair: Int] = [:]
        for (relationship, targets) in links where relationship.deleteRule == .nullifyDeleteRule {
            guard let inverse = relationship.inverseRelationship?.name else { continue }
            let staying = targets.filter { !deletedIDs.contains($0.objectID) }.count
            if staying > 0 { clears[Pair(relationship.destinationEntity?.name ?? "", inverse), default: 0] += staying }
        }
        var cascades: [String: Int] = [:]
        for record in deleted.dropFirst() { cascades[record.entity.name ?? "", default: 0] += 1 }
        return DeletionEffects(
            id: id.uri,
            cascades: cascades.map { EntityCount(entity: $0.key, count: $0.value) },
            clears: clears.map { RelationshipEffect(entity: $0.key.entity, relationship: $0.key.relationship, count: $0.value) },
            blockedBy: blocked.map { RelationshipEffect(entity: $0.key.entity, relationship: $0.key.relationship, count: $0.value) })
    }

    /// The saved records the relationship holds, fetched (one request), so only rows that exist are returned.
    private static func existingTargets(of object: NSManagedObject, through relationship: NSRelationshipDescription,
                                        in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        var ids: [NSManagedObjectID]
        if relationship.isToMany {
            ids = object.objectIDs(forRelationshipNamed: relationship.name)
        } else {
            ids = (object.value(forKey: relationship.name) as? NSManagedObject).map { [$0.objectID] } ?? []
        }
        ids.removeAll { $0.isTemporaryID }
        guard !ids.isEmpty, let destination = relationship.destinationEntity?.name else { return [] }
        return try context.fetch(FetchRequests.objects(ids, destination: destination))
    }

    private struct Pair: Hashable {
        let entity: String
        let relationship: String
        init(_ entity: String, _ relationship: String) {
            self.entity = entity
            self.relationship = relationship
        }
    }
}

#endif
