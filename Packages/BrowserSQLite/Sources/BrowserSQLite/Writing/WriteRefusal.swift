import BrowserCore

/// Why a store file opened with writes on is still not written (`StoreDescription.writeRefusal`), decided once when
/// it is opened. A store writes only when every invariant Core Data keeps for it is one this package keeps too
/// (docs/decisions/store-file-writing.md); anything else is refused here, with the reason, rather than written
/// half right.
enum WriteRefusal {
    /// The first reason the store cannot be written, or nil when it can.
    static func reason(mode: StoreConnection.Mode, origin: ModelOrigin, mapping: StoreMapping, model: ModelDescription,
                       catalog: StoreCatalog, triggers: [String]) -> String? {
        if mode != .readWrite {
            return "the store's file, its -wal/-shm or its folder is read-only (or SQLite would not open it read-write), "
                + "so it is \(mode == .snapshot ? "read from a private snapshot copy" : "opened read-only in place"); "
                + "a write would not reach the store"
        }
        if origin.source == .inferred {
            return "its model was inferred from the tables, which do not say delete rules, optional properties or default "
                + "values; open it with its model (--model) or a store that caches one"
        }
        // A compiled model carries each entity's version hash: one that differs from the store's metadata is
        // another version of the model, whose delete rules and optionality may not be the app's.
        if let storeHashes = model.storeVersionHashes,
           let differing = model.entities.first(where: { entity in
               entity.versionHash.map { hash in storeHashes[entity.name].map { $0 != hash } ?? false } ?? false
           }) {
            return "the model named is not the version the store was written with (\(differing.name)'s version hash differs "
                + "from the store's metadata); open it with the matching version"
        }
        if catalog.table(HistoryReader.transactionTable) != nil || catalog.table(HistoryReader.changeTable) != nil {
            return "it keeps persistent history (ATRANSACTION/ACHANGE: history tracking, SwiftData, CloudKit mirroring); a write "
                + "must add history rows whose layout (ACHANGE.ZCOLUMNS) Apple does not publish, and a write without them "
                + "would be invisible to the app's history readers and to CloudKit"
        }
        let coreDataTriggers = triggers.filter { $0.uppercased().contains("NSCOREDATA") }
        if !coreDataTriggers.isEmpty {
            return "it has triggers that call SQL functions only Core Data registers (\(coreDataTriggers.count), e.g. "
                + "NSCoreDataDATriggerUpdatedAffectedObjectValue for derived attributes); a write outside Core Data "
                + "cannot honour them"
        }
        if let derived = model.entities.lazy.flatMap({ entity in
            entity.attributes.filter { $0.derivation != nil }.map { "\(entity.name).\($0.name)" }
        }).first {
            return "the model has derived attributes (\(derived)) that Core Data computes on save"
        }
        if mapping.report.hasProblems || !mapping.report.unexplainedColumns.isEmpty {
            let problems = mapping.report.hasProblems ? mapping.report.summary
                : "columns \(mapping.report.unexplainedColumns.prefix(6).joined(separator: ", ")) are not in the model"
            return "the model does not match the store's tables exactly (\(problems))"
        }
        for entity in mapping.entities.values.sorted(by: { $0.name < $1.name }) {
            for relationship in entity.relationships.values.sorted(by: { $0.name < $1.name }) {
                let what = "\(entity.name).\(relationship.name)"
                if relationship.deleteRule == nil { return "the model does not give the delete rule of \(what)" }
                if case .joinTable(_, _, _, _, true) = relationship.storage {
                    return "\(what) is a many-to-many that is its own inverse (a REFLEXIVE join table), which this writer does not write"
                }
                if relationship.inverse != nil, inverse(of: relationship, in: mapping) == nil {
                    return "the inverse of \(what) is not in the store's mapping"
                }
            }
        }
        return nil
    }

    /// The relationship's inverse as the destination entity has it.
    static func inverse(of relationship: RelationshipMapping, in mapping: StoreMapping) -> RelationshipMapping? {
        relationship.inverse.flatMap { mapping.entities[relationship.destination]?.relationships[$0] }
    }
}
