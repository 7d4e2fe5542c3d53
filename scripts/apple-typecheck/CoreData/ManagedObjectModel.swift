// The model: NSManagedObjectModel, entities, properties.

/// https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel
open class NSManagedObjectModel: NSObject {
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/init(contentsof:)
    /// `convenience init?(contentsOf url: URL)`
    public convenience init?(contentsOf url: URL) { self.init() }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/entities
    /// `var entities: [NSEntityDescription] { get set }`
    open var entities: [NSEntityDescription] = []
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/entitiesbyname
    /// `var entitiesByName: [String : NSEntityDescription] { get }`
    open var entitiesByName: [String: NSEntityDescription] { [:] }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/configurations
    /// `var configurations: [String] { get }`
    open var configurations: [String] { [] }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/entities(forconfigurationname:)
    /// `func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]?`
    open func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? { nil }
    /// https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/versionidentifiers
    /// `var versionIdentifiers: Set<AnyHashable> { get set }`
    open var versionIdentifiers: Set<AnyHashable> = []
}

/// https://developer.apple.com/documentation/coredata/nsentitydescription
open class NSEntityDescription: NSObject {
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/name
    /// `var name: String? { get set }`
    open var name: String?
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/managedobjectclassname
    /// `var managedObjectClassName: String! { get set }`
    open var managedObjectClassName: String!
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/isabstract
    /// `var isAbstract: Bool { get set }`
    open var isAbstract: Bool = false
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/superentity
    /// `unowned(unsafe) var superentity: NSEntityDescription? { get }`
    open var superentity: NSEntityDescription? { nil }
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/subentities
    /// `var subentities: [NSEntityDescription] { get set }`
    open var subentities: [NSEntityDescription] = []
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/properties
    /// `var properties: [NSPropertyDescription] { get set }`
    open var properties: [NSPropertyDescription] = []
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/attributesbyname
    /// `var attributesByName: [String : NSAttributeDescription] { get }`
    open var attributesByName: [String: NSAttributeDescription] { [:] }
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/relationshipsbyname
    /// `var relationshipsByName: [String : NSRelationshipDescription] { get }`
    open var relationshipsByName: [String: NSRelationshipDescription] { [:] }
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/propertiesbyname
    /// `var propertiesByName: [String : NSPropertyDescription] { get }`
    open var propertiesByName: [String: NSPropertyDescription] { [:] }
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/versionhash
    /// `var versionHash: Data { get }`
    open var versionHash: Data { Data() }
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/renamingidentifier
    /// `var renamingIdentifier: String? { get set }`
    open var renamingIdentifier: String?
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/uniquenessconstraints
    /// `var uniquenessConstraints: [[Any]] { get set }` (iOS 9)
    open var uniquenessConstraints: [[Any]] = []
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/indexes
    /// `var indexes: [NSFetchIndexDescription] { get set }` (iOS 11)
    open var indexes: [NSFetchIndexDescription] = []
    /// https://developer.apple.com/documentation/coredata/nsentitydescription/insertnewobject(forentityname:into:)
    /// `class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject`
    open class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        fatalError()
    }
}

/// https://developer.apple.com/documentation/coredata/nspropertydescription
open class NSPropertyDescription: NSObject {
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nspropertydescription/name — `var name: String { get set }`
    open var name: String = ""
    /// https://developer.apple.com/documentation/coredata/nspropertydescription/isoptional — `var isOptional: Bool { get set }`
    open var isOptional: Bool = true
    /// https://developer.apple.com/documentation/coredata/nspropertydescription/istransient — `var isTransient: Bool { get set }`
    open var isTransient: Bool = false
    /// https://developer.apple.com/documentation/coredata/nspropertydescription/renamingidentifier
    /// `var renamingIdentifier: String? { get set }`
    open var renamingIdentifier: String?
    /// https://developer.apple.com/documentation/coredata/nspropertydescription/setvalidationpredicates(_:withvalidationwarnings:)
    /// `func setValidationPredicates(_ validationPredicates: [NSPredicate]?, withValidationWarnings validationWarnings: [String]?)`
    open func setValidationPredicates(_ validationPredicates: [NSPredicate]?, withValidationWarnings validationWarnings: [String]?) {}
}

/// https://developer.apple.com/documentation/coredata/nsfetchindexdescription (iOS 11)
open class NSFetchIndexDescription: NSObject {
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nsfetchindexdescription/name — `var name: String { get set }`
    open var name: String = ""
    /// https://developer.apple.com/documentation/coredata/nsfetchindexdescription/elements
    /// `var elements: [NSFetchIndexElementDescription] { get set }`
    open var elements: [NSFetchIndexElementDescription] = []
}

/// https://developer.apple.com/documentation/coredata/nsfetchindexelementtype
public enum NSFetchIndexElementType: UInt, Sendable {
    case binary = 0, rTree = 1
}

