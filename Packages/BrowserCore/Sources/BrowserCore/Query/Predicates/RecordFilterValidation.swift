import Foundation

/// Checks an unchecked `RecordFilter` (parsed from text, decoded from JSON, built by a client) against the model
/// and gives the tree every store may rely on (see `RecordFilter`'s "What a store may rely on").
///
/// Limits, so a request cannot make a store work without bound: at most `maximumDepth` nested levels (groups,
/// `NOT`, a quantifier and its comparison each count one), at most `maximumConditions` conditions (comparisons,
/// quantified comparisons and `@count`s), and a request body of at most `maximumRequestBytes`.
///
/// What validation changes, so every store sees one form: values get their attribute's case (`300` for a Double
/// attribute is `.double(300)`, `"2020-03-01"` (or seconds since 2001) for a Date a `.date`, a string for a UUID a `.uuid`; `1`/`0`
/// for a Boolean `true`/`false`); a string compared with a to-one relationship is an `.object`; a group of one
/// condition is that condition; `address.street` naming a composite's element (an attribute whose name holds a
/// dot) becomes that one attribute.
extension RecordFilter {
    public static let maximumDepth = 16
    public static let maximumConditions = 256
    /// The largest `POST /api/entities/:name/query` body, in bytes.
    public static let maximumRequestBytes = 64 * 1024

    /// The conditions (comparisons, quantified comparisons, `@count`s) in the order they are written.
    public var conditions: [RecordFilter] {
        switch self {
        case .all(let parts), .any(let parts): parts.flatMap(\.conditions)
        case .not(let part): part.conditions
        case .comparison, .quantified, .count: [self]
        }
    }

    /// The checked tree, or a 400 naming the condition and what is wrong with it.
    public static func validated(_ filter: RecordFilter, for entity: EntitySchema,
                                 in schema: StoreSchema) throws(BrowserError) -> RecordFilter {
        switch checked(filter, for: entity, in: schema) {
        case .success(let checked): return checked
        case .failure(let problem): throw .badRequest(problem.message)
        }
    }

    /// `validated`, keeping which condition failed (its index in `conditions`), for a text mode to underline it.
    public static func checked(_ filter: RecordFilter, for entity: EntitySchema,
                               in schema: StoreSchema) -> Result<RecordFilter, FilterProblem> {
        var validator = FilterValidator(schema: schema)
        do {
            return .success(try validator.check(filter, entity: entity))
        } catch {
            return .failure(error)
        }
    }
}

extension RecordFilter {
    /// Whether a condition compares a to-one relationship with a record ID.
    public var namesRecords: Bool {
        conditions.contains { condition in
            switch condition {
            case .comparison(let comparison), .quantified(_, _, let comparison):
                switch comparison.operand {
                case .object, .objects: return true
                default: return false
                }
            default: return false
            }
        }
    }

    /// The first condition comparing a to-one relationship with a record of another store than `storeIdentifier`
    /// (an ID copied from another app or simulator): refused rather than matching nothing, so the person learns
    /// why. Validation cannot tell, not knowing the store; the service asks this after it.
    public func foreignObject(storeIdentifier: String) -> FilterProblem? {
        for (index, condition) in conditions.enumerated() {
            let comparison: FilterComparison
            switch condition {
            case .comparison(let compared), .quantified(_, _, let compared): comparison = compared
            default: continue
            }
            let uris: [String]
            switch comparison.operand {
            case .object(let uri): uris = [uri]
            case .objects(let list): uris = list
            default: continue
            }
            guard let id = uris.lazy.compactMap({ try? ObjectID(uri: $0) }).first(where: { $0.storeIdentifier != storeIdentifier }) else { continue }
            return FilterProblem(conditionIndex: index, message: "In \(PredicateText.format(condition)): \(id.entity) "
                + "\(id.shortForm) is a record of another store (\(id.storeIdentifier)); this store is \(storeIdentifier)")
        }
        return nil
    }
}

