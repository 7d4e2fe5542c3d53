import BrowserCore
import Foundation

/// Compiles a validated `RecordFilter` into one SQL condition with bound arguments, meaning exactly what
/// `RecordFilter` documents (every store answers the same).
///
/// **Two-valued logic.** SQL's NULL would leak a third value through `NOT` (`NOT (x > 3)` is NULL, not true,
/// for a NULL `x`). So no `NOT` reaches SQL over a comparison: negations are pushed down to the comparisons
/// (De Morgan; `ALL` is "no related record fails"), and each comparison is written in the form its context asks
/// for, positive or negated, with what a missing value gives written out (`x IS NULL OR …` where the answer for a
/// missing value is true). The only `NOT` left is `NOT IN` over a subquery that selects no NULL, which is never
/// NULL either.
///
/// **Indexes.** Exact comparisons are plain comparisons of the column (`"ZPAGECOUNT" > ?`, `"ZTITLE" = ?`,
/// `BEGINSWITH` as a range of the column), so SQLite uses an index where one exists; only `[c]`/`[d]` comparisons
/// call a function on the column (`cdb_fold`, `cdb_contains`). Conditions of a group are ordered cheap first (SQLite
/// evaluates a row's terms in order), so a function runs only on rows the plain comparisons kept.
///
/// **Relationships.** A key path through a to-one relationship is `fk IN (SELECT Z_PK FROM <destination> WHERE …)`;
/// `ANY`/`ALL`/`NONE` and `@count` select the owners of related rows from the inverse foreign key, `Z<n><R>` column
/// or join table (`StoreMappingBuilder`'s `RelationshipStorage`), so each subquery runs once per statement, not once
/// per row. Destination rows are restricted to the relationship's destination and its sub-entities (`Z_ENT`), as
/// the reader's pages are.
///
/// Names reach SQL only as the mapping's quoted table and column names; every value is bound.
struct FilterTranslation {
    /// SQL with its arguments in placeholder order. `cost` orders a group's conditions by their work per row.
    struct Fragment {
        var sql: String
        var arguments: [SQLiteValue] = []
        var cost = 0

        /// Membership in a subquery's rows: the subquery runs once per statement (it refers to no outer row), then
        /// each row costs one lookup in its result, like a comparison of a column.
        static let subqueryCost = 1
        /// A function call per row (`cdb_fold`, `cdb_contains`): Swift code and, off the fast paths, a String.
        static let functionCost = 2

        static let always = Fragment(sql: "1")
        static let never = Fragment(sql: "0")
    }

    let mapping: StoreMapping
    let storeIdentifier: String
    private var aliasCount = 0

    /// The condition on the rows of `entity`'s table, whose current row `row` (a quoted table name or alias)
    /// names.
    static func condition(for filter: RecordFilter, entity: EntityMapping, row: String, mapping: StoreMapping,
                          storeIdentifier: String) throws -> Fragment {
        var translation = FilterTranslation(mapping: mapping, storeIdentifier: storeIdentifier)
        return try translation.translate(filter, entity, row: row, negated: false)
    }

    /// How many rows the to-many relationship `name` reaches from the current row `row` of `entity`: a correlated
    /// `(SELECT COUNT(*) FROM <destination or join table> WHERE <owner> = row.Z_PK …)`, over the same related rows
    /// (destination restriction, reflexive pairs) as an `@count` condition, so a list sorted by a count and one
    /// filtered by it count alike. Unlike a condition's subquery it runs once per row: what sorting by it costs.
    static func relatedCount(_ name: String, of entity: EntityMapping, row: String, mapping: StoreMapping,
                             storeIdentifier: String) throws -> Fragment {
        var translation = FilterTranslation(mapping: mapping, storeIdentifier: storeIdentifier)
        let related = try translation.relatedRows(name, of: entity)
        let select = joined(related.conditions + [Fragment(sql: "\(related.owner) = \(row).\"Z_PK\"")],
                            prefix: "SELECT COUNT(*) FROM \(related.from) WHERE ")
        return Fragment(sql: "(\(select.sql))", arguments: select.arguments, cost: Fragment.subqueryCost)
    }

    private init(mapping: StoreMapping, storeIdentifier: String) {
        self.mapping = mapping
        self.storeIdentifier = storeIdentifier
    }

