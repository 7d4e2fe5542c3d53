#if canImport(CoreData)
import BrowserCore
import CoreData

/// The app's context's unsaved edits (`GET /api/pending`), read inside that context's `perform`: the objects it
/// has inserted, updated and deleted since it last saved (`insertedObjects`, `updatedObjects`, `deletedObjects`).
///
/// - An update lists each key of `changedValues()` with its saved value (`committedValues(forKeys:)`, the last
///   fetched or saved one) and its pending one; an insert lists the values set so far (its `changedValues()`),
///   with no saved value; a delete lists nothing.
/// - Attributes are converted as a record's are (`ManagedRecords.value`). A to-one relationship's value is the
///   related object's ID URI (temporary when that object is unsaved too), a to-many's the number of related
///   objects: listing every member of a large set would swamp the answer, and the related objects are a click
///   away once saved.
/// - Each list is ordered by entity, then ID URI, and holds at most `maximumObjectsPerList` objects; a note says
///   when one was cut.
enum PendingEdits {
    /// At most this many objects in each of the three lists.
    static let maximumObjectsPerList = 500

    static let privateReader = "Unsaved edits live in the app's own context, and this browser reads through a "
        + "private-queue context of its own (reading: .privateQueue, the default), which sees only what is saved. "
        + "To see them, create the server with CoreDataBrowserServer(context:options:reading: .givenContext): "
        + "every request then runs on that context's queue (the main queue for a viewContext)."

    static func read(in context: NSManagedObjectContext) -> PendingChanges {
        var notes: [String] = []
        func list(_ objects: Set<NSManagedObject>, _ kind: String,
                  changes: (NSManagedObject) -> [PendingValue]) -> [PendingObject] {
            let ordered = objects
                .map { (object: $0, entity: $0.entity.name ?? "", uri: $0.objectID.uriRepresentation().absoluteString) }
                .sorted { ($0.entity, $0.uri) < ($1.entity, $1.uri) }
            if ordered.count > maximumObjectsPerList {
                notes.append("\(ordered.count) objects are \(kind); the first \(maximumObjectsPerList) are listed, by entity and ID.")
            }
            return ordered.prefix(maximumObjectsPerList).map {
                PendingObject(uri: $0.uri, entity: $0.entity, isTemporary: $0.object.objectID.isTemporaryID,
                              changes: changes($0.object))
            }
        }
        var changes = PendingChanges(contextName: context.name)
        changes.inserted = list(context.insertedObjects, "inserted") { object in
            object.changedValues().compactMap { key, value in
                pendingValue(key, saved: nil, pending: value, of: object.entity)
            }.sorted { $0.name < $1.name }
        }
        changes.updated = list(context.updatedObjects, "updated") { object in
            let pending = object.changedValues()
            let saved = object.committedValues(forKeys: Array(pending.keys))
            return pending.compactMap { key, value in
                pendingValue(key, saved: .some(saved[key]), pending: value, of: object.entity)
            }.sorted { $0.name < $1.name }
        }
        changes.deleted = list(context.deletedObjects, "deleted") { _ in [] }
        changes.notes = notes
        return changes
    }

    /// One changed property; nil for a key the entity does not describe. `saved` is nil for an insert and
    /// `.some(nil)` for a saved value that is missing.
    private static func pendingValue(_ name: String, saved: Any??, pending: Any,
                                     of entity: NSEntityDescription) -> PendingValue? {
        let convert: (Any?) -> AttributeValue
        if let attribute = entity.attributesByName[name] {
            convert = { ManagedRecords.value($0 is NSNull ? nil : $0, of: attribute) }
        } else if let relationship = entity.relationshipsByName[name] {
            convert = { relationshipValue($0, toMany: relationship.isToMany) }
        } else {
            return nil
        }
        return PendingValue(name: name, saved: saved.map { convert($0) }, pending: convert(pending))
    }

    /// A to-one relationship as the related object's ID URI, a to-many as its number of objects.
    private static func relationshipValue(_ value: Any?, toMany: Bool) -> AttributeValue {
        guard let value, !(value is NSNull) else { return .null }
        if toMany {
            if let set = value as? NSSet { return .integer(Int64(set.count)) }
            if let ordered = value as? NSOrderedSet { return .integer(Int64(ordered.count)) }
            return .undecodable("A to-many relationship's value of type \(type(of: value))")
        }
        if let object = value as? NSManagedObject { return .uri(object.objectID.uriRepresentation().absoluteString) }
        if let id = value as? NSManagedObjectID { return .uri(id.uriRepresentation().absoluteString) }
        return .undecodable("A to-one relationship's value of type \(type(of: value))")
    }
}

#endif
