/// The whole model as a store knows it: what `GET /api/model` describes and the model diagram draws.
///
/// `StoreSchema` is what requests are validated against (every property an entity has, inherited ones
/// included); this is the model itself, as its source declares it: each entity's *own* properties, with what the
/// model editor shows of them. A source that cannot know a field leaves it nil and says why in `unknown`, keyed
/// by the field's place (`attribute.defaultValue`, `entity.versionHash`…): nil then means "not known", elsewhere it
/// means "none" (no default value, no minimum).
public struct ModelDescription: Sendable, Hashable {
    public var entities: [ModelEntity]
    /// Configurations the model declares (every entity also belongs to the implicit `Default` one); nil when the
    /// source cannot tell.
    public var configurations: [ModelConfiguration]?
    /// `NSStoreModelVersionIdentifiers` / the model's `userDefinedModelVersionIdentifier`; nil when unknown.
    public var versionIdentifiers: [String]?
    /// The hash per entity the store's metadata records (`NSStoreModelVersionHashes`): the model the store was
    /// last written with. Nil for a store without such metadata.
    public var storeVersionHashes: [String: [UInt8]]?
    /// Field place → why the source cannot know it.
    public var unknown: [String: String]

    public init(entities: [ModelEntity], configurations: [ModelConfiguration]? = [], versionIdentifiers: [String]? = [],
                storeVersionHashes: [String: [UInt8]]? = nil, unknown: [String: String] = [:]) {
        self.entities = entities
        self.configurations = configurations
        self.versionIdentifiers = versionIdentifiers
        self.storeVersionHashes = storeVersionHashes
        self.unknown = unknown
    }

    public func entity(named name: String) -> ModelEntity? {
        entities.first { $0.name == name }
    }

    /// A renaming identifier as the model editor shows it: a compiled or live model repeats each element's own
    /// name as its renaming identifier, which is no renaming.
    public static func renaming(_ identifier: String?, of name: String) -> String? {
        identifier == name || identifier?.isEmpty == true ? nil : identifier
    }
}

public struct ModelConfiguration: Sendable, Hashable, Codable {
    public var name: String
    /// The entities it holds, sorted.
    public var entities: [String]

    public init(name: String, entities: [String]) {
        self.name = name
        self.entities = entities.sorted()
    }
}

/// One entity with the properties it declares itself (inherited ones are its ancestors').
public struct ModelEntity: Sendable, Hashable {
    public var name: String
    public var parent: String?
    public var isAbstract: Bool
    /// `representedClassName` / `managedObjectClassName`; nil when unknown.
    public var className: String?
    /// The entity's name in an earlier version (`elementID` / `renamingIdentifier`), when the model gives one.
    public var renamingIdentifier: String?
    /// The model's version hash of this entity; nil when unknown (see `ModelDescription.unknown`).
    public var versionHash: [UInt8]?
    public var attributes: [ModelAttribute]
    public var relationships: [ModelRelationship]
    /// Nil when unknown.
    public var fetchIndexes: [ModelFetchIndex]?
    /// Each constraint is the property names that together must be unique; nil when unknown.
    public var uniquenessConstraints: [[String]]?

    public init(name: String, parent: String? = nil, isAbstract: Bool = false, className: String? = nil,
                renamingIdentifier: String? = nil, versionHash: [UInt8]? = nil, attributes: [ModelAttribute] = [],
                relationships: [ModelRelationship] = [], fetchIndexes: [ModelFetchIndex]? = [],
                uniquenessConstraints: [[String]]? = []) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.className = className
        self.renamingIdentifier = renamingIdentifier
        self.versionHash = versionHash
        self.attributes = attributes
        self.relationships = relationships
        self.fetchIndexes = fetchIndexes
        self.uniquenessConstraints = uniquenessConstraints
    }
}

public struct ModelAttribute: Sendable, Hashable {
    public var name: String
    /// The model editor's type name (`AttributeType`'s raw values, and `Composite`).
    public var type: String
    /// Nil when unknown (a model inferred from tables cannot tell).
    public var isOptional: Bool?
    public var isTransient: Bool
    /// The default value as the model editor writes it (`defaultValueString`): numbers in decimal, Booleans `YES`
    /// or `NO`, dates in ISO 8601; an archived object as its class name in angle brackets. Nil: none, or unknown.
    public var defaultValue: String?
    /// Minimum and maximum (a value for numbers and dates, a length for strings and binary data). Nil: none, or unknown.
    public var minimum: String?
    public var maximum: String?
    public var allowsExternalStorage: Bool?
    public var valueTransformerName: String?
    public var renamingIdentifier: String?
    /// A derived attribute's expression (`NSDerivedAttributeDescription`), when it is one.
    public var derivation: String?
    /// A composite attribute's elements.
    public var elements: [ModelAttribute]

    public init(name: String, type: String, isOptional: Bool? = true, isTransient: Bool = false, defaultValue: String? = nil,
                minimum: String? = nil, maximum: String? = nil, allowsExternalStorage: Bool? = false,
                valueTransformerName: String? = nil, renamingIdentifier: String? = nil, derivation: String? = nil,
                elements: [ModelAttribute] = []) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.allowsExternalStorage = allowsExternalStorage
        self.valueTransformerName = valueTransformerName
        self.renamingIdentifier = renamingIdentifier
        self.derivation = derivation
        self.elements = elements
    }
}

public struct ModelRelationship: Sendable, Hashable {
    /// Core Data's `NSDeleteRule`, named as the model editor names it.
    public enum DeleteRule: String, Sendable, Hashable, Codable {
        case noAction = "No Action"
        case nullify = "Nullify"
        case cascade = "Cascade"
        case deny = "Deny"

        /// `NSDeleteRule`'s raw values (0 no action, 1 nullify, 2 cascade, 3 deny).
        public init?(code: Int) {
            switch code {
            case 0: self = .noAction
            case 1: self = .nullify
            case 2: self = .cascade
            case 3: self = .deny
            default: return nil
            }
        }
    }

    public var name: String
    public var destination: String
    public var inverse: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    /// Nil when unknown.
    public var isOptional: Bool?
    public var isTransient: Bool
    /// Nil when unknown; 0 for "no minimum".
    public var minCount: Int?
    /// Nil when unknown or unbounded (a to-many without a limit); 1 for a to-one.
    public var maxCount: Int?
    /// Nil when unknown.
    public var deleteRule: DeleteRule?
    public var renamingIdentifier: String?

    public init(name: String, destination: String, inverse: String? = nil, isToMany: Bool, isOrdered: Bool = false,
                isOptional: Bool? = true, isTransient: Bool = false, minCount: Int? = nil, maxCount: Int? = nil,
                deleteRule: DeleteRule? = nil, renamingIdentifier: String? = nil) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
    }
}

/// A fetch index (`NSFetchIndexDescription`): the properties SQLite keeps an index on, in order.
public struct ModelFetchIndex: Sendable, Hashable, Codable {
    public struct Element: Sendable, Hashable, Codable {
        public var property: String
        /// `Binary` (a B-tree) or `R-Tree`.
        public var type: String
        public var ascending: Bool

        public init(property: String, type: String = "Binary", ascending: Bool = true) {
            self.property = property
            self.type = type
            self.ascending = ascending
        }
    }

    public var name: String
    public var elements: [Element]

    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
