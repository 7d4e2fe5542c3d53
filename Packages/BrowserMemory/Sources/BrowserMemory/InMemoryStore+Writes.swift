public import BrowserCore

/// Writes through the API, with Core Data's semantics: a write changes all or nothing; setting a
/// relationship keeps its inverse in step (a to-one inverse moves: the record it left loses it); every record whose
/// values or relationships a write changes gets one new version; a delete follows the model's delete rules.
extension InMemoryStore {
    public func insert(into entity: String, _ changes: RecordChanges) async throws -> ObjectID {
        try requireTargets(of: changes)
        let values = changes.attributes.filter { $0.value != .null }
        let id = try insert(entity, values)
        var changed: Set<ObjectID> = []
        for (name, contents) in changes.relationships.sorted(by: { $0.key < $1.key }) {
            try setRelationship(name, of: id, to: contents.targets, changed: &changed)
        }
        changed.remove(id)  // a new record starts at version 1, however many relationships it was given
        bumpVersions(of: changed)
        return id
    }

    public func update(_ id: ObjectID, expecting version: Int64, _ changes: RecordChanges) async throws {
        try requireVersion(version, of: id)
        try requireTargets(of: changes)
        let root = storeSchema.root(of: id.entity)
        for (name, value) in changes.attributes {
            if value == .null {
                tables[root]?[id.primaryKey]?.values[name] = nil
                tables[root]?[id.primaryKey]?.blobs[name] = nil
            } else {
                tables[root]?[id.primaryKey]?.values[name] = value
            }
        }
        var changed: Set<ObjectID> = changes.attributes.isEmpty ? [] : [id]
        for (name, contents) in changes.relationships.sorted(by: { $0.key < $1.key }) {
            try setRelationship(name, of: id, to: contents.targets, changed: &changed)
        }
        bumpVersions(of: changed)
    }

    public func deletionEffects(of id: ObjectID) async throws -> DeletionEffects {
        guard rowExists(id) else { throw BrowserError.notFound("No record \(id.uri)") }
        return try deletionPlan(of: id).effects
    }

    public func delete(_ id: ObjectID, expecting version: Int64) async throws -> DeletionEffects {
        try requireVersion(version, of: id)
        let plan = try deletionPlan(of: id)
        guard plan.effects.blockedBy.isEmpty else {
            throw BrowserError.conflict(
                "\(id.uri) cannot be deleted: a Deny rule keeps it while "
                    + plan.effects.blockedBy.map { "\($0.entity).\($0.relationship) holds \($0.count)" }.joined(separator: ", "),
                .blockedBy(plan.effects.blockedBy))
        }
        for (target, relationship, deleted) in plan.clearedLinks {
            removeLink(from: target, relationship, to: deleted)
        }
        for deleted in plan.deleted {
            tables[storeSchema.root(of: deleted.entity)]?[deleted.primaryKey] = nil
        }
        bumpVersions(of: Set(plan.clearedLinks.map(\.target)))
        return plan.effects
    }

    // MARK: Checks

    private func requireVersion(_ expected: Int64, of id: ObjectID) throws {
        guard let row = row(for: id) else {
            throw BrowserError.notFound("No record \(id.uri): it may have been deleted since it was read")
        }
        guard row.version == expected else {
            throw BrowserError.conflict(
                "\(id.uri) changed since it was read (version \(expected), now \(row.version)): nothing was written",
                .versions(expected: expected, current: row.version))
        }
    }

    /// Every relationship target exists (validation has checked their entities and store), before anything is
    /// written, so a write with one missing target changes nothing.
    private func requireTargets(of changes: RecordChanges) throws {
        var problems: [FieldProblem] = []
        for (name, contents) in changes.relationships.sorted(by: { $0.key < $1.key }) {
            if let missing = contents.targets.first(where: { !rowExists($0) }) {
                problems.append(.relationship(name, "no record \(missing.uri) in this store"))
            }
        }
        if !problems.isEmpty { throw BrowserError.invalidFields(problems) }
    }

    // MARK: Relationships

    /// Replaces the relationship's targets and keeps every inverse in step; `changed` collects the records whose
    /// relationships changed (the source, targets added or removed, and records a to-one inverse moved away from).
    private func setRelationship(_ name: String, of source: ObjectID, to targets: [ObjectID], changed: inout Set<ObjectID>) throws {
        guard let relationship = storeSchema.entity(named: source.entity)?.relationship(named: name) else {
            throw BrowserError.badRequest("\(source.entity) has no relationship \"\(name)\"")
        }
        let old = row(for: source)?.links[name] ?? []
        guard old != targets else { return }
        changed.insert(source)
        setLinks(of: source, name, to: targets)
        guard let inverseName = relationship.inverse else { return }
        for removed in old where !targets.contains(removed) {
            removeLink(from: removed, inverseName, to: source)
            changed.insert(removed)
        }
        for added in targets where !old.contains(added) {
            guard let inverse = storeSchema.entity(named: added.entity)?.relationship(named: inverseName) else { continue }
            if inverse.isToMany {
                setLinks(of: added, inverseName, to: (row(for: added)?.links[inverseName] ?? []) + [source])
            } else {
                // The target's to-one inverse moves to `source`: the record it pointed at loses the target.
                if let previous = row(for: added)?.links[inverseName]?.first, previous != source {
                    removeLink(from: previous, name, to: added)
                    changed.insert(previous)
                }
                setLinks(of: added, inverseName, to: [source])
            }
            changed.insert(added)
        }
    }

