import BrowserCore

/// A Core Data model as this package reads it, whichever file it came from (an `.xcdatamodel`'s XML, a compiled
/// `.mom`, the store's `Z_MODELCACHE`) or inferred from the tables.
///
/// Entities list their *own* properties only; `normalized()` removes inherited copies (the model cache repeats
/// them in every sub-entity, a compiled `.mom` does not — format doc §4).
struct ModelDefinition: Sendable {
    var entities: [EntityDefinition]
    /// `NSStoreModelVersionIdentifiers` / `userDefinedModelVersionIdentifier`.
    var versionIdentifiers: [String] = []
    /// Named configurations (`NSConfigurations` / `<configuration>`).
    var configurations: [ModelConfiguration] = []

    func entity(named name: String) -> EntityDefinition? {
        entities.first { $0.name == name }
    }

    /// The model with inherited properties removed from sub-entities and parents that do not exist dropped.
    func normalized() -> ModelDefinition {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var result = self
        result.entities = entities.map { entity in
            var entity = entity
            if let parent = entity.parent, byName[parent] == nil { entity.parent = nil }
            var inherited: Set<String> = []
            var ancestor = entity.parent
            var seen: Set<String> = [entity.name]
            while let name = ancestor, !seen.contains(name), let parent = byName[name] {
                seen.insert(name)
                inherited.formUnion(parent.attributes.map(\.name))
                inherited.formUnion(parent.relationships.map(\.name))
                ancestor = parent.parent
            }
            entity.attributes.removeAll { inherited.contains($0.name) }
            entity.relationships.removeAll { inherited.contains($0.name) }
            return entity
        }
        return result
    }

    /// The chain from the entity up to its root, the entity first.
    func lineage(of name: String) -> [EntityDefinition] {
        var chain: [EntityDefinition] = []
        var current: String? = name
        var seen: Set<String> = []
        while let next = current, !seen.contains(next), let entity = entity(named: next) {
            seen.insert(next)
            chain.append(entity)
            current = entity.parent
        }
        return chain
    }
}

struct EntityDefinition: Sendable, Hashable {
    var name: String
    var parent: String?
    var isAbstract: Bool = false
    /// The entity's name in an earlier model version (`elementID` / `NSRenamingIdentifier`); the store's
    /// `Z_PRIMARYKEY` may still carry it.
    var renamingIdentifier: String?
    var attributes: [AttributeDefinition] = []
    var relationships: [RelationshipDefinition] = []
    /// `representedClassName` / `NSClassNameForEntity`.
    var className: String?
    var fetchIndexes: [ModelFetchIndex] = []
    var uniquenessConstraints: [[String]] = []
}

struct AttributeDefinition: Sendable, Hashable {
    var name: String
    var type: AttributeKind
    var isOptional: Bool = true
    /// Transient attributes have no column.
    var isTransient: Bool = false
    /// "Allows External Storage": stored values start with a marker byte (format doc §9).
    var allowsExternalStorage: Bool = false
    /// `NSValueTransformerName` (archived) / `valueTransformerName` (XML) of a Transformable attribute.
    var valueTransformerName: String?
    /// The elements of a composite attribute; each has a column of its own (format doc §7).
    var elements: [AttributeDefinition] = []
    /// As `ModelAttribute` spells them.
    var defaultValue: String?
    var minimum: String?
    var maximum: String?
    var renamingIdentifier: String?
    var derivation: String?
}

struct RelationshipDefinition: Sendable, Hashable {
    var name: String
    var destination: String
    var inverse: String?
    var isToMany: Bool
    var isOrdered: Bool = false
    var isOptional: Bool = true
    var isTransient: Bool = false
    /// 0 when the model sets no minimum.
    var minCount: Int = 0
    /// Nil for an unbounded to-many.
    var maxCount: Int?
    /// Nil when the model does not say (an inferred model).
    var deleteRule: ModelRelationship.DeleteRule?
    var renamingIdentifier: String?
}

/// An attribute type by Core Data's `NSAttributeType` code (format doc §7).
struct AttributeKind: Sendable, Hashable {
    var code: Int

    static let undefined = AttributeKind(code: 0)
    static let integer16 = AttributeKind(code: 100)
    static let integer32 = AttributeKind(code: 200)
    static let integer64 = AttributeKind(code: 300)
    static let decimal = AttributeKind(code: 400)
    static let double = AttributeKind(code: 500)
    static let float = AttributeKind(code: 600)
    static let string = AttributeKind(code: 700)
    static let boolean = AttributeKind(code: 800)
    static let date = AttributeKind(code: 900)
    static let binary = AttributeKind(code: 1000)
    static let uuid = AttributeKind(code: 1100)
    static let uri = AttributeKind(code: 1200)
    static let transformable = AttributeKind(code: 1800)
    static let objectID = AttributeKind(code: 2000)
    static let composite = AttributeKind(code: 2100)

    /// BrowserCore's type; composites never reach BrowserCore (their elements do), unknown codes are `undefined`.
    var attributeType: AttributeType {
        switch code {
        case 100: .integer16
        case 200: .integer32
        case 300: .integer64
        case 400: .decimal
        case 500: .double
        case 600: .float
        case 700: .string
        case 800: .boolean
        case 900: .date
        case 1000: .binary
        case 1100: .uuid
        case 1200: .uri
        case 1800: .transformable
        case 2000: .objectID
        default: .undefined
        }
    }

    /// The kind for an XML `attributeType` (the model editor's names, which are also `AttributeType` raw values).
    init?(xmlName: String) {
        switch xmlName {
        case "Composite": self = .composite
        case "Undefined": self = .undefined
        default:
            guard let type = AttributeType(rawValue: xmlName) else { return nil }
            guard let kind = Self.all.first(where: { $0.attributeType == type }) else { return nil }
            self = kind
        }
    }

    init(code: Int) {
        self.code = code
    }

    private static let all: [AttributeKind] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid,
        .uri, .transformable, .objectID,
    ]
}