    // MARK: Logic

    /// The condition, or its negation when `negated`.
    private mutating func translate(_ filter: RecordFilter, _ entity: EntityMapping, row: String,
                                    negated: Bool) throws -> Fragment {
        switch filter {
        case .all(let parts):
            return try group(parts, entity, row: row, negated: negated, conjunction: !negated)
        case .any(let parts):
            return try group(parts, entity, row: row, negated: negated, conjunction: negated)
        case .not(let inner):
            return try translate(inner, entity, row: row, negated: !negated)
        case .comparison(let comparison):
            return try self.comparison(comparison, path: comparison.keyPath.components[...], entity, row: row,
                                       negated: negated)
        case .quantified(let quantifier, let name, let comparison):
            let related = try relatedRows(name, of: entity)
            // ANY: some related row holds; ALL: no related row fails; NONE: no related row holds.
            let (failing, exists): (Bool, Bool) = switch quantifier {
            case .any: (false, !negated)
            case .all: (true, negated)
            case .none: (false, negated)
            }
            // An empty key path is the related record itself, compared with records (`ANY tags == <ID>`).
            let inner = comparison.keyPath.components.isEmpty
                ? try recordCondition(comparison, related.destination, row: related.alias, negated: failing)
                : try self.comparison(comparison, path: comparison.keyPath.components[...], related.destination,
                                      row: related.alias, negated: failing)
            return owners(row: row, in: related, where: inner, groupedBy: nil, included: exists)
        case .count(let path, let op, let number):
            // To-one steps first (`series.study.albums`): through a nil one the count is missing, which satisfies
            // `!=` only.
            let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            return try self.count(steps[...], op, number, entity, row: row, negated: negated)
        }
    }

    /// `@count` of the to-many relationship at the end of `steps` (to-one relationships before it).
    private mutating func count(_ steps: ArraySlice<String>, _ op: FilterOperator, _ number: Int, _ entity: EntityMapping,
                                row: String, negated: Bool) throws -> Fragment {
        if steps.count > 1, let first = steps.first {
            let holdsWhenMissing = (op == .notEquals) != negated
            return try throughToOne(first, of: entity, row: row, holdsWhenMissing: holdsWhenMissing) { translation, destination, alias in
                try translation.count(steps.dropFirst(), op, number, destination, row: alias,
                                      negated: holdsWhenMissing ? !negated : negated)
            }
        }
        let name = steps.first ?? ""
        let related = try relatedRows(name, of: entity)
        let op = negated ? try Self.complement(of: op) : op
        // A record with no related rows has no group: when the comparison holds for 0, select the owners for
        // which it fails instead, and keep the rows not among them.
        let holdsForNone = try Self.compare(0, op, number)
        let having = holdsForNone ? try Self.complement(of: op) : op
        // Every owner that has a related row has a count of 1 or more: when that is all `having` asks
        // (`@count == 0`, `@count > 0`), the owners themselves answer, with no grouping.
        let everyOwner = try Self.compare(1, having, number) && (having == .greaterThan || having == .greaterThanOrEqual
                                                                   || having == .notEquals && number < 1)
        let count = everyOwner ? nil : Fragment(sql: "COUNT(*) \(having.rawValue) ?", arguments: [.integer(Int64(number))])
        return owners(row: row, in: related, where: nil, groupedBy: count, included: !holdsForNone)
    }

