import BrowserCore
import BrowserMemory
import CoreData

/// Inserts the demo library through Core Data: `DemoSeed`'s records (Packages/BrowserMemory), the ones the Linux
/// demo's in-memory store holds, so both demos show the same store and there is no second copy to drift. The one
/// value an SQLite store cannot hold (a NaN Double) is seeded as nil; see `storable`.
enum SeedData {
    /// Runs on the context's own queue (`performBackgroundTask`); saves once.
    static func insertIfEmpty(into context: NSManagedObjectContext) throws {
        let existing = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author"))
        guard existing == 0 else { return }

        var objects: [String: NSManagedObject] = [:]
        for record in DemoSeed.records {
            let object = NSEntityDescription.insertNewObject(forEntityName: record.entity, into: context)
            for (key, value) in record.values {
                object.setValue(storable(value).foundationValue, forKey: key)
            }
            for (key, data) in record.blobs {
                object.setValue(data, forKey: key)  // the covers: real PNG images
            }
            objects[record.key] = object
        }
        for record in DemoSeed.records {
            guard let object = objects[record.key] else { continue }
            for link in record.links {
                guard let target = objects[link.target] else { continue }
                let toMany = DemoLibrary.schema.entity(named: record.entity)?.relationship(named: link.relationship)?.isToMany ?? false
                if toMany {
                    object.mutableSetValue(forKey: link.relationship).add(target)
                } else {
                    object.setValue(target, forKey: link.relationship)
                }
            }
        }
        try context.save()
    }

    /// The value as the SQLite store keeps it. SQLite stores a NaN as NULL, so DemoSeed's NaN rating (which the
    /// Linux demo's in-memory store shows as "NaN") is seeded as nil here: the app, the browser reading it live
    /// and any reader of the store file then all show null, instead of the app holding a NaN that the file
    /// does not have. ±Infinity are kept (SQLite stores them as REALs). docs/decisions/live-context-adapter.md lists this.
    private static func storable(_ value: AttributeValue) -> AttributeValue {
        if case .double(let number) = value, number.isNaN { return .null }
        return value
    }
}
