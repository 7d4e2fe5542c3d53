#if canImport(CoreData)
import BrowserCore
import CoreData

/// The live adapter's own check of a query against the model it is about to run on, before any sort descriptor
/// or predicate is built.
///
/// Core Data answers a key path it cannot use in a fetch (a SwiftData composite attribute sorted by, a name the
/// entity does not have) by raising an Objective-C exception, which Swift cannot catch: it would end the app being
/// inspected. BrowserCore's validation already refuses sorting by a type without an order and searching anything
/// but String attributes, for every store; this walks the same query over the live model and refuses, with a 400,
/// any sort, search or filter that reaches an attribute the adapter shows as `.undefined` (a composite, an
/// undefined or a newer attribute type) or a name the model does not have — whatever BrowserCore lets through now
/// or later (a filter on such an attribute with `== nil`, which its contract allows, included). docs/decisions/
/// live-context-adapter.md says why this, and not an Objective-C target catching the exception.
enum ExpressibleQuery {
    static func check(_ query: RecordQuery, in context: NSManagedObjectContext) throws {
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else {
            throw BrowserError.storeFailure("The context has no persistent store coordinator")
        }
        guard let entity = model.entitiesByName[query.entity] else {
            throw BrowserError.notFound("No entity named \"\(query.entity)\"")
        }
        for sort in query.sortKeys {
            if sort.countsRelationship {
                // Counted by a grouped fetch of its own, never by a sort descriptor over `@count` (`CountSortedFetch`).
                _ = try CountSortedFetch.countedRelationship(sort, of: entity)
                continue
            }
            let type = try expressibleAttribute(sort.attribute, of: entity, path: sort.attribute, use: "sort \(query.entity) by")
            guard type.isSortable else {
                throw BrowserError.badRequest(
                    "Cannot sort \(query.entity) by \(sort.attribute): its type (\(type.rawValue)) has no order to sort by")
            }
        }
        try CountSortedFetch.checkKeyOrder(query)
        if let filter = query.matchFilter { try check(filter, on: entity) }
    }

    private static func check(_ filter: RecordFilter, on entity: NSEntityDescription) throws {
        switch filter {
        case .all(let parts), .any(let parts):
            for part in parts { try check(part, on: entity) }
        case .not(let part):
            try check(part, on: entity)
        case .comparison(let comparison):
            try check(comparison, on: entity)
        case .quantified(_, let relationship, let comparison):
            let related = try destination(of: relationship, from: entity, toMany: true)
            // An empty key path is the related record itself (`ANY tags == <ID>`).
            if !comparison.keyPath.components.isEmpty { try check(comparison, on: related) }
        case .count(let path, _, _):
            var current = entity
            let steps = path.split(separator: ".").map(String.init)
            for step in steps.dropLast() { current = try destination(of: step, from: current, toMany: false) }
            _ = try destination(of: steps.last ?? path, from: current, toMany: true)
        }
    }

    /// The key path, and the other attribute when two are compared.
    private static func check(_ comparison: FilterComparison, on entity: NSEntityDescription) throws {
        try check(comparison.keyPath, on: entity)
        if case .keyPath(let other) = comparison.operand { try check(other, on: entity) }
    }

    /// To-one relationships, then an attribute, or a to-one relationship (compared with an object or nil).
    private static func check(_ keyPath: FilterKeyPath, on entity: NSEntityDescription) throws {
        var current = entity
        for name in keyPath.relationships {
            current = try destination(of: name, from: current, toMany: false)
        }
        if let relationship = current.relationshipsByName[keyPath.last], !relationship.isTransient, !relationship.isToMany {
            return
        }
        _ = try expressibleAttribute(keyPath.last, of: current, path: keyPath.description, use: "filter by")
    }

    private static func destination(of name: String, from entity: NSEntityDescription, toMany: Bool) throws -> NSEntityDescription {
        guard let relationship = entity.relationshipsByName[name], !relationship.isTransient,
              relationship.isToMany == toMany, let destination = relationship.destinationEntity else {
            throw BrowserError.badRequest("\(entity.name ?? "The entity") has no stored \(toMany ? "to-many" : "to-one") "
                + "relationship \"\(name)\"")
        }
        return destination
    }

    /// The attribute's type as BrowserCore names it, if Core Data can evaluate it in a fetch.
    private static func expressibleAttribute(_ name: String, of entity: NSEntityDescription, path: String,
                                             use: String) throws -> AttributeType {
        guard let attribute = entity.attributesByName[name], !attribute.isTransient else {
            throw BrowserError.badRequest("Cannot \(use) \(path): \(entity.name ?? "the entity") has no stored attribute \"\(name)\"")
        }
        let type = ModelSchema.attributeType(attribute.attributeType)
        guard type != .undefined else {
            throw BrowserError.badRequest("Cannot \(use) \(path): a live Core Data context cannot evaluate an attribute "
                + "of this type in a fetch (a SwiftData composite, or a type this version does not know)")
        }
        return type
    }
}

#endif
