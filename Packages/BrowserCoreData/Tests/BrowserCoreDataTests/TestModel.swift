#if canImport(CoreData)
import CoreData

/// The demo library's model (Author, Book, AudioBook, Tag, as `DemoLibrary` declares it), built in code, plus
/// `Sample` with every attribute type (and a Binary allowing external storage, and a Transformable with an app's
/// own transformer), an abstract `Shape` with a concrete `Circle`, and a transient attribute. `Tag.name` is
/// preserved in the persistent history when a tag is deleted (the tombstone the history tests read); that changes
/// nothing for a store without history tracking.
///
/// Delete rules, one of each for the write tests: Author.books Cascade (as the demo's model), Sample.steps No Action,
/// Tag.samples Deny (a tag a sample uses as a step cannot be deleted), every other relationship Nullify.
/// `Circle.radius` has a validation predicate (`SELF <= 100`, the model editor's maximum as the compiled model keeps
/// it) that only Core Data checks: the live model's description leaves bounds unknown, so BrowserCore lets a larger
/// radius through to `save()`. It is on an entity no other test fills, so no other test depends on how Core Data
/// treats it.
enum TestModel {
    /// One instance per process: Core Data warns when two models claim the same entity classes.
    nonisolated(unsafe) static let shared: NSManagedObjectModel = make()

    private static func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true, transient: Bool = false,
                                  external: Bool = false, preservedOnDeletion: Bool = false,
                                  transformer: String? = nil) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        attribute.isTransient = transient
        attribute.allowsExternalBinaryDataStorage = external
        attribute.preservesValueInHistoryOnDeletion = preservedOnDeletion
        attribute.valueTransformerName = transformer
        return attribute
    }

    private static func entity(_ name: String, abstract: Bool = false) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.managedObjectClassName = "NSManagedObject"
        entity.isAbstract = abstract
        return entity
    }

    private static func relate(_ source: NSEntityDescription, _ name: String, to destination: NSEntityDescription, toMany: Bool,
                               inverse: (String, Bool), ordered: Bool = false,
                               rules: (NSDeleteRule, NSDeleteRule) = (.nullifyDeleteRule, .nullifyDeleteRule)) {
        let forward = NSRelationshipDescription()
        forward.name = name
        forward.destinationEntity = destination
        forward.minCount = 0
        forward.maxCount = toMany ? 0 : 1
        forward.isOrdered = ordered
        forward.deleteRule = rules.0
        let backward = NSRelationshipDescription()
        backward.name = inverse.0
        backward.destinationEntity = source
        backward.minCount = 0
        backward.maxCount = inverse.1 ? 0 : 1
        backward.deleteRule = rules.1
        forward.inverseRelationship = backward
        backward.inverseRelationship = forward
        source.properties.append(forward)
        destination.properties.append(backward)
    }

    private static func make() -> NSManagedObjectModel {
        let author = entity("Author"), book = entity("Book"), audioBook = entity("AudioBook"), tag = entity("Tag")
        let sample = entity("Sample"), shape = entity("Shape", abstract: true), circle = entity("Circle")

        author.properties = [attribute("name", .stringAttributeType, optional: false), attribute("bio", .stringAttributeType),
                             attribute("birthDate", .dateAttributeType)]
        book.properties = [
            attribute("title", .stringAttributeType, optional: false), attribute("pageCount", .integer32AttributeType, optional: false),
            attribute("publishedAt", .dateAttributeType), attribute("summary", .stringAttributeType),
            attribute("price", .decimalAttributeType), attribute("rating", .doubleAttributeType),
            attribute("wordCount", .integer64AttributeType), attribute("identifier", .UUIDAttributeType, optional: false),
            attribute("cover", .binaryDataAttributeType), attribute("inPrint", .booleanAttributeType, optional: false),
        ]
        audioBook.properties = [attribute("narrator", .stringAttributeType),
                                attribute("durationMinutes", .integer16AttributeType, optional: false)]
        tag.properties = [attribute("name", .stringAttributeType, optional: false, preservedOnDeletion: true)]
        relate(book, "author", to: author, toMany: false, inverse: ("books", true), rules: (.nullifyDeleteRule, .cascadeDeleteRule))
        relate(book, "tags", to: tag, toMany: true, inverse: ("books", true))
        book.subentities = [audioBook]

        sample.properties = [
            attribute("text", .stringAttributeType), attribute("small", .integer16AttributeType),
            attribute("medium", .integer32AttributeType), attribute("large", .integer64AttributeType),
            attribute("exact", .decimalAttributeType), attribute("real", .doubleAttributeType),
            attribute("single", .floatAttributeType), attribute("flag", .booleanAttributeType),
            attribute("when", .dateAttributeType), attribute("blob", .binaryDataAttributeType),
            attribute("identifier", .UUIDAttributeType), attribute("link", .URIAttributeType),
            attribute("object", .transformableAttributeType), attribute("scratch", .stringAttributeType, transient: true),
            // Core Data may keep a large value of this one in a file of its own beside the store.
            attribute("attachment", .binaryDataAttributeType, external: true),
            // A Transformable with the test's own transformer (`object` names none: Core Data keyed-archives it).
            attribute("opaque", .transformableAttributeType, transformer: NoBytesTransformer.name),
        ]
        relate(sample, "steps", to: tag, toMany: true, inverse: ("samples", true), ordered: true,
               rules: (.noActionDeleteRule, .denyDeleteRule))

        shape.properties = [attribute("name", .stringAttributeType)]
        shape.subentities = [circle]
        let radius = attribute("radius", .doubleAttributeType)
        // The model editor's "Maximum" for a number, as the compiled model keeps it.
        radius.setValidationPredicates([NSPredicate(format: "SELF <= 100", argumentArray: nil)],
                                       withValidationWarnings: ["a radius is at most 100"])
        circle.properties = [radius]

        let model = NSManagedObjectModel()
        model.entities = [author, book, audioBook, tag, sample, shape, circle]
        return model
    }
}

/// An app's own value transformer that makes no Data of what it is given (as one may for a value it does not
/// expect): the adapter then has no bytes to serve, and must say so. Registered by the test that uses it.
final class NoBytesTransformer: ValueTransformer {
    static let name = "CDBTestNoBytesTransformer"

    override func transformedValue(_ value: Any?) -> Any? { nil }
}

#endif