/// Why a filter was refused; `conditionIndex` is the failing condition's index in `RecordFilter.conditions`
/// (nil for a limit of the whole tree).
public struct FilterProblem: Error, Sendable, Hashable {
    public var conditionIndex: Int?
    public var message: String
}

private struct FilterValidator {
    let schema: StoreSchema
    var conditionCount = 0

    init(schema: StoreSchema) { self.schema = schema }

    mutating func check(_ filter: RecordFilter, entity: EntitySchema) throws(FilterProblem) -> RecordFilter {
        let depth = Self.depth(filter)
        guard depth <= RecordFilter.maximumDepth else {
            throw FilterProblem(conditionIndex: nil, message:
                "The predicate is nested \(depth) levels deep; at most \(RecordFilter.maximumDepth) are allowed")
        }
        let count = filter.conditions.count
        guard count <= RecordFilter.maximumConditions else {
            throw FilterProblem(conditionIndex: nil, message:
                "The predicate has \(count) conditions; at most \(RecordFilter.maximumConditions) are allowed")
        }
        return try node(filter, entity: entity)
    }

    static func depth(_ filter: RecordFilter) -> Int {
        switch filter {
        case .all(let parts), .any(let parts): 1 + (parts.map(depth).max() ?? 0)
        case .not(let part): 1 + depth(part)
        case .comparison, .count: 1
        case .quantified: 2
        }
    }

    private mutating func node(_ filter: RecordFilter, entity: EntitySchema) throws(FilterProblem) -> RecordFilter {
        switch filter {
        case .all(let parts):
            var checked: [RecordFilter] = []
            for part in parts { checked.append(try node(part, entity: entity)) }
            return checked.count == 1 ? checked[0] : .all(checked)
        case .any(let parts):
            var checked: [RecordFilter] = []
            for part in parts { checked.append(try node(part, entity: entity)) }
            return checked.count == 1 ? checked[0] : .any(checked)
        case .not(let part):
            return .not(try node(part, entity: entity))
        case .comparison(let comparison):
            let index = nextCondition()
            // `tags CONTAINS <ID>`: the record is related to that one, as Core Data reads it (`ANY tags == <ID>`).
            if comparison.keyPath.components.count == 1, comparison.op == .contains, comparison.options.isEmpty,
               entity.relationship(named: comparison.keyPath.last)?.isToMany == true {
                let destination = try toMany(comparison.keyPath.last, of: entity, condition: filter, index: index)
                var member = comparison
                member.keyPath = FilterKeyPath([])
                member.op = .equals
                return .quantified(.any, relationship: comparison.keyPath.last,
                                   try checkMembership(member, of: comparison.keyPath.last, in: destination, condition: filter, index: index))
            }
            return .comparison(try check(comparison, from: entity, condition: filter, index: index))
        case .quantified(let quantifier, let name, let comparison):
            let index = nextCondition()
            let destination = try toMany(name, of: entity, condition: filter, index: index)
            if comparison.keyPath.components.isEmpty {
                return .quantified(quantifier, relationship: name,
                                   try checkMembership(comparison, of: name, in: destination, condition: filter, index: index))
            }
            return .quantified(quantifier, relationship: name,
                               try check(comparison, from: destination, condition: filter, index: index))
        case .count(let name, let op, let number):
            let index = nextCondition()
            // To-one steps, then the to-many relationship counted: `series.study.albums.@count`.
            var owner = entity
            let steps = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for step in steps.dropLast() {
                guard let relationship = owner.relationship(named: step), !relationship.isToMany,
                      let next = schema.entity(named: relationship.destination) else {
                    throw problem(filter, index, "\(owner.name).\(step) is not a to-one relationship: @count follows to-one "
                        + "relationships to the to-many relationship it counts")
                }
                owner = next
            }
            _ = try toMany(steps.last ?? name, of: owner, condition: filter, index: index)
            guard [.equals, .notEquals, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual].contains(op) else {
                throw problem(filter, index, "@count is compared with ==, !=, <, <=, > or >=, not \(op.rawValue)")
            }
            return .count(relationship: name, op, number)
        }
    }

