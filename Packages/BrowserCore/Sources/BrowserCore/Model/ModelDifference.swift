/// What differs between two versions of a model, as Core Data's lightweight migration would pair them up:
/// entities and properties are the same when their names are equal, or when one's renaming identifier
/// (`elementID` in the model editor) names the other — a renaming. The rest is added or removed; a pair whose
/// declared fields differ is changed, field by field.
public struct ModelDifference: Sendable, Hashable {
    public enum Change: String, Sendable, Hashable, Codable {
        case added, removed, renamed, changed
    }

    /// One field that differs: its name and the values before and after, as `/api/model` writes them.
    public struct Field: Sendable, Hashable, Codable {
        public var field: String
        public var from: String?
        public var to: String?

        public init(field: String, from: String?, to: String?) {
            self.field = field
            self.from = from
            self.to = to
        }

        private enum CodingKeys: String, CodingKey { case field, from, to }
        /// `from` and `to` are always written: `null` says the version has no value there (no parent, no
        /// default), which a reader must not confuse with a key left out.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(field, forKey: .field)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
        }
    }

    public struct Property: Sendable, Hashable {
        /// The name in the later (`to`) version; in the earlier one for a removed property.
        public var name: String
        public var previousName: String?
        public var change: Change
        public var fields: [Field]
    }

    public struct Entity: Sendable, Hashable {
        public var name: String
        public var previousName: String?
        public var change: Change
        public var fields: [Field]
        public var attributes: [Property]
        public var relationships: [Property]
    }

    public var entities: [Entity]

    /// The differences from `old` to `new`; entities and properties that did not change are left out.
    public static func between(_ old: ModelDescription, _ new: ModelDescription) -> ModelDifference {
        var result: [Entity] = []
        let pairs = pair(old.entities, new.entities, name: \.name, renaming: \.renamingIdentifier)
        for (before, after) in pairs {
            switch (before, after) {
            case (let before?, nil):
                result.append(Entity(name: before.name, change: .removed, fields: [], attributes: [], relationships: []))
            case (nil, let after?):
                result.append(Entity(name: after.name, change: .added, fields: [], attributes: [], relationships: []))
            case (let before?, let after?):
                let fields = entityFields(before, after)
                let attributes = properties(before.attributes, after.attributes, name: \.name, renaming: \.renamingIdentifier,
                                            fields: attributeFields)
                let relationships = properties(before.relationships, after.relationships, name: \.name,
                                               renaming: \.renamingIdentifier, fields: relationshipFields)
                let renamed = before.name != after.name
                if renamed || !fields.isEmpty || !attributes.isEmpty || !relationships.isEmpty {
                    result.append(Entity(name: after.name, previousName: renamed ? before.name : nil,
                                         change: renamed ? .renamed : .changed, fields: fields,
                                         attributes: attributes, relationships: relationships))
                }
            case (nil, nil):
                break
            }
        }
        return ModelDifference(entities: result.sorted { $0.name < $1.name })
    }

    /// Pairs items of two lists: equal names first, then renamings (the later item's renaming identifier naming an
    /// earlier item, or the other way round when comparing a later version with an earlier one).
    static func pair<T>(_ old: [T], _ new: [T], name: (T) -> String, renaming: (T) -> String?) -> [(T?, T?)] {
        var unmatchedOld = Dictionary(old.map { (name($0), $0) }, uniquingKeysWith: { first, _ in first })
        var result: [(T?, T?)] = []
        var unmatchedNew: [T] = []
        for item in new {
            if let match = unmatchedOld.removeValue(forKey: name(item)) {
                result.append((match, item))
            } else {
                unmatchedNew.append(item)
            }
        }
        for item in unmatchedNew {
            if let previous = renaming(item), let match = unmatchedOld.removeValue(forKey: previous) {
                result.append((match, item))
            } else if let key = unmatchedOld.keys.sorted().first(where: { renaming(unmatchedOld[$0]!) == name(item) }),
                      let match = unmatchedOld.removeValue(forKey: key) {
                result.append((match, item))
            } else {
                result.append((nil, item))
            }
        }
        for key in unmatchedOld.keys.sorted() { result.append((unmatchedOld[key], nil)) }
        return result
    }

    private static func properties<T>(_ old: [T], _ new: [T], name: (T) -> String, renaming: (T) -> String?,
                                      fields: (T, T) -> [Field]) -> [Property] {
        pair(old, new, name: name, renaming: renaming).compactMap { before, after -> Property? in
            switch (before, after) {
            case (let before?, nil): return Property(name: name(before), change: .removed, fields: [])
            case (nil, let after?): return Property(name: name(after), change: .added, fields: [])
            case (let before?, let after?):
                let changed = fields(before, after)
                if name(before) != name(after) {
                    return Property(name: name(after), previousName: name(before), change: .renamed, fields: changed)
                }
                return changed.isEmpty ? nil : Property(name: name(after), change: .changed, fields: changed)
            case (nil, nil): return nil
            }
        }.sorted { $0.name < $1.name }
    }

    private static func compare(_ field: String, _ before: String?, _ after: String?, into fields: inout [Field]) {
        if before != after { fields.append(Field(field: field, from: before, to: after)) }
    }

    private static func text(_ value: Bool?) -> String? { value.map { $0 ? "true" : "false" } }
    private static func text(_ value: Int?) -> String? { value.map(String.init) }

    private static func entityFields(_ before: ModelEntity, _ after: ModelEntity) -> [Field] {
        var fields: [Field] = []
        compare("parent", before.parent, after.parent, into: &fields)
        compare("abstract", text(before.isAbstract), text(after.isAbstract), into: &fields)
        compare("className", before.className, after.className, into: &fields)
        func indexes(_ entity: ModelEntity) -> String? {
            entity.fetchIndexes.map { $0.map { "\($0.name)(\($0.elements.map(\.property).joined(separator: ",")))" }.sorted().joined(separator: "; ") }
        }
        func constraints(_ entity: ModelEntity) -> String? {
            entity.uniquenessConstraints.map { $0.map { $0.joined(separator: "+") }.sorted().joined(separator: "; ") }
        }
        compare("fetchIndexes", indexes(before), indexes(after), into: &fields)
        compare("uniquenessConstraints", constraints(before), constraints(after), into: &fields)
        return fields
    }

    private static func attributeFields(_ before: ModelAttribute, _ after: ModelAttribute) -> [Field] {
        var fields: [Field] = []
        compare("type", before.type, after.type, into: &fields)
        compare("optional", text(before.isOptional), text(after.isOptional), into: &fields)
        compare("transient", text(before.isTransient), text(after.isTransient), into: &fields)
        compare("defaultValue", before.defaultValue, after.defaultValue, into: &fields)
        compare("minimum", before.minimum, after.minimum, into: &fields)
        compare("maximum", before.maximum, after.maximum, into: &fields)
        compare("externalStorage", text(before.allowsExternalStorage), text(after.allowsExternalStorage), into: &fields)
        compare("transformer", before.valueTransformerName, after.valueTransformerName, into: &fields)
        compare("derivation", before.derivation, after.derivation, into: &fields)
        return fields
    }

    private static func relationshipFields(_ before: ModelRelationship, _ after: ModelRelationship) -> [Field] {
        var fields: [Field] = []
        compare("destination", before.destination, after.destination, into: &fields)
        compare("inverse", before.inverse, after.inverse, into: &fields)
        compare("toMany", text(before.isToMany), text(after.isToMany), into: &fields)
        compare("ordered", text(before.isOrdered), text(after.isOrdered), into: &fields)
        compare("optional", text(before.isOptional), text(after.isOptional), into: &fields)
        compare("transient", text(before.isTransient), text(after.isTransient), into: &fields)
        compare("minCount", text(before.minCount), text(after.minCount), into: &fields)
        compare("maxCount", text(before.maxCount), text(after.maxCount), into: &fields)
        compare("deleteRule", before.deleteRule?.rawValue, after.deleteRule?.rawValue, into: &fields)
        return fields
    }
}
