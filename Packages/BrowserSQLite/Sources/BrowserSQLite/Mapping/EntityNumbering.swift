/// Matches a model's entities to the store's entity numbers (`Z_PRIMARYKEY.Z_ENT`).
///
/// Numbers are always taken from the store, never computed alone: they shift between model versions (format
/// doc §2). An entity is matched, in this order, by its name; by its renaming identifier (a renamed entity keeps
/// its old `Z_NAME`: CoreDataPlus SampleModel_V2's `LuxuryCar` is still `ExpensiveSportCar` there); by the number
/// Core Data's own order would give it (case-insensitive alphabetical pre-order of the entity tree) when the
/// store's row of that number has a name no model entity claims.
enum EntityNumbering {
    struct Result {
        var numbers: [String: Int64] = [:]
        /// Model entities the store has no row for.
        var missingFromStore: [String] = []
        /// Store rows no model entity matched (by their `Z_NAME`).
        var missingFromModel: [String] = []
        /// Entities whose parent in the model is not their parent in the store.
        var parentMismatches: [String] = []
    }

    static func match(_ model: ModelDefinition, to catalog: StoreCatalog) -> Result {
        var result = Result()
        var claimed: Set<Int64> = []
        let rowsByName = Dictionary(catalog.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let modelNames = Set(model.entities.map(\.name))

        for entity in model.entities {
            if let row = rowsByName[entity.name], !claimed.contains(row.number) {
                result.numbers[entity.name] = row.number
                claimed.insert(row.number)
            }
        }
        for entity in model.entities where result.numbers[entity.name] == nil {
            if let old = entity.renamingIdentifier, !modelNames.contains(old), let row = rowsByName[old],
               !claimed.contains(row.number) {
                result.numbers[entity.name] = row.number
                claimed.insert(row.number)
            }
        }
        let expected = expectedNumbers(of: model)
        for entity in model.entities where result.numbers[entity.name] == nil {
            if let number = expected[entity.name], let row = catalog.entity(number: number),
               !claimed.contains(number), !modelNames.contains(row.name) {
                result.numbers[entity.name] = number
                claimed.insert(number)
            }
        }

        result.missingFromStore = model.entities.map(\.name).filter { result.numbers[$0] == nil }.sorted()
        result.missingFromModel = catalog.entities.filter { !claimed.contains($0.number) }.map(\.name).sorted()
        for entity in model.entities {
            guard let number = result.numbers[entity.name], let row = catalog.entity(number: number) else { continue }
            let expectedParent = entity.parent.flatMap { result.numbers[$0] } ?? 0
            if row.parent != expectedParent { result.parentMismatches.append(entity.name) }
        }
        result.parentMismatches.sort()
        return result
    }

    /// The numbers Core Data assigns: roots in case-insensitive alphabetical order, each followed depth-first by
    /// its sub-entities in the same order, from 1 (format doc §2, checked on 28 stores).
    static func expectedNumbers(of model: ModelDefinition) -> [String: Int64] {
        let byOrder: (EntityDefinition, EntityDefinition) -> Bool = {
            let left = $0.name.lowercased(), right = $1.name.lowercased()
            return left == right ? $0.name < $1.name : left < right
        }
        var numbers: [String: Int64] = [:]
        var next: Int64 = 1
        func visit(_ entity: EntityDefinition) {
            guard numbers[entity.name] == nil else { return }
            numbers[entity.name] = next
            next += 1
            for child in model.entities.filter({ $0.parent == entity.name }).sorted(by: byOrder) {
                visit(child)
            }
        }
        for root in model.entities.filter({ $0.parent == nil }).sorted(by: byOrder) {
            visit(root)
        }
        return numbers
    }
}