/// https://developer.apple.com/documentation/coredata/nsfetchindexelementdescription (iOS 11)
open class NSFetchIndexElementDescription: NSObject {
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nsfetchindexelementdescription/propertyname
    /// `var propertyName: String? { get }`
    open var propertyName: String? { nil }
    /// https://developer.apple.com/documentation/coredata/nsfetchindexelementdescription/collationtype
    /// `var collationType: NSFetchIndexElementType { get set }`
    open var collationType: NSFetchIndexElementType = .binary
    /// https://developer.apple.com/documentation/coredata/nsfetchindexelementdescription/isascending
    /// `var isAscending: Bool { get set }`
    open var isAscending: Bool = true
}

/// https://developer.apple.com/documentation/coredata/nsattributetype
/// `enum NSAttributeType` (NS_ENUM of NSUInteger, not frozen: this module is built with library evolution so a
/// `switch` needs a `default` here as it does there).
public enum NSAttributeType: UInt, Sendable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    /// https://developer.apple.com/documentation/coredata/nsattributetype/uuidattributetype (iOS 11)
    case UUIDAttributeType = 1100
    /// https://developer.apple.com/documentation/coredata/nsattributetype/uriattributetype (iOS 11)
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    case compositeAttributeType = 2100
}

/// https://developer.apple.com/documentation/coredata/nsattributedescription
open class NSAttributeDescription: NSPropertyDescription {
    /// https://developer.apple.com/documentation/coredata/nsattributedescription/attributetype-swift.property
    /// `var attributeType: NSAttributeType { get set }`
    open var attributeType: NSAttributeType = .undefinedAttributeType
    /// https://developer.apple.com/documentation/coredata/nsattributedescription/valuetransformername
    /// `var valueTransformerName: String? { get set }`
    open var valueTransformerName: String?
    /// https://developer.apple.com/documentation/coredata/nsattributedescription/allowsexternalbinarydatastorage
    /// `var allowsExternalBinaryDataStorage: Bool { get set }`
    open var allowsExternalBinaryDataStorage: Bool = false
    /// https://developer.apple.com/documentation/coredata/nsattributedescription/preservesvalueinhistoryondeletion
    /// `var preservesValueInHistoryOnDeletion: Bool { get set }` (iOS 13)
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open var preservesValueInHistoryOnDeletion: Bool = false
    /// https://developer.apple.com/documentation/coredata/nsattributedescription/defaultvalue
    /// `var defaultValue: Any? { get set }`
    open var defaultValue: Any?
}

/// https://developer.apple.com/documentation/coredata/nsderivedattributedescription (iOS 13)
open class NSDerivedAttributeDescription: NSAttributeDescription {
    /// https://developer.apple.com/documentation/coredata/nsderivedattributedescription/derivationexpression
    /// `var derivationExpression: NSExpression? { get set }`
    open var derivationExpression: NSExpression?
}

/// https://developer.apple.com/documentation/coredata/nsexpressiondescription — `class NSExpressionDescription`
/// (a subclass of NSPropertyDescription: its `name` names the value in a dictionary result)
open class NSExpressionDescription: NSPropertyDescription {
    /// https://developer.apple.com/documentation/coredata/nsexpressiondescription/expression — `var expression: NSExpression? { get set }`
    open var expression: NSExpression?
    /// https://developer.apple.com/documentation/coredata/nsexpressiondescription/expressionresulttype
    /// `var expressionResultType: NSAttributeType { get set }`
    open var expressionResultType: NSAttributeType = .undefinedAttributeType
}

/// https://developer.apple.com/documentation/coredata/nsdeleterule
public enum NSDeleteRule: UInt, Sendable {
    case noActionDeleteRule = 0, nullifyDeleteRule = 1, cascadeDeleteRule = 2, denyDeleteRule = 3
}

/// https://developer.apple.com/documentation/coredata/nsrelationshipdescription
open class NSRelationshipDescription: NSPropertyDescription {
    /// https://developer.apple.com/documentation/coredata/nsrelationshipdescription/destinationentity
    /// `unowned(unsafe) var destinationEntity: NSEntityDescription? { get set }`
    open var destinationEntity: NSEntityDescription?
    /// https://developer.apple.com/documentation/coredata/nsrelationshipdescription/inverserelationship
    /// `unowned(unsafe) var inverseRelationship: NSRelationshipDescription? { get set }`
    open var inverseRelationship: NSRelationshipDescription?
    /// https://developer.apple.com/documentation/coredata/nsrelationshipdescription/maxcount — `var maxCount: Int { get set }`
    open var maxCount: Int = 0
    /// https://developer.apple.com/documentation/coredata/nsrelationshipdescription/mincount — `var minCount: Int { get set }`
    open var minCount: Int = 0
    /// https://developer.apple.com/documentation/coredata/nsrelationshipdescription/deleterule — `var deleteRule: NSDeleteRule { get set }`
    open var deleteRule: NSDeleteRule = .nullifyDeleteRule
    /// https://developer.apple.com/documentation/coredata/nsrelationshipdescription/istomany — `var isToMany: Bool { get }`
    open var isToMany: Bool { maxCount != 1 }
    /// https://developer.apple.com/documentation/coredata/nsrelationshipdescription/isordered — `var isOrdered: Bool { get set }`
    open var isOrdered: Bool = false
}