    private mutating func nextCondition() -> Int {
        defer { conditionCount += 1 }
        return conditionCount
    }

    private func problem(_ condition: RecordFilter, _ index: Int, _ reason: String) -> FilterProblem {
        FilterProblem(conditionIndex: index, message: "In \(PredicateText.format(condition)): \(reason)")
    }

    /// The destination of a to-many relationship `name` of `entity`.
    private func toMany(_ name: String, of entity: EntitySchema, condition: RecordFilter, index: Int) throws(FilterProblem) -> EntitySchema {
        guard let relationship = entity.relationship(named: name) else {
            let kind = entity.attribute(named: name) != nil ? "an attribute, not a relationship" : "not a relationship of \(entity.name)"
            throw problem(condition, index, "\(name) is \(kind)")
        }
        guard relationship.isToMany else {
            throw problem(condition, index, "\(entity.name).\(name) is a to-one relationship: compare its key path directly (\(name).attribute), without ANY, ALL, NONE or @count")
        }
        guard let destination = schema.entity(named: relationship.destination) else {
            throw problem(condition, index, "the model has no entity \(relationship.destination), the destination of \(entity.name).\(name)")
        }
        return destination
    }

    /// What a key path reaches: an attribute (through to-one relationships), or a to-one relationship itself.
    private enum Target {
        case attribute(AttributeSchema, components: [String])
        case relationship(RelationshipSchema, components: [String])
    }

    private func resolve(_ keyPath: FilterKeyPath, from entity: EntitySchema, condition: RecordFilter,
                         index: Int) throws(FilterProblem) -> Target {
        guard !keyPath.components.isEmpty else { throw problem(condition, index, "the key path is empty") }
        var current = entity
        var resolved: [String] = []
        var position = 0
        let components = keyPath.components
        while position < components.count {
            let name = components[position]
            // A composite's element is an attribute named `composite.element`: take the longest run of names
            // that is one attribute.
            for end in stride(from: components.count, to: position, by: -1) {
                let joined = components[position..<end].joined(separator: ".")
                if let attribute = current.attribute(named: joined) {
                    guard end == components.count else {
                        throw problem(condition, index, "\(current.name).\(joined) is an attribute; nothing can follow it in a key path")
                    }
                    return .attribute(attribute, components: resolved + [joined])
                }
            }
            guard let relationship = current.relationship(named: name) else {
                throw problem(condition, index, "\(current.name) has no attribute or relationship \"\(name)\"")
            }
            if relationship.isToMany {
                let rest = components.count > position + 1 ? "." + components[(position + 1)...].joined(separator: ".") : ""
                throw problem(condition, index, "\(current.name).\(name) is a to-many relationship: say which records must match "
                    + "(ANY \(name)\(rest), ALL …, NONE …) or count them (\(name).@count)")
            }
            resolved.append(name)
            if position == components.count - 1 { return .relationship(relationship, components: resolved) }
            guard let next = schema.entity(named: relationship.destination) else {
                throw problem(condition, index, "the model has no entity \(relationship.destination)")
            }
            current = next
            position += 1
        }
        throw problem(condition, index, "the key path is empty")
    }

