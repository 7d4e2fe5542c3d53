import BrowserCore
import BrowserMemory
@testable import BrowserSQLite
import Foundation

/// A store file copied into an `InMemoryStore` through the store API (every record of every root entity by pages,
/// then every relationship through `related`), so the in-memory evaluator (`FilterMatcher`) can be asked the
/// oracle's questions (`PredicateEquivalenceTests`) and generated trees (`FileAndMemoryPredicateTests`) about the
/// same records.
struct MemoryMirror {
    let memory: InMemoryStore
    let schema: StoreSchema
    /// Every record of each concrete entity, as the file gave it (in primary-key order).
    let records: [String: [StoredRecord]]
    /// The file's IDs → the mirror's, and back.
    let toMemory: [ObjectID: ObjectID]
    let toFile: [ObjectID: ObjectID]

    static func of(_ file: SQLiteStore) async throws -> MemoryMirror {
        let schema = try await file.schema()
        let memory = InMemoryStore(schema: schema, storeIdentifier: "MIRROR")
        var ids: [ObjectID: ObjectID] = [:]
        var records: [String: [StoredRecord]] = [:]
        for root in schema.entities where root.parent == nil {
            var query = RecordQuery(entity: root.name, limit: RecordQuery.maximumLimit)
            while true {
                let page = try await file.page(query)
                for record in page.records {
                    let values = record.values.filter { schema.entity(named: record.entity)?.attribute(named: $0.key) != nil }
                    ids[record.id] = try await memory.insert(record.entity, values)
                    records[record.entity, default: []].append(record)
                }
                guard page.records.count == query.limit else { break }
                query.offset += query.limit
            }
        }
        for (entity, list) in records {
            for relationship in schema.entity(named: entity)?.relationships ?? [] {
                for record in list {
                    let related = try await file.related(from: record.id, through: relationship.name, limit: 1_000_000)
                    for target in related.records {
                        guard let source = ids[record.id], let mapped = ids[target.id] else { continue }
                        try await memory.relate(source, relationship.name, mapped)
                    }
                }
            }
        }
        return MemoryMirror(memory: memory, schema: schema, records: records, toMemory: ids,
                            toFile: Dictionary(uniqueKeysWithValues: ids.map { ($0.value, $0.key) }))
    }

    /// The same tree asking about the mirror's records: record IDs of the file become the mirror's (an ID the file
    /// does not hold stays as it is, and matches nothing in either store).
    func mapped(_ filter: RecordFilter) -> RecordFilter {
        func map(_ comparison: FilterComparison) -> FilterComparison {
            func mine(_ uri: String) -> String {
                (try? ObjectID(uri: uri)).flatMap { toMemory[$0] }?.uri ?? uri
            }
            var result = comparison
            switch comparison.operand {
            case .object(let uri): result.operand = .object(mine(uri))
            case .objects(let uris): result.operand = .objects(uris.map(mine))
            default: break
            }
            return result
        }
        switch filter {
        case .all(let parts): return .all(parts.map(mapped))
        case .any(let parts): return .any(parts.map(mapped))
        case .not(let part): return .not(mapped(part))
        case .comparison(let comparison): return .comparison(map(comparison))
        case .quantified(let quantifier, let relationship, let comparison):
            return .quantified(quantifier, relationship: relationship, map(comparison))
        case .count: return filter
        }
    }
}
