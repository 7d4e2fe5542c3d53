import Foundation

/// "Copy as Swift" for SwiftData: a `FetchDescriptor` with `#Predicate`, and the reasons when a condition has no
/// `#Predicate` form.
struct SwiftDataFetchDescriptorWriter {
    let query: RecordQuery
    let schema: StoreSchema
    var problems: [String] = []
    /// Where the code is the closest `#Predicate` form rather than the same test: written as comments above it.
    private var approximations: [String] = []
    private var usedNames: Set<String> = []
    /// `let value1 = Date(…)` lines before the descriptor: `#Predicate` takes literals and captured constants,
    /// not initializer calls.
    private var constants: [String] = []

    init(query: RecordQuery, schema: StoreSchema) {
        self.query = query
        self.schema = schema
    }

    mutating func code() -> String {
        let type = query.entity
        let variable = name(for: type)
        var lines: [String] = []
        var arguments: [String] = []
        if let filter = query.matchFilter {
            let body = expression(filter, on: variable, entity: schema.entity(named: type))
            arguments.append("predicate: #Predicate<\(type)> { \(variable) in\n        \(body)\n    }")
        }
        let sortKeys = query.sortKeys.filter { !$0.countsRelationship }
        for key in query.sortKeys where key.countsRelationship {
            approximations.append(SortKey.countSortNote(key))
        }
        if !sortKeys.isEmpty {
            let descriptors = sortKeys.map {
                "SortDescriptor(\\\(type).\($0.attribute), order: \($0.order == .ascending ? ".forward" : ".reverse"))"
            }
            arguments.append("sortBy: [" + descriptors.joined(separator: ", ") + "]")
        }
        lines += approximations.map { "// " + $0 }
        lines += constants
        lines.append("var descriptor = FetchDescriptor<\(type)>(" + (arguments.isEmpty ? ")" : "\n    " + arguments.joined(separator: ",\n    ") + "\n)"))
        lines.append("descriptor.fetchLimit = \(query.limit)")
        if query.offset > 0 { lines.append("descriptor.fetchOffset = \(query.offset)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A closure parameter's name: the entity's name in lower camel case, numbered when already taken.
    private mutating func name(for entity: String) -> String {
        let base = (entity.first.map { String($0).lowercased() } ?? "") + entity.dropFirst()
        var candidate = base.isEmpty ? "record" : base
        var number = 2
        while usedNames.contains(candidate) {
            candidate = base + String(number)
            number += 1
        }
        usedNames.insert(candidate)
        return candidate
    }

    private mutating func expression(_ filter: RecordFilter, on variable: String, entity: EntitySchema?) -> String {
        switch filter {
        case .all(let parts) where parts.isEmpty: return "true"
        case .any(let parts) where parts.isEmpty: return "false"
        case .all(let parts): return "(" + parts.map { expression($0, on: variable, entity: entity) }.joined(separator: " && ") + ")"
        case .any(let parts): return "(" + parts.map { expression($0, on: variable, entity: entity) }.joined(separator: " || ") + ")"
        case .not(let part): return "!(" + expression(part, on: variable, entity: entity) + ")"
        case .count(let path, let op, let number):
            // Through to-one relationships (`series.study.albums`): each step is optional, as in a comparison; a nil
            // one leaves the count missing, which satisfies `!=` only.
            let steps = path.split(separator: ".").map(String.init)
            return throughToOne(steps.dropLast(), from: variable, entity: entity, missing: op == .notEquals) { _, subject, _ in
                "\(subject).\(steps.last ?? path).count \(op.rawValue) \(number)"
            }
        case .quantified(let quantifier, let relationship, let comparison):
            let destination = entity?.relationship(named: relationship)?.destination
            let inner = name(for: destination ?? "item")
            let test = self.comparison(comparison, on: inner, entity: destination.flatMap(schema.entity(named:)))
            switch quantifier {
            case .any: return "\(variable).\(relationship).contains { \(inner) in \(test) }"
            case .all: return "\(variable).\(relationship).allSatisfy { \(inner) in \(test) }"
            case .none: return "!\(variable).\(relationship).contains { \(inner) in \(test) }"
            }
        case .comparison(let comparison):
            return self.comparison(comparison, on: variable, entity: entity)
        }
    }

    /// Follows the key path's to-one relationships with `flatMap` (each is optional), then tests the last name.
    private mutating func comparison(_ comparison: FilterComparison, on variable: String, entity: EntitySchema?) -> String {
        // A nil relationship on the way leaves the value missing: it satisfies `== nil` and `!= value` only.
        let comparesWithNil: Bool
        if case .value(.null) = comparison.operand { comparesWithNil = true } else { comparesWithNil = false }
        let missing = comparison.op == .equals ? comparesWithNil : comparison.op == .notEquals ? !comparesWithNil : false
        return throughToOne(comparison.keyPath.relationships, from: variable, entity: entity, missing: missing) { writer, subject, current in
            writer.leaf(comparison, subject: subject, name: comparison.keyPath.last, entity: current)
        }
    }

    /// `test` on the record the to-one `relationships` reach, `missing` when one of them is nil:
    /// `(book.author.flatMap { author in <test> } ?? false)`, innermost first.
    private mutating func throughToOne(_ relationships: ArraySlice<String>, from variable: String, entity: EntitySchema?,
                                       missing: Bool, _ test: (inout Self, String, EntitySchema?) -> String) -> String {
        var current = entity
        var chain: [(String, String)] = []  // (closure parameter, property reached)
        var subject = variable
        for relationship in relationships {
            let destination = current?.relationship(named: relationship)?.destination ?? relationship
            let parameter = name(for: destination)
            chain.append((parameter, "\(subject).\(relationship)"))
            subject = parameter
            current = schema.entity(named: destination)
        }
        var result = test(&self, subject, current)
        for (parameter, property) in chain.reversed() {
            result = "(\(property).flatMap { \(parameter) in \(result) } ?? \(missing))"
        }
        return result
    }

    private mutating func leaf(_ comparison: FilterComparison, subject: String, name: String, entity: EntitySchema?) -> String {
        let property = "\(subject).\(name)"
        if name.contains(".") {
            problems.append("\(comparison.keyPath) is an element of a composite attribute, which #Predicate cannot reach this way")
        }
        switch comparison.operand {
        case .object, .objects:
            let subject = comparison.keyPath.components.isEmpty ? "the related record" : comparison.keyPath.description
            problems.append("\(subject) is compared with a record ID; #Predicate has no literal for a PersistentIdentifier")
            return "false"
        case .keyPath(let other):
            // Two attributes of one record; optional ones compare as optionals with == and !=, and are unwrapped for
            // an order (a nil one fails it).
            let right = "\(subject).\(other.description)"
            let optional = (entity?.attribute(named: name)?.isOptional ?? true) || (entity?.attribute(named: other.description)?.isOptional ?? true)
            guard comparison.op != .equals, comparison.op != .notEquals, optional else {
                return "\(property) \(comparison.op.rawValue) \(right)"
            }
            return "(\(property).flatMap { left in \(right).flatMap { right in left \(comparison.op.rawValue) right } } ?? false)"
        default:
            break
        }
        if case .value(.null) = comparison.operand {
            return "\(property) \(comparison.op.rawValue) nil"
        }
        let optional = entity?.attribute(named: name)?.isOptional ?? true
        // An optional attribute is unwrapped by `flatMap` (nil fails the test); a required one is used as it is.
        let value = optional ? self.name(for: name.replacingOccurrences(of: ".", with: "_")) : property
        let body: String
        switch (comparison.op, comparison.operand) {
        case (.equals, .value(let operand)), (.notEquals, .value(let operand)):
            if !comparison.options.isEmpty { return refuse(comparison, "\(comparison.op.rawValue)\(PredicateText.options(comparison.options)) (#Predicate compares text exactly)") }
            // Optional == and != work directly, with the contract's nil rules.
            return "\(property) \(comparison.op.rawValue) \(literal(operand))"
        case (.lessThan, .value(let operand)), (.lessThanOrEqual, .value(let operand)),
             (.greaterThan, .value(let operand)), (.greaterThanOrEqual, .value(let operand)):
            body = "\(value) \(comparison.op.rawValue) \(literal(operand))"
        case (.between, .range(let low, let high)):
            body = "\(value) >= \(literal(low)) && \(value) <= \(literal(high))"
        case (.in, .list(let values)):
            if !comparison.options.isEmpty { return refuse(comparison, "IN\(PredicateText.options(comparison.options))") }
            if values.isEmpty { return "false" }  // IN {} holds for no record
            body = "\(constant("[" + values.map(SwiftLiteral.value).joined(separator: ", ") + "]")).contains(\(value))"
        case (.contains, .value(let operand)):
            switch comparison.options {
            case []: body = "\(value).contains(\(literal(operand)))"
            case .caseAndDiacriticInsensitive:
                // Locale-aware in Foundation; matches [cd] for everyday text.
                body = "\(value).localizedStandardContains(\(literal(operand)))"
            default:
                // [c] or [d] alone: #Predicate has no case-only (or diacritic-only) contains. The closest form ignores
                // both, so it may match more records than the app's NSPredicate — said above the code, not hidden.
                let written = PredicateText.format(.comparison(comparison))
                approximations.append("\(written): #Predicate has no CONTAINS\(PredicateText.options(comparison.options)); "
                    + "localizedStandardContains ignores case and diacritics, so it may match more (\"cafe\" finds \"Café\")")
                body = "\(value).localizedStandardContains(\(literal(operand)))"
            }
        case (.beginsWith, .value(let operand)):
            guard comparison.options.isEmpty else { return refuse(comparison, "BEGINSWITH\(PredicateText.options(comparison.options))") }
            body = "\(value).starts(with: \(literal(operand)))"
        case (.endsWith, _):
            return refuse(comparison, "ENDSWITH")
        case (.like, _):
            return refuse(comparison, "LIKE")
        default:
            return refuse(comparison, comparison.op.rawValue)
        }
        return optional ? "(\(property).flatMap { \(value) in \(body) } ?? false)" : body
    }

    private mutating func refuse(_ comparison: FilterComparison, _ what: String) -> String {
        problems.append("#Predicate has no form of \(what) (in \(PredicateText.format(.comparison(comparison))))")
        return "false"
    }

    /// Strings, numbers and Booleans as literals; anything built by a call as a captured constant.
    private mutating func literal(_ value: AttributeValue) -> String {
        switch value {
        case .string, .integer, .double, .float, .boolean, .null: SwiftLiteral.value(value)
        default: constant(SwiftLiteral.value(value))
        }
    }

    private mutating func constant(_ expression: String) -> String {
        let name = name(for: "value\(constants.count + 1)")
        constants.append("let \(name) = \(expression)")
        return name
    }
}