    private func check(_ comparison: FilterComparison, from entity: EntitySchema, condition: RecordFilter,
                       index: Int) throws(FilterProblem) -> FilterComparison {
        var result = comparison
        let op = comparison.op
        func fail(_ reason: String) -> FilterProblem { problem(condition, index, reason) }
        switch try resolve(comparison.keyPath, from: entity, condition: condition, index: index) {
        case .relationship(let relationship, let components):
            result.keyPath = FilterKeyPath(components)
            let name = components.joined(separator: ".")
            if case .value(.null) = comparison.operand, op == .equals || op == .notEquals, comparison.options.isEmpty {
                return result
            }
            result.operand = try recordIDs(comparison, subject: "\(name) is a to-one relationship", name: name,
                                           destination: relationship.destination, fail: fail)
            return result
        case .attribute(let attribute, let components):
            result.keyPath = FilterKeyPath(components)
            let name = components.joined(separator: ".")
            let type = attribute.type
            let typeName = "a \(type.rawValue) attribute"
            if !comparison.options.isEmpty, type != .string {
                throw fail("[c] and [d] compare text, and \(name) is \(typeName)")
            }
            // An attribute of undefined type (a SwiftData composite as a whole, a type the model does not name)
            // cannot be compared at all: Core Data raises an exception Swift cannot catch for such a key path, so
            // the live store would bring down the app, and every store refuses it alike. A composite's elements
            // (`address.city`) are attributes of their own and can be.
            if type == .undefined {
                throw fail("\(name) is an attribute of undefined type (a composite or a type the model does not name): "
                    + "it cannot be filtered on" + (attribute.name.contains(".") ? "" : "; a composite's elements can (\(name).<element>)"))
            }
            // `== nil` and `!= nil` work on every other attribute.
            if case .value(.null) = comparison.operand {
                guard op == .equals || op == .notEquals else { throw fail("nil is compared with == or !=, not \(op.rawValue)") }
                guard comparison.options.isEmpty else { throw fail("[c] and [d] mean nothing with nil") }
                return result
            }
            switch type {
            case .binary, .transformable, .objectID:
                throw fail("\(name) is \(typeName): its values can only be compared with nil (== nil, != nil)")
            default: break
            }
            switch op {
            case .contains, .beginsWith, .endsWith, .like:
                guard type == .string else { throw fail("\(op.rawValue) compares text, and \(name) is \(typeName)") }
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between:
                guard type.isNumeric || type == .date else {
                    throw fail("\(op.rawValue) compares numbers and dates, and \(name) is \(typeName)")
                }
            case .in:
                guard type != .boolean else { throw fail("IN does not apply to \(typeName); use == TRUE or == FALSE") }
            case .equals, .notEquals:
                break
            }
            if case .keyPath(let other) = comparison.operand {
                try checkKeyPathOperand(comparison, left: attribute, components: components, other: other, in: entity, fail: fail)
                return result
            }
            switch (op, comparison.operand) {
            case (.in, .list(let values)):
                var coerced: [AttributeValue] = []
                for value in values { coerced.append(try FilterValueCoercion.coerce(value, to: attribute, name: name, fail: fail)) }
                result.operand = .list(coerced)
            case (.in, _):
                throw fail("IN takes a list of values: {a, b, …}")
            case (.between, .range(let low, let high)):
                result.operand = .range(try FilterValueCoercion.coerce(low, to: attribute, name: name, fail: fail),
                                        try FilterValueCoercion.coerce(high, to: attribute, name: name, fail: fail))
            case (.between, _):
                throw fail("BETWEEN takes two values: {low, high}")
            case (_, .value(let value)):
                result.operand = .value(try FilterValueCoercion.coerce(value, to: attribute, name: name, fail: fail))
            case (_, .list), (_, .range):
                throw fail("\(op.rawValue) takes one value; lists go with IN and BETWEEN")
            case (_, .object), (_, .objects):
                throw fail("\(name) is an attribute; record IDs are compared with relationships")
            case (_, .keyPath):
                return result
            }
            return result
        }
    }
}