    private mutating func group(_ parts: [RecordFilter], _ entity: EntityMapping, row: String, negated: Bool,
                                conjunction: Bool) throws -> Fragment {
        guard !parts.isEmpty else { return conjunction ? .always : .never }
        var translated: [Fragment] = []
        for part in parts { translated.append(try translate(part, entity, row: row, negated: negated)) }
        if translated.count == 1 { return translated[0] }
        // Stable: equal costs keep the order they were given in.
        let ordered = translated.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }.map(\.element)
        return Fragment(sql: "(" + ordered.map(\.sql).joined(separator: conjunction ? " AND " : " OR ") + ")",
                        arguments: ordered.flatMap(\.arguments), cost: ordered.map(\.cost).max() ?? 0)
    }

    // MARK: Comparisons

    /// Whether a comparison holds for a missing value (NULL, or a key path through a nil to-one): only `== nil`
    /// and `!= <value>` do.
    static func holdsForMissing(_ comparison: FilterComparison) -> Bool {
        switch (comparison.op, comparison.operand) {
        case (.equals, .value(.null)): true
        case (.notEquals, .value(.null)): false
        case (.notEquals, _): true
        default: false
        }
    }

    /// The comparison at the end of `path` from the current row of `entity`, following to-one relationships.
    private mutating func comparison(_ comparison: FilterComparison, path: ArraySlice<String>, _ entity: EntityMapping,
                                     row: String, negated: Bool) throws -> Fragment {
        guard let name = path.first else { throw BrowserError.badRequest("A condition names no attribute") }
        if path.count == 1 {
            if let attribute = entity.attribute(named: name) {
                if case .keyPath(let other) = comparison.operand {
                    guard let right = entity.attribute(named: other.description) else {
                        throw BrowserError.badRequest("\(entity.name) has no attribute \"\(other)\"")
                    }
                    return try keyPathCondition(comparison, attribute, right, row: row, negated: negated)
                }
                return try attributeCondition(comparison, attribute, row: row, negated: negated)
            }
            if let relationship = entity.relationships[name], !relationship.isToMany {
                return try referenceCondition(comparison, relationship, of: entity, row: row, negated: negated)
            }
            throw BrowserError.badRequest("\(entity.name) has no attribute or to-one relationship \"\(name)\"")
        }
        let holdsWhenMissing = Self.holdsForMissing(comparison) != negated
        return try throughToOne(name, of: entity, row: row, holdsWhenMissing: holdsWhenMissing) { translation, destination, alias in
            try translation.comparison(comparison, path: path.dropFirst(), destination, row: alias,
                                       negated: holdsWhenMissing ? !negated : negated)
        }
    }

    /// A condition on the record the to-one relationship `name` reaches from the current row: `inner` is the
    /// condition on the destination's row `alias`. When a missing target makes the answer true
    /// (`holdsWhenMissing`), `inner` must be the condition's negation: the row holds unless its target fails, so
    /// the targets that fail are selected and the rows whose target is not among them kept.
    private mutating func throughToOne(_ name: String, of entity: EntityMapping, row: String, holdsWhenMissing: Bool,
                                       _ condition: (inout FilterTranslation, EntityMapping, String) throws -> Fragment) throws -> Fragment {
        guard let relationship = entity.relationships[name], !relationship.isToMany,
              let destination = mapping.entities[relationship.destination] else {
            throw BrowserError.badRequest("\(entity.name) has no to-one relationship \"\(name)\"")
        }
        let alias = nextAlias()
        let inner = try condition(&self, destination, alias)
        let targets = [destinationRestriction(relationship, destination, alias: alias), inner].compactMap { $0 }
        let table = "\(quoteIdentifier(destination.table)) AS \(alias)"
        switch relationship.storage {
        case .foreignKey(let column, _):
            let key = "\(row).\(quoteIdentifier(column))"
            let select = Self.joined(targets, prefix: "SELECT \(alias).\"Z_PK\" FROM \(table) WHERE ")
            return Fragment(sql: holdsWhenMissing ? "(\(key) IS NULL OR \(key) NOT IN (\(select.sql)))" : "\(key) IN (\(select.sql))",
                            arguments: select.arguments, cost: Fragment.subqueryCost)
        case .inverseForeignKey(let column):
            let back = "\(alias).\(quoteIdentifier(column))"
            let select = Self.joined([Fragment(sql: "\(back) IS NOT NULL")] + targets, prefix: "SELECT \(back) FROM \(table) WHERE ")
            return Fragment(sql: "\(row).\"Z_PK\" \(holdsWhenMissing ? "NOT IN" : "IN") (\(select.sql))",
                            arguments: select.arguments, cost: Fragment.subqueryCost)
        case .missing(let reason):
            throw SQLiteStoreError.relationshipUnreadable(entity: entity.name, relationship: name, reason: reason)
        case .targetsReferToSource, .joinTable:
            throw BrowserError.badRequest("\(entity.name).\(name) is not a to-one relationship")
        }
    }

    /// A to-one relationship compared with an object ID or nil.
    private mutating func referenceCondition(_ comparison: FilterComparison, _ relationship: RelationshipMapping,
                                             of entity: EntityMapping, row: String, negated: Bool) throws -> Fragment {
        guard [.equals, .notEquals, .in].contains(comparison.op) else {
            throw BrowserError.badRequest("\(entity.name).\(relationship.name) can only be compared with ==, != or IN")
        }
        let equal = (comparison.op != .notEquals) != negated
        guard let destination = mapping.entities[relationship.destination] else { return equal ? .never : .always }
        let table = quoteIdentifier(destination.table)
        // The targets the row may be related to: every row of the destination, or the one the ID names.
        let targets: Fragment
        let isNil: Bool
        switch comparison.operand {
        case .value(.null):
            isNil = true
            var arguments: [SQLiteValue] = []
            let restriction = RecordReader.entityCondition(
                destination.coversWholeTable && relationship.destinationSubtree == destination.subtreeNumbers
                    ? nil : relationship.destinationSubtree, arguments: &arguments)
            targets = Fragment(sql: restriction ?? "1", arguments: arguments)
        case .object, .objects:
            isNil = false
            guard let named = try records(comparison.operand, among: relationship.destinationSubtree, alias: nil) else {
                return equal ? .never : .always
            }
            targets = named
        default:
            throw BrowserError.badRequest("\(entity.name).\(relationship.name) can only be compared with an object ID or nil")
        }
        // Related to one of the targets: `related`; the answer is that for `!= nil` and `== <id>`.
        let related = isNil ? !equal : equal
        switch relationship.storage {
        case .foreignKey(let column, _):
            let key = "\(row).\(quoteIdentifier(column))"
            if isNil { return Fragment(sql: "\(key) IS \(related ? "NOT " : "")NULL") }
            let select = "SELECT \"Z_PK\" FROM \(table) WHERE \(targets.sql)"
            return Fragment(sql: related ? "\(key) IN (\(select))" : "(\(key) IS NULL OR \(key) NOT IN (\(select)))",
                            arguments: targets.arguments, cost: Fragment.subqueryCost)
        case .inverseForeignKey(let column):
            let back = quoteIdentifier(column)
            let select = "SELECT \(back) FROM \(table) WHERE \(back) IS NOT NULL AND \(targets.sql)"
            return Fragment(sql: "\(row).\"Z_PK\" \(related ? "IN" : "NOT IN") (\(select))", arguments: targets.arguments, cost: Fragment.subqueryCost)
        case .missing(let reason):
            throw SQLiteStoreError.relationshipUnreadable(entity: entity.name, relationship: relationship.name, reason: reason)
        case .targetsReferToSource, .joinTable:
            throw BrowserError.badRequest("\(entity.name).\(relationship.name) is not a to-one relationship")
        }
    }

    /// The rows of the records an `.object` / `.objects` operand names, of this store and among `subtree`
    /// (`Z_PK = ? AND Z_ENT = ?` each, on `alias`'s columns or unqualified); nil when it names none.
    private func records(_ operand: FilterOperand, among subtree: [Int64], alias: String?) throws -> Fragment? {
        let uris: [String]
        switch operand {
        case .object(let uri): uris = [uri]
        case .objects(let list): uris = list
        default: throw BrowserError.badRequest("Records are named by their IDs")
        }
        let prefix = alias.map { "\($0)." } ?? ""
        var parts: [Fragment] = []
        for uri in uris {
            let id = try ObjectID(uri: uri)
            guard id.storeIdentifier == storeIdentifier, let concrete = mapping.entities[id.entity],
                  subtree.contains(concrete.number) else { continue }
            parts.append(Fragment(sql: "(\(prefix)\"Z_PK\" = ? AND \(prefix)\"Z_ENT\" = ?)",
                                  arguments: [.integer(id.primaryKey), .integer(concrete.number)]))
        }
        guard !parts.isEmpty else { return nil }
        return parts.count == 1 ? parts[0] : Fragment(sql: "(" + parts.map(\.sql).joined(separator: " OR ") + ")",
                                                      arguments: parts.flatMap(\.arguments))
    }

    /// The related row itself compared with records (`ANY tags == <ID>`, `… IN {<ID>, …}`, `… != <ID>`).
    private func recordCondition(_ comparison: FilterComparison, _ destination: EntityMapping, row: String,
                                 negated: Bool) throws -> Fragment {
        let equal = (comparison.op != .notEquals) != negated
        guard let named = try records(comparison.operand, among: destination.subtreeNumbers, alias: row) else {
            return equal ? .never : .always
        }
        // Z_PK and Z_ENT are never NULL: NOT is plain negation here.
        return equal ? named : Fragment(sql: "NOT \(named.sql)", arguments: named.arguments)
    }

    /// Two attributes of the current row compared (`lastServerTimeStamp > clearedTimeStamp`). `==` and `!=` are
    /// SQLite's `IS` and `IS NOT`, which treat two NULLs as equal and never give NULL; an order is false when either
    /// is missing.
    private func keyPathCondition(_ comparison: FilterComparison, _ left: AttributeMapping, _ right: AttributeMapping,
                                  row: String, negated: Bool) throws -> Fragment {
        func reference(_ attribute: AttributeMapping) -> String {
            guard let column = attribute.column else { return "NULL" }
            let qualified = "\(row).\(quoteIdentifier(column))"
            // A Boolean is true when non-zero, as the reader decodes it.
            return attribute.kind.attributeType == .boolean ? "(\(qualified) <> 0)" : qualified
        }
        let l = reference(left), r = reference(right)
        let operators: (core: String, complement: String)
        switch comparison.op {
        case .equals: return Fragment(sql: "\(l) IS \(negated ? "NOT " : "")\(r)")
        case .notEquals: return Fragment(sql: "\(l) IS \(negated ? "" : "NOT ")\(r)")
        case .lessThan: operators = ("<", ">=")
        case .lessThanOrEqual: operators = ("<=", ">")
        case .greaterThan: operators = (">", "<=")
        case .greaterThanOrEqual: operators = (">=", "<")
        default: throw BrowserError.badRequest("\(left.name) and \(right.name) can only be compared with ==, !=, <, <=, > or >=")
        }
        return Fragment(sql: negated ? "(\(l) \(operators.complement) \(r) OR \(l) IS NULL OR \(r) IS NULL)"
                                     : "\(l) \(operators.core) \(r)")
    }

    /// An attribute of the current row compared with a constant.
    private func attributeCondition(_ comparison: FilterComparison, _ attribute: AttributeMapping, row: String,
                                    negated: Bool) throws -> Fragment {
        let holds = Self.holdsForMissing(comparison) != negated
        // A column the store lacks has no value to compare: the answer is the one for a missing value.
        guard let column = attribute.column else { return holds ? .always : .never }
        let reference = "\(row).\(quoteIdentifier(column))"
        if case .value(.null) = comparison.operand {
            guard comparison.op == .equals || comparison.op == .notEquals else {
                throw BrowserError.badRequest("\(attribute.name) can only be compared with nil by == or !=")
            }
            return Fragment(sql: "\(reference) IS \(holds ? "" : "NOT ")NULL")
        }
        let test = try ValueTest.make(comparison, attribute, reference: reference)
        let chosen = negated ? test.complement : test.core
        if holds { return Fragment(sql: "(\(reference) IS NULL OR \(chosen.sql))", arguments: chosen.arguments, cost: chosen.cost) }
        // A constant "true" must not take in the rows without a value.
        return chosen.sql == "1" ? Fragment(sql: "\(reference) IS NOT NULL") : chosen
    }

    // MARK: To-many relationships

    /// The rows a to-many relationship reaches from its owners: `owner` is the SQL of each related row's owner
    /// key (never NULL in `from`'s rows), the destination's current row is `alias`.
    private struct RelatedRows {
        var from: String
        var owner: String
        var conditions: [Fragment]
        var alias: String
        var destination: EntityMapping
    }

    private mutating func relatedRows(_ name: String, of entity: EntityMapping) throws -> RelatedRows {
        guard let relationship = entity.relationships[name], relationship.isToMany,
              let destination = mapping.entities[relationship.destination] else {
            throw BrowserError.badRequest("\(entity.name) has no to-many relationship \"\(name)\"")
        }
        let alias = nextAlias()
        let table = "\(quoteIdentifier(destination.table)) AS \(alias)"
        let restriction = destinationRestriction(relationship, destination, alias: alias).map { [$0] } ?? []
        switch relationship.storage {
        case .targetsReferToSource(let column, _):
            let owner = "\(alias).\(quoteIdentifier(column))"
            return RelatedRows(from: table, owner: owner, conditions: [Fragment(sql: "\(owner) IS NOT NULL")] + restriction,
                               alias: alias, destination: destination)
        case .joinTable(let joinTable, let sourceColumn, let targetColumn, _, let reflexive):
            let join = alias + "j"
            let source = quoteIdentifier(sourceColumn), target = quoteIdentifier(targetColumn)
            // A relationship that is its own inverse may hold a pair in either column (as the reader's lists).
            let pairsTable = quoteIdentifier(joinTable)
            let pairs = reflexive
                ? "(SELECT \(source) AS \(source), \(target) AS \(target) FROM \(pairsTable) UNION SELECT \(target), \(source) FROM \(pairsTable))"
                : pairsTable
            let owner = "\(join).\(source)"
            return RelatedRows(from: "\(pairs) AS \(join) JOIN \(table) ON \(alias).\"Z_PK\" = \(join).\(target)", owner: owner,
                               conditions: [Fragment(sql: "\(owner) IS NOT NULL")] + restriction, alias: alias, destination: destination)
        case .missing(let reason):
            throw SQLiteStoreError.relationshipUnreadable(entity: entity.name, relationship: name, reason: reason)
        case .foreignKey, .inverseForeignKey:
            throw BrowserError.badRequest("\(entity.name).\(name) is not a to-many relationship")
        }
    }

    /// `row.Z_PK [NOT] IN (SELECT owner FROM related WHERE … [GROUP BY owner HAVING …])`.
    private func owners(row: String, in related: RelatedRows, where condition: Fragment?, groupedBy having: Fragment?,
                        included: Bool) -> Fragment {
        var select = Self.joined(related.conditions + [condition].compactMap { $0 },
                                 prefix: "SELECT \(related.owner) FROM \(related.from) WHERE ")
        if let having {
            select.sql += " GROUP BY \(related.owner) HAVING \(having.sql)"
            select.arguments += having.arguments
        }
        return Fragment(sql: "\(row).\"Z_PK\" \(included ? "IN" : "NOT IN") (\(select.sql))", arguments: select.arguments, cost: Fragment.subqueryCost)
    }

    /// `Z_ENT` among the relationship's destination and its sub-entities, nil when every row of the table is one.
    private func destinationRestriction(_ relationship: RelationshipMapping, _ destination: EntityMapping,
                                        alias: String) -> Fragment? {
        guard !(destination.coversWholeTable && relationship.destinationSubtree == destination.subtreeNumbers) else { return nil }
        var arguments: [SQLiteValue] = []
        let sql = RecordReader.entityCondition(relationship.destinationSubtree, alias: alias, arguments: &arguments)
        return sql.map { Fragment(sql: $0, arguments: arguments) }
    }

    private mutating func nextAlias() -> String {
        aliasCount += 1
        return "cdb_r\(aliasCount)"
    }

    private static func joined(_ parts: [Fragment], prefix: String) -> Fragment {
        Fragment(sql: prefix + (parts.isEmpty ? "1" : parts.map(\.sql).joined(separator: " AND ")),
                 arguments: parts.flatMap(\.arguments))
    }

    // MARK: Counts

    /// The operator that holds exactly where `op` does not.
    static func complement(of op: FilterOperator) throws -> FilterOperator {
        switch op {
        case .equals: .notEquals
        case .notEquals: .equals
        case .lessThan: .greaterThanOrEqual
        case .lessThanOrEqual: .greaterThan
        case .greaterThan: .lessThanOrEqual
        case .greaterThanOrEqual: .lessThan
        default: throw BrowserError.badRequest("@count cannot be compared with \(op.rawValue)")
        }
    }

    static func compare(_ left: Int, _ op: FilterOperator, _ right: Int) throws -> Bool {
        switch op {
        case .equals: left == right
        case .notEquals: left != right
        case .lessThan: left < right
        case .lessThanOrEqual: left <= right
        case .greaterThan: left > right
        case .greaterThanOrEqual: left >= right
        default: throw BrowserError.badRequest("@count cannot be compared with \(op.rawValue)")
        }
    }
}
