import BrowserCore
import Foundation

/// What `FilterMatcher` reads of a record: its attribute values and its relationships' targets.
protocol FilterableRecord {
    var id: ObjectID { get }
    var values: [String: AttributeValue] { get }
    var links: [String: [ObjectID]] { get }
}

/// Evaluates a validated `RecordFilter` against records, with the semantics `RecordFilter` documents (two-valued
/// logic, nil rules, `TextFolding` for `[c]`/`[d]`, LIKE's `*` and `?`, ANY/ALL/NONE, `@count`). Needles are
/// folded once per query, not once per record.
struct FilterMatcher {
    private indirect enum Node {
        case all([Node])
        case any([Node])
        case not(Node)
        /// Follow `relationships` (to-one), read `name` (an attribute, a to-one relationship's target as its
        /// ID URI, or with an empty name the record's own ID URI), then test it.
        case comparison(relationships: [String], name: String, isRelationship: Bool, Test)
        case quantified(FilterQuantifier, relationship: String, Node)
        /// Follow `relationships` (to-one), then count `relationship`'s targets.
        case count(relationships: [String], relationship: String, FilterOperator, Int)
    }

    /// A comparison's operator and operand, ready to apply to one value.
    private struct Test {
        var op: FilterOperator
        var options: FilterOptions
        /// `== nil` / `!= nil`.
        var comparesWithNil: Bool
        /// The operand's values, strings folded by `options` (one for most operators, the list for IN, two for
        /// BETWEEN).
        var operands: [AttributeValue]
        /// LIKE's folded pattern.
        var pattern: [Unicode.Scalar] = []
        /// The other attribute of the same record, for two key paths compared.
        var otherAttribute: String?
    }

    private let root: Node?

    init(_ filter: RecordFilter?, entity: String, schema: StoreSchema) {
        root = filter.map { Self.compile($0, entity: schema.entity(named: entity), schema: schema) }
    }

    func matches<Record: FilterableRecord>(_ record: Record, resolve: (ObjectID) -> Record?) -> Bool {
        guard let root else { return true }
        return Self.evaluate(root, record, resolve)
    }

    // MARK: Compiling

    private static func compile(_ filter: RecordFilter, entity: EntitySchema?, schema: StoreSchema) -> Node {
        switch filter {
        case .all(let parts): return .all(parts.map { compile($0, entity: entity, schema: schema) })
        case .any(let parts): return .any(parts.map { compile($0, entity: entity, schema: schema) })
        case .not(let part): return .not(compile(part, entity: entity, schema: schema))
        case .comparison(let comparison): return compile(comparison, entity: entity, schema: schema)
        case .quantified(let quantifier, let relationship, let comparison):
            let destination = entity?.relationship(named: relationship).flatMap { schema.entity(named: $0.destination) }
            return .quantified(quantifier, relationship: relationship, compile(comparison, entity: destination, schema: schema))
        case .count(let path, let op, let number):
            let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            return .count(relationships: Array(steps.dropLast()), relationship: steps.last ?? path, op, number)
        }
    }

    private static func compile(_ comparison: FilterComparison, entity: EntitySchema?, schema: StoreSchema) -> Node {
        var current = entity
        for name in comparison.keyPath.relationships {
            current = current?.relationship(named: name).flatMap { schema.entity(named: $0.destination) }
        }
        let name = comparison.keyPath.components.isEmpty ? "" : comparison.keyPath.last
        let isRelationship = current?.relationship(named: name) != nil
        var test = Test(op: comparison.op, options: comparison.options, comparesWithNil: false, operands: [])
        switch comparison.operand {
        case .value(.null): test.comparesWithNil = true
        case .value(let value): test.operands = [fold(value, comparison.options)]
        case .list(let values): test.operands = values.map { fold($0, comparison.options) }
        case .range(let low, let high): test.operands = [low, high]
        case .object(let uri): test.operands = [.uri(uri)]
        case .objects(let uris): test.operands = uris.map { .uri($0) }
        case .keyPath(let other): test.otherAttribute = other.description
        }
        if comparison.op == .like, case .string(let pattern)? = test.operands.first {
            test.pattern = Array(pattern.unicodeScalars)
        }
        return .comparison(relationships: Array(comparison.keyPath.relationships), name: name,
                           isRelationship: isRelationship, test)
    }

    private static func fold(_ value: AttributeValue, _ options: FilterOptions) -> AttributeValue {
        guard case .string(let text) = value, !options.isEmpty else { return value }
        return .string(TextFolding.fold(text, options: options))
    }

    // MARK: Evaluating