extension FilterValidator {
    /// The operand of a relationship compared with records: one ID for `==`/`!=`, a list of them for `IN`, each
    /// a record of the relationship's destination (or a sub-entity of it).
    /// `subject` says what is compared ("author is a to-one relationship"), `name` names the relationship.
    fileprivate func recordIDs(_ comparison: FilterComparison, subject: String, name: String, destination: String,
                               fail: (String) -> FilterProblem) throws(FilterProblem) -> FilterOperand {
        let forms = "compare it with == or != and a record's ID (x-coredata://…), with IN and a list of IDs, or with nil"
        guard comparison.options.isEmpty else { throw fail("\(subject): \(forms)") }
        var uris: [String] = []
        switch (comparison.op, comparison.operand) {
        case (.equals, .object(let text)), (.equals, .value(.string(let text))), (.equals, .value(.uri(let text))),
             (.notEquals, .object(let text)), (.notEquals, .value(.string(let text))), (.notEquals, .value(.uri(let text))):
            uris = [text]
        case (.in, .objects(let list)):
            uris = list
        case (.in, .list(let values)):
            for value in values {
                switch value {
                case .string(let text), .uri(let text): uris.append(text)
                default: throw fail("\(name) IN takes a list of record IDs ({\"x-coredata://…\", …}), not \(PredicateText.literal(value))")
                }
            }
        default:
            throw fail("\(subject): \(forms)")
        }
        var checked: [String] = []
        for uri in uris {
            let id: ObjectID
            do { id = try ObjectID(uri: uri) } catch { throw fail(error.message) }
            guard schema.subtree(of: destination).contains(id.entity) else {
                throw fail("\(name) leads to \(destination), and \(id.entity) \(id.shortForm) is not one")
            }
            checked.append(id.uri)
        }
        return comparison.op == .in ? .objects(checked) : .object(checked[0])
    }

    /// `ANY tags == <ID>`, `NONE tags IN {<ID>, …}`: the related record itself compared with records.
    fileprivate func checkMembership(_ comparison: FilterComparison, of relationship: String, in destination: EntitySchema, condition: RecordFilter,
                                     index: Int) throws(FilterProblem) -> FilterComparison {
        var result = comparison
        result.operand = try recordIDs(comparison, subject: "each related \(destination.name) record", name: relationship,
                                       destination: destination.name) { reason in
            problem(condition, index, reason)
        }
        return result
    }

    /// Two attributes of the same record compared (`lastServerTimeStamp > clearedTimeStamp`): both named directly
    /// (no relationship step: each store compares two columns of one row), of comparable types.
    fileprivate func checkKeyPathOperand(_ comparison: FilterComparison, left: AttributeSchema, components: [String],
                                         other: FilterKeyPath, in entity: EntitySchema,
                                         fail: (String) -> FilterProblem) throws(FilterProblem) {
        let name = components.joined(separator: ".")
        if entity.attribute(named: other.description) == nil, other.components.count == 1,
           entity.relationship(named: other.description) == nil {
            throw fail("\(entity.name) has no attribute \"\(other)\" to compare \(name) with (a text value goes in quotes: \"\(other)\")")
        }
        guard components.count == 1, let right = entity.attribute(named: other.description) else {
            throw fail("two key paths are compared only as attributes of the same record (\(name) and \(other) must both "
                + "be attributes of \(entity.name), without relationship steps)")
        }
        guard comparison.options.isEmpty else { throw fail("[c] and [d] apply to a value, not to a second key path") }
        let family: (AttributeType) -> String = { type in
            type.isNumeric ? "number" : type.rawValue
        }
        guard family(left.type) == family(right.type) else {
            throw fail("\(name) is a \(left.type.rawValue) attribute and \(other) a \(right.type.rawValue) one: they cannot be compared")
        }
        switch left.type {
        case .binary, .transformable, .objectID, .undefined:
            throw fail("\(name) is a \(left.type.rawValue) attribute: it cannot be compared with another attribute")
        default: break
        }
        switch comparison.op {
        case .equals, .notEquals: break
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard left.type.isNumeric || left.type == .date else {
                throw fail("\(comparison.op.rawValue) orders numbers and dates, and \(name) is a \(left.type.rawValue) attribute")
            }
        default:
            throw fail("two attributes are compared with ==, !=, <, <=, > or >=, not \(comparison.op.rawValue)")
        }
    }
}

extension AttributeType {
    /// Integer, Decimal, Double and Float: the types `<`, `BETWEEN` and number literals apply to.
    var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: true
        default: false
        }
    }
}
