import BrowserCore
import BrowserMemory
import BrowserSQLite
import Foundation
import Testing

/// The same predicates give the same records on a real Core Data store file (BrowserSQLite) and on the in-memory
/// store holding the same records (mirrored through the store's own API: every record, every relationship).
/// Predicates are generated (seeded) from the data's own values, over every attribute type, operator, option,
/// nil, to-one key paths, record IDs, ANY/ALL/NONE and @count, nested in groups.
///
/// `sqliteEvaluatesEveryTree` false restricts the trees to `CONTAINS[cd]` and `==` on the entity's own String
/// attributes (what the store file reader evaluated before it compiled whole trees), to bisect a difference.
@Suite(.serialized, .enabled(if: Fixtures.available, "needs shared/fixtures/coredata"))
struct FileAndMemoryPredicateTests {
    static let sqliteEvaluatesEveryTree = true

    /// A copy of the fixture (kept alive by `folder`), the store file on it and its mirror in memory.
    struct Mirror {
        let folder: TemporaryDirectory
        let file: SQLiteStore
        let memory: MemoryMirror
        var schema: StoreSchema { memory.schema }
        var records: [String: [StoredRecord]] { memory.records }
    }

    static func mirror(_ relative: String) async throws -> Mirror {
        let folder = TemporaryDirectory()
        let file = try SQLiteStore.open(storeAt: try folder.copyStore(relative))
        return Mirror(folder: folder, file: file, memory: try await MemoryMirror.of(file))
    }

    @Test(arguments: ["coredataplus/SampleModel2/SampleModel2_V1.sqlite"])
    func generatedPredicatesSelectTheSameRecords(fixture: String) async throws {
        let mirror = try await Self.mirror(fixture)
        var generator = ValueDrawnPredicates(mirror: mirror, seed: 7, everyShape: Self.sqliteEvaluatesEveryTree)
        var compared = 0, selective = 0
        for entity in mirror.schema.entities.map(\.name).sorted() where !(mirror.records[entity]?.isEmpty ?? true) {
            let schemaEntity = try #require(mirror.schema.entity(named: entity))
            for _ in 0..<(Self.sqliteEvaluatesEveryTree ? 120 : 30) {
                let tree = generator.tree(entity: schemaEntity, depth: 0)
                let checked = try RecordFilter.validated(tree, for: schemaEntity, in: mirror.schema)
                let text = PredicateText.format(checked)
                let fileQuery = RecordQuery(entity: entity, filter: checked, limit: RecordQuery.maximumLimit)
                let memoryQuery = RecordQuery(entity: entity, filter: mirror.memory.mapped(checked), limit: RecordQuery.maximumLimit)
                let filePage = try await mirror.file.page(fileQuery)
                let memoryPage = try await mirror.memory.memory.page(memoryQuery)
                #expect(filePage.total == memoryPage.total, "\(entity): \(text)")
                #expect(filePage.records.map { mirror.memory.toMemory[$0.id] } == memoryPage.records.map(\.id), "\(entity): \(text)")
                compared += 1
                if memoryPage.total > 0, memoryPage.total < (try await mirror.memory.memory.page(RecordQuery(entity: entity, limit: 1))).total {
                    selective += 1
                }
            }
        }
        #expect(compared >= 60)
        // Values drawn from the data: many predicates select some records but not all.
        #expect(selective * 4 >= compared, "\(selective) of \(compared) predicates selected some but not all records")
    }
}

/// Predicates whose values come from the records themselves (so they select something), over a mirror's model.
struct ValueDrawnPredicates {
    let mirror: FileAndMemoryPredicateTests.Mirror
    let everyShape: Bool
    var state: UInt64

    init(mirror: FileAndMemoryPredicateTests.Mirror, seed: UInt64, everyShape: Bool) {
        self.mirror = mirror
        self.everyShape = everyShape
        self.state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
    }

    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func tree(entity: EntitySchema, depth: Int) -> RecordFilter {
        switch below(depth >= 3 ? 4 : 7) {
        case 4: return .all((0..<(1 + below(3))).map { _ in tree(entity: entity, depth: depth + 1) })
        case 5: return .any((0..<(1 + below(3))).map { _ in tree(entity: entity, depth: depth + 1) })
        case 6: return .not(tree(entity: entity, depth: depth + 1))
        default: return condition(entity: entity)
        }
    }

