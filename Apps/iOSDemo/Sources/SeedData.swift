import BrowserCore
import BrowserMemory
import CoreData

/// Inserts the demo library through Core Data: exactly `DemoSeed`'s records (Packages/BrowserMemory), the ones the
/// Linux demo's in-memory store holds, so both demos show the same store and there is no second copy to drift.
enum SeedData {
    /// Runs on the context's own queue (`performBackgroundTask`); saves once.
    static func insertIfEmpty(into context: NSManagedObjectContext) throws {
        let existing = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author"))
        guard existing == 0 else { return }

        var objects: [String: NSManagedObject] = [:]
        for record in DemoSeed.records {
            let object = NSEntityDescription.insertNewObject(forEntityName: record.entity, into: context)
            for (key, value) in record.values {
                object.setValue(value.foundationValue, forKey: key)
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
}