    private static func evaluate<Record: FilterableRecord>(_ node: Node, _ record: Record, _ resolve: (ObjectID) -> Record?) -> Bool {
        switch node {
        case .all(let parts): return parts.allSatisfy { evaluate($0, record, resolve) }
        case .any(let parts): return parts.contains { evaluate($0, record, resolve) }
        case .not(let part): return !evaluate(part, record, resolve)
        case .comparison(let relationships, let name, let isRelationship, let test):
            var current = record
            for relationship in relationships {
                // A nil to-one (or a target missing from the store) leaves the value missing.
                guard let target = current.links[relationship]?.first, let next = resolve(target) else {
                    return holdsForMissing(test)
                }
                current = next
            }
            let value: AttributeValue
            if name.isEmpty {
                value = .uri(current.id.uri)
            } else if isRelationship {
                value = current.links[name]?.first.map { .uri($0.uri) } ?? .null
            } else {
                value = current.values[name] ?? .null
            }
            if let other = test.otherAttribute {
                return holdsBetween(test.op, value, current.values[other] ?? .null)
            }
            if case .null = value { return holdsForMissing(test) }
            return holds(test, value)
        case .quantified(let quantifier, let relationship, let comparison):
            let targets = (record.links[relationship] ?? []).compactMap(resolve)
            switch quantifier {
            case .any: return targets.contains { evaluate(comparison, $0, resolve) }
            case .all: return targets.allSatisfy { evaluate(comparison, $0, resolve) }
            case .none: return !targets.contains { evaluate(comparison, $0, resolve) }
            }
        case .count(let relationships, let relationship, let op, let number):
            var current = record
            for step in relationships {
                // Through a nil to-one the count is missing: it satisfies `!=` only.
                guard let target = current.links[step]?.first, let next = resolve(target) else { return op == .notEquals }
                current = next
            }
            return compare(op, current.links[relationship]?.count ?? 0, number)
        }
    }

    /// Two attributes of one record compared: `==` holds when both are missing or both equal, `!=` when not; an
    /// order is false when either is missing.
    private static func holdsBetween(_ op: FilterOperator, _ left: AttributeValue, _ right: AttributeValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return op == .equals
        case (.null, _), (_, .null): return op == .notEquals
        default:
            switch op {
            case .equals: return equal(left, right)
            case .notEquals: return !equal(left, right)
            default: return order(op, left, right)
            }
        }
    }

    /// A missing value satisfies `== nil` and `!= v`, nothing else.
    private static func holdsForMissing(_ test: Test) -> Bool {
        switch test.op {
        case .equals: test.comparesWithNil
        case .notEquals: !test.comparesWithNil
        default: false
        }
    }

    /// The test on a present value.
    private static func holds(_ test: Test, _ stored: AttributeValue) -> Bool {
        if test.comparesWithNil { return test.op == .notEquals }
        let value = fold(stored, test.options)
        switch test.op {
        case .equals: return test.operands.first.map { equal(value, $0) } ?? false
        case .notEquals: return !(test.operands.first.map { equal(value, $0) } ?? false)
        case .in: return test.operands.contains { equal(value, $0) }
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return test.operands.first.map { order(test.op, value, $0) } ?? false
        case .between:
            guard test.operands.count == 2 else { return false }
            return order(.greaterThanOrEqual, value, test.operands[0]) && order(.lessThanOrEqual, value, test.operands[1])
        case .contains, .beginsWith, .endsWith:
            guard case .string(let text) = value, case .string(let needle)? = test.operands.first else { return false }
            let haystack = Array(text.utf8), bytes = Array(needle.utf8)
            switch test.op {
            case .beginsWith: return haystack.starts(with: bytes)
            case .endsWith: return haystack.reversed().starts(with: bytes.reversed())
            default: return bytes.isEmpty || haystack.firstRange(of: bytes) != nil
            }
        case .like:
            guard case .string(let text) = value else { return false }
            return like(Array(text.unicodeScalars), test.pattern)
        }
    }

    /// Equality as the contract defines it: text code point by code point (Swift's `==` on `String` would treat
    /// canonically equivalent forms as equal; SQLite and Core Data compare code points), numbers by value.
    private static func equal(_ left: AttributeValue, _ right: AttributeValue) -> Bool {
        switch (left, right) {
        case (.string(let a), .string(let b)), (.uri(let a), .uri(let b)), (.string(let a), .uri(let b)), (.uri(let a), .string(let b)):
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        default: return order(.equals, left, right)
        }
    }

    /// `<`, `<=`, `>`, `>=` (and `==`) on numbers and dates; false for anything else, and for NaN.
    private static func order(_ op: FilterOperator, _ left: AttributeValue, _ right: AttributeValue) -> Bool {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return compare(op, a, b)
        case (.decimal(let a), .decimal(let b)): return compare(op, a, b)
        case (.integer(let a), .decimal(let b)): return compare(op, Decimal(a), b)
        case (.decimal(let a), .integer(let b)): return compare(op, a, Decimal(b))
        case (.date(let a), .date(let b)): return compare(op, a, b)
        default:
            guard let a = double(left), let b = double(right) else { return false }
            return compare(op, a, b)
        }
    }

    private static func double(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .double(let number): number
        case .float(let number): Double(number)
        case .decimal(let number): Double(number.description)
        default: nil
        }
    }

    private static func compare<T: Comparable>(_ op: FilterOperator, _ a: T, _ b: T) -> Bool {
        switch op {
        case .equals: a == b
        case .notEquals: !(a == b)
        case .lessThan: a < b
        case .lessThanOrEqual: a <= b
        case .greaterThan: a > b
        case .greaterThanOrEqual: a >= b
        default: false
        }
    }

    /// LIKE: `*` any run of code points, `?` exactly one, the whole value. Greedy with a return to the last `*`,
    /// so the cost is at most the value's length times the pattern's (no exponential backtracking).
    static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var i = 0, j = 0, star = -1, mark = 0
        while i < text.count {
            if j < pattern.count, pattern[j] == "?" || (pattern[j] != "*" && pattern[j] == text[i]) {
                i += 1
                j += 1
            } else if j < pattern.count, pattern[j] == "*" {
                star = j
                mark = i
                j += 1
            } else if star >= 0 {
                j = star + 1
                mark += 1
                i = mark
            } else {
                return false
            }
        }
        while j < pattern.count, pattern[j] == "*" { j += 1 }
        return j == pattern.count
    }
}
