/// What did not line up between a model and a store's tables. A named model must have no problem at all
/// (else `SQLiteStoreError.modelMismatch`); versions are ranked by it.
struct MappingReport: Sendable, Hashable {
    var entitiesMissingFromStore: [String] = []
    var entitiesMissingFromModel: [String] = []
    var parentMismatches: [String] = []
    /// "ZFOO (entity Foo)".
    var missingTables: [String] = []
    /// "ZCAR.ZCOLOR (Car.color)".
    var missingColumns: [String] = []
    /// "Book.authors (no join table Z_1AUTHORS or Z_2BOOKS)".
    var missingRelationshipStorage: [String] = []
    /// Columns of entity tables no property of the model accounts for ("ZPOST.ZHIDE").
    var unexplainedColumns: [String] = []
    /// The model's entity names differ from the store's `NSStoreModelVersionHashes` keys.
    var namesDifferFromMetadata = false

    /// Problems at the level of entities and tables: no record could be read reliably.
    var hasEntityProblems: Bool {
        !entitiesMissingFromStore.isEmpty || !entitiesMissingFromModel.isEmpty || !parentMismatches.isEmpty
            || !missingTables.isEmpty
    }

    /// Anything the model needs that the store lacks.
    var hasProblems: Bool {
        hasEntityProblems || !missingColumns.isEmpty || !missingRelationshipStorage.isEmpty
    }

    /// One line: "entities X missing from the store; columns ZCAR.ZCOLOR (Car.color) missing; …".
    var summary: String {
        var parts: [String] = []
        func list(_ items: [String], limit: Int = 6) -> String {
            let shown = items.prefix(limit).joined(separator: ", ")
            return items.count > limit ? shown + " and \(items.count - limit) more" : shown
        }
        if !entitiesMissingFromStore.isEmpty {
            parts.append("\(entitiesMissingFromStore.count == 1 ? "entity" : "entities") \(list(entitiesMissingFromStore)) missing from the store")
        }
        if !entitiesMissingFromModel.isEmpty {
            parts.append("store \(entitiesMissingFromModel.count == 1 ? "entity" : "entities") \(list(entitiesMissingFromModel)) not in the model")
        }
        if !parentMismatches.isEmpty {
            parts.append("different inheritance for \(list(parentMismatches))")
        }
        if !missingTables.isEmpty {
            parts.append("\(missingTables.count == 1 ? "table" : "tables") \(list(missingTables)) missing")
        }
        if !missingColumns.isEmpty {
            parts.append("\(missingColumns.count == 1 ? "column" : "columns") \(list(missingColumns)) missing")
        }
        if !missingRelationshipStorage.isEmpty {
            parts.append("relationship storage missing for \(list(missingRelationshipStorage))")
        }
        if parts.isEmpty && namesDifferFromMetadata {
            parts.append("its entity names differ from the store's metadata")
        }
        return parts.joined(separator: "; ")
    }
}