    private func setLinks(of id: ObjectID, _ name: String, to targets: [ObjectID]) {
        tables[storeSchema.root(of: id.entity)]?[id.primaryKey]?.links[name] = targets
    }

    private func removeLink(from id: ObjectID, _ name: String, to target: ObjectID) {
        tables[storeSchema.root(of: id.entity)]?[id.primaryKey]?.links[name]?.removeAll { $0 == target }
    }

    private func bumpVersions(of ids: Set<ObjectID>) {
        for id in ids {
            tables[storeSchema.root(of: id.entity)]?[id.primaryKey]?.version += 1
        }
        version += 1
    }

    // MARK: Deleting

    private struct DeletionPlan {
        var deleted: [ObjectID] = []
        /// Links of surviving records to deleted ones that Nullify rules clear: (record, its relationship, deleted).
        var clearedLinks: [(target: ObjectID, relationship: String, deleted: ObjectID)] = []
        var effects: DeletionEffects
    }

    /// The records a delete removes (the record and, transitively, what Cascade rules reach), the links Nullify
    /// rules clear on the records that stay, and the Deny rules that block it. A No Action rule leaves the other
    /// side pointing at the deleted record, as Core Data does.
    private func deletionPlan(of id: ObjectID) throws -> DeletionPlan {
        var deleted: [ObjectID] = [id]
        var deletedSet: Set<ObjectID> = [id]
        var index = 0
        var denied: [(entity: String, relationship: String, targets: [ObjectID])] = []
        while index < deleted.count {
            let current = deleted[index]
            index += 1
            guard let entity = storeSchema.entity(named: current.entity), let row = row(for: current) else { continue }
            for relationship in entity.relationships {
                let targets = (row.links[relationship.name] ?? []).filter(rowExists)
                guard !targets.isEmpty else { continue }
                switch relationship.deleteRule {
                case nil:
                    throw BrowserError.forbidden("\(entity.name).\(relationship.name)'s delete rule is unknown, so what a delete does cannot be decided")
                case .deny:
                    denied.append((entity.name, relationship.name, targets))
                case .cascade:
                    for target in targets where !deletedSet.contains(target) {
                        deletedSet.insert(target)
                        deleted.append(target)
                    }
                case .nullify, .noAction:
                    break
                }
            }
        }
        // A Deny rule blocks while its relationship holds records that stay: records that go in the same delete (a
        // cascade reaching them) do not block it, as the store-file writer decides.
        var blocked: [String: Int] = [:]
        for deny in denied {
            let staying = deny.targets.filter { !deletedSet.contains($0) }.count
            if staying > 0 { blocked["\(deny.entity)\u{0}\(deny.relationship)", default: 0] += staying }
        }
        var cleared: [(target: ObjectID, relationship: String, deleted: ObjectID)] = []
        // Counted in records that lose something (a tag losing four deleted books is one tag changed).
        var clearedRecords: [String: Set<ObjectID>] = [:]
        for current in deleted {
            guard let entity = storeSchema.entity(named: current.entity), let row = row(for: current) else { continue }
            for relationship in entity.relationships where relationship.deleteRule == .nullify {
                guard let inverse = relationship.inverse else { continue }
                for target in (row.links[relationship.name] ?? []) where rowExists(target) && !deletedSet.contains(target) {
                    cleared.append((target, inverse, current))
                    clearedRecords["\(target.entity)\u{0}\(inverse)", default: []].insert(target)
                }
            }
        }
        let clearedCounts = clearedRecords.mapValues(\.count)
        var cascades: [String: Int] = [:]
        for record in deleted.dropFirst() { cascades[record.entity, default: 0] += 1 }
        func effects(_ counts: [String: Int]) -> [RelationshipEffect] {
            counts.map { key, count in
                let parts = key.split(separator: "\u{0}", maxSplits: 1).map(String.init)
                return RelationshipEffect(entity: parts[0], relationship: parts[1], count: count)
            }
        }
        return DeletionPlan(
            deleted: deleted, clearedLinks: cleared,
            effects: DeletionEffects(
                id: id.uri, cascades: cascades.map { EntityCount(entity: $0.key, count: $0.value) },
                clears: effects(clearedCounts), blockedBy: effects(blocked)))
    }
}
