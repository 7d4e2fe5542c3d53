#if canImport(CoreData)
import BrowserCore
import CoreData

/// Sets a validated `RecordChanges` on a managed object, inside its context's `perform`: every value converted and
/// every relationship target fetched first, so a problem (422, per field) is found before anything is set.
///
/// Relationships are set whole through `setValue(_:forKey:)` (an `NSOrderedSet` for an ordered to-many, an `NSSet`
/// otherwise, the object or nil for a to-one): Core Data keeps the inverse side in step itself. Targets are fetched
/// by ID in one request per relationship, never faulted in by `object(with:)`, so an ID of a row that is gone is a
/// 422 naming the relationship instead of an exception when its fault fires.
enum ManagedChanges {
    static func apply(_ changes: RecordChanges, to object: NSManagedObject, in context: NSManagedObjectContext) throws {
        let entityName = object.entity.name ?? "record"
        var problems: [FieldProblem] = []
        var values: [(String, Any?)] = []
        for (name, value) in changes.attributes.sorted(by: { $0.key < $1.key }) {
            // Names come from validation against this model; checked again because a key Core Data does not know is
            // an exception (NSUnknownKeyException), and a derived attribute is Core Data's to compute.
            guard let attribute = object.entity.attributesByName[name], !attribute.isTransient,
                  !(attribute is NSDerivedAttributeDescription) else {
                problems.append(.attribute(name, "\(entityName) has no stored attribute \"\(name)\" that can be set"))
                continue
            }
            switch ManagedValues.object(for: value, of: attribute) {
            case .success(let converted): values.append((name, converted))
            case .failure(let problem): problems.append(problem)
            }
        }
        var relationships: [(String, Any?)] = []
        for (name, contents) in changes.relationships.sorted(by: { $0.key < $1.key }) {
            guard let relationship = object.entity.relationshipsByName[name], !relationship.isTransient else {
                problems.append(.relationship(name, "\(entityName) has no stored relationship \"\(name)\""))
                continue
            }
            switch try targets(contents, of: relationship, for: object, in: context) {
            case .success(let value): relationships.append((name, value))
            case .failure(let problem): problems.append(problem)
            }
        }
        guard problems.isEmpty else { throw BrowserError.invalidFields(problems) }
        for (name, value) in values { object.setValue(value, forKey: name) }
        for (name, value) in relationships { object.setValue(value, forKey: name) }
    }

    /// The relationship's new content as Core Data takes it, or the problem with it.
    private static func targets(_ contents: RelationshipContents, of relationship: NSRelationshipDescription,
                                for object: NSManagedObject, in context: NSManagedObjectContext) throws -> Result<Any?, FieldProblem> {
        func refuse(_ message: String) -> Result<Any?, FieldProblem> { .failure(.relationship(relationship.name, message)) }
        let ids = contents.targets
        guard !ids.isEmpty else {
            return .success(relationship.isToMany ? (relationship.isOrdered ? NSOrderedSet() : NSSet()) : nil)
        }
        guard let coordinator = context.persistentStoreCoordinator, let destination = relationship.destinationEntity?.name else {
            return refuse("the context has no persistent store coordinator")
        }
        var objectIDs: [NSManagedObjectID] = []
        for id in ids {
            guard let url = URL(string: id.uri), let objectID = coordinator.managedObjectID(forURIRepresentation: url) else {
                return refuse("no record \(id.uri) in this store")
            }
            objectIDs.append(objectID)
        }
        // The destination's records with these IDs (sub-entities included), saved ones only.
        let found = try context.fetch(FetchRequests.objects(objectIDs, destination: destination))
        let byID = Dictionary(found.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        var objects: [NSManagedObject] = []
        for (id, objectID) in zip(ids, objectIDs) {
            guard let target = byID[objectID] else { return refuse("no record \(id.uri) in this store") }
            objects.append(target)
        }
        // A relationship between objects of two stores of one coordinator makes Core Data raise when it saves.
        let store = object.objectID.persistentStore
            ?? (coordinator.persistentStores.count == 1 ? coordinator.persistentStores.first : nil)
        guard let store else {
            return refuse("the app's coordinator has several stores, and a new record's relationships are not set through the browser")
        }
        if let foreign = objects.first(where: { $0.objectID.persistentStore !== store }) {
            return refuse("\(foreign.objectID.uriRepresentation().absoluteString) is in another persistent store than the record")
        }
        guard relationship.isToMany else { return .success(objects[0]) }
        return .success(relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects))
    }
}

#endif
