#if canImport(CoreData)
import BrowserCore
import CoreData

/// Reads managed objects into `StoredRecord`s, inside the context's queue. Only these Sendable values leave it.
enum ManagedRecords {
    /// The record's ID and the values of its concrete entity's stored attributes, converted by BrowserCore so
    /// the JSON is the same as the store-file reader's for the same data.
    static func record(_ object: NSManagedObject) throws -> StoredRecord {
        try record(object, readsExternalStorage: true)
    }

    /// A row of a list (a page, an ordered relationship's page, related records): the record's values, except that an
    /// attribute allowing external storage (`allowsExternalBinaryDataStorage`) is not read. Its row holds only a
    /// reference when Core Data moved the value to a file of its own, and `value(forKey:)` then reads that whole file
    /// to give a `Data` (Core Data has no public way to learn the size without it), so a page of 500 records with
    /// attachments would load every attachment. The row says so instead; the record's own route (`record(_:)`) reads
    /// the value and gives its size.
    ///
    /// Other Binary and Transformable attributes are read as before (decision): their bytes are in the row the page's
    /// fetch has already loaded, so counting them costs no further read. A dictionary fetch with `propertiesToFetch`
    /// would leave them out, but it returns the store's saved values only (not the unsaved ones `.givenContext`
    /// shows) and only the fetched entity's own attributes (a parent entity's list shows its sub-entities' too).
    static func listRow(_ object: NSManagedObject) throws -> StoredRecord {
        try record(object, readsExternalStorage: false)
    }

    private static func record(_ object: NSManagedObject, readsExternalStorage: Bool) throws -> StoredRecord {
        var values: [String: AttributeValue] = [:]
        for (name, attribute) in object.entity.attributesByName where !attribute.isTransient {
            values[name] = readsExternalStorage || !attribute.allowsExternalBinaryDataStorage
                ? value(object.value(forKey: name), of: attribute) : .undecodable(notReadInLists)
        }
        return StoredRecord(id: try objectID(object.objectID), values: values)
    }

    static let notReadInLists = "not read in lists (Core Data may keep this value in a file of its own): "
        + "open the record to see its size"

    /// The URI form of a saved object's ID, parsed by BrowserCore.
    static func objectID(_ id: NSManagedObjectID) throws -> ObjectID {
        try ObjectID(uri: id.uriRepresentation().absoluteString)
    }

    /// The primary key in an ID's URI (`…/p42`), for ordering unordered relationships as the SQLite reader does.
    static func primaryKey(_ id: NSManagedObjectID) -> Int64 {
        (try? objectID(id))?.primaryKey ?? Int64.max
    }

    static func value(_ value: Any?, of attribute: NSAttributeDescription) -> AttributeValue {
        let type = ModelSchema.attributeType(attribute.attributeType)
        if type == .transformable, let value, !(value is Data) {
            return transformedSize(value, transformerName: attribute.valueTransformerName)
        }
        return AttributeValue(foundationValue: value, type: type)
    }

    /// A Transformable attribute holds the object, not the bytes Core Data stored; the size shown is that of
    /// the bytes its transformer makes of it now (what the store holds, for the system transformers).
    private static func transformedSize(_ value: Any, transformerName: String?) -> AttributeValue {
        guard let data = transformedData(value, transformerName: transformerName) else {
            return .undecodable("Transformable value of type \(type(of: value)) could not be transformed to data")
        }
        return .binary(byteCount: data.count)
    }

    /// The bytes its transformer makes of a Transformable value now: what the store holds, for the system
    /// transformers (Core Data keeps only the object in memory, not the bytes it read).
    static func transformedData(_ value: Any, transformerName: String?) -> Data? {
        if let transformerName, let transformer = ValueTransformer(forName: NSValueTransformerName(rawValue: transformerName)) {
            // The unarchiving transformers (the default since iOS 12) turn Data into objects, so Core Data runs
            // them in reverse to store; a custom transformer turns the object into Data forwards.
            return transformer is NSSecureUnarchiveFromDataTransformer
                ? transformer.reverseTransformedValue(value) as? Data
                : transformer.transformedValue(value) as? Data
        }
        // No transformer name: Core Data keyed-archives the value.
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: false)
    }

    /// The bytes of a Binary or Transformable value (nil for nil). Core Data loads a value kept in an external
    /// file whole, so the live adapter cannot stream it or tell where it was kept.
    static func bytes(_ value: Any?, of attribute: NSAttributeDescription, recordName: String) throws -> Data? {
        guard let value else { return nil }
        if let data = value as? Data { return data }
        guard let data = transformedData(value, transformerName: attribute.valueTransformerName) else {
            throw BrowserError.notFound("\(recordName).\(attribute.name) holds a \(type(of: value)) that its transformer "
                + "does not turn into bytes, so there are none to show")
        }
        return data
    }
}

#endif