    /// Records of the entity and of its sub-entities.
    func records(of entity: String) -> [StoredRecord] {
        mirror.schema.subtree(of: entity).sorted().flatMap { mirror.records[$0] ?? [] }
    }

    mutating func condition(entity: EntitySchema) -> RecordFilter {
        if everyShape, below(3) == 0, let relationship = entity.relationships.isEmpty ? nil : pick(entity.relationships),
           let destination = mirror.schema.entity(named: relationship.destination) {
            if relationship.isToMany {
                if below(3) == 0 { return .count(relationship: relationship.name, pick([.equals, .greaterThan, .lessThan]), below(4)) }
                if case .comparison(let inner) = comparison(on: destination, prefix: []) {
                    return .quantified(pick(FilterQuantifier.allCases), relationship: relationship.name, inner)
                }
            } else if below(2) == 0 {
                let target = pick(records(of: destination.name))
                return .comparison(FilterComparison(FilterKeyPath(relationship.name), pick([.equals, .notEquals]),
                                                    below(4) == 0 ? .value(.null) : .object(target.id.uri)))
            } else {
                return comparison(on: destination, prefix: [relationship.name])
            }
        }
        return comparison(on: entity, prefix: [])
    }

    mutating func comparison(on entity: EntitySchema, prefix: [String]) -> RecordFilter {
        let candidates = records(of: entity.name)
        let attributes = entity.attributes.filter { everyShape || $0.type == .string }
        guard !candidates.isEmpty, !attributes.isEmpty else { return .all([]) }
        let attribute = pick(attributes)
        let path = FilterKeyPath(prefix + [attribute.name])
        let value = pick(candidates).values[attribute.name] ?? .null
        if !everyShape {
            guard case .string(let text) = value else { return .comparison(FilterComparison(path, .equals, .value(.string("")))) }
            return below(2) == 0 ? .comparison(FilterComparison(path, .equals, .value(value)))
                : .comparison(FilterComparison(path, .contains, options: .caseAndDiacriticInsensitive, .value(.string(fragment(of: text)))))
        }
        if case .null = value { return .comparison(FilterComparison(path, pick([.equals, .notEquals]), .value(.null))) }
        switch (attribute.type, value) {
        case (.string, .string(let text)):
            let op = pick([FilterOperator.equals, .notEquals, .contains, .beginsWith, .endsWith, .like, .in])
            let options = pick([FilterOptions(), .caseInsensitive, .diacriticInsensitive, .caseAndDiacriticInsensitive])
            let shown = below(2) == 0 ? text.uppercased() : text
            let operand: FilterOperand
            switch op {
            case .contains: operand = .value(.string(fragment(of: shown)))
            case .beginsWith: operand = .value(.string(String(shown.prefix(1 + below(4)))))
            case .endsWith: operand = .value(.string(String(shown.suffix(1 + below(4)))))
            case .like: operand = .value(.string("*" + fragment(of: shown) + "?*"))
            case .in: operand = .list([.string(shown), .string("none such")])
            default: operand = .value(.string(shown))
            }
            return .comparison(FilterComparison(path, op, options: options, operand))
        case (.binary, _), (.transformable, _), (.undefined, _), (.objectID, _), (_, .undecodable), (_, .binary):
            return .comparison(FilterComparison(path, pick([.equals, .notEquals]), .value(.null)))
        case (.boolean, _), (.uuid, _), (.uri, _):
            return .comparison(FilterComparison(path, pick([.equals, .notEquals]), .value(value)))
        default:
            let op = pick([FilterOperator.equals, .notEquals, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between, .in])
            let other = pick(candidates).values[attribute.name] ?? .null
            switch op {
            case .between: return .comparison(FilterComparison(path, op, .range(value, other == .null ? value : other)))
            case .in: return .comparison(FilterComparison(path, op, .list(other == .null ? [value] : [value, other])))
            default: return .comparison(FilterComparison(path, op, .value(value)))
            }
        }
    }

    mutating func fragment(of text: String) -> String {
        let characters = Array(text)
        guard characters.count > 2 else { return text }
        let start = below(characters.count - 1)
        return String(characters[start..<min(characters.count, start + 1 + below(4))])
    }
}
