public import Foundation

/// The JSON form of a predicate tree (docs/API.md "Predicates as JSON"): what `POST /api/entities/:name/query`
/// reads and `GET /api/entities/:name/predicate` answers, so a builder can send what it shows and show what the
/// text mode typed.
///
/// ```
/// {"all": [node, …]}   {"any": [node, …]}   {"not": node}
/// {"keyPath": "author.name", "op": "BEGINSWITH", "options": "c", "value": "k"}
/// {"keyPath": "pageCount", "op": "IN", "values": [1, 2]}        (BETWEEN: "values": [low, high])
/// {"keyPath": "author", "op": "==", "object": "x-coredata://…/Author/p1"}
/// {"keyPath": "author", "op": "IN", "objects": ["x-coredata://…/Author/p1", "x-coredata://…/Author/p2"]}
/// {"keyPath": "lastServerTimeStamp", "op": ">", "rightKeyPath": "clearedTimeStamp"}
/// {"quantifier": "ANY", "relationship": "tags", "condition": {"keyPath": "SELF", "op": "==", "object": "x-coredata://…/Tag/p1"}}
/// {"quantifier": "ANY", "relationship": "tags", "condition": {"keyPath": "name", "op": "==", "value": "x"}}
/// {"count": "tags", "op": ">", "value": 3}                       (through to-ones: {"count": "series.study.albums", …})
/// ```
/// `"keyPath": "SELF"` is the related record itself (an empty key path), only inside a quantifier's condition.
/// Values are JSON scalars (`null` is nil); a date, a UUID or a number beyond a Double is a string, given its
/// type by validation (a date may also be a number: seconds since 2001-01-01, as Core Data stores it). Unknown keys and mixed forms are refused, naming where in the body they are.
extension RecordFilter: Codable {
    private enum Key: String, CodingKey, CaseIterable {
        case all, any, not, keyPath, op, options, value, values, object, objects, rightKeyPath, quantifier, relationship, condition, count
    }

    public init(from decoder: any Decoder) throws {
        // Each level adds one or two coding keys: this bounds recursion before validation counts depth exactly.
        guard decoder.codingPath.count <= 2 * RecordFilter.maximumDepth + 2 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "nested more than \(RecordFilter.maximumDepth) levels deep"))
        }
        let container = try decoder.container(keyedBy: Key.self)
        let keys = Set(container.allKeys)
        func only(_ allowed: Set<Key>) throws {
            if let extra = keys.subtracting(allowed).sorted(by: { $0.rawValue < $1.rawValue }).first {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [extra],
                    debugDescription: "\"\(extra.rawValue)\" does not belong with \(allowed.map { "\"\($0.rawValue)\"" }.sorted().joined(separator: ", "))"))
            }
        }
        if keys.contains(.all) {
            try only([.all])
            self = .all(try container.decode([RecordFilter].self, forKey: .all))
        } else if keys.contains(.any) {
            try only([.any])
            self = .any(try container.decode([RecordFilter].self, forKey: .any))
        } else if keys.contains(.not) {
            try only([.not])
            self = .not(try container.decode(RecordFilter.self, forKey: .not))
        } else if keys.contains(.quantifier) {
            try only([.quantifier, .relationship, .condition])
            let word = try container.decode(String.self, forKey: .quantifier)
            guard let quantifier = FilterQuantifier(rawValue: word.uppercased()) else {
                throw DecodingError.dataCorruptedError(forKey: .quantifier, in: container,
                                                       debugDescription: "quantifier must be ANY, ALL or NONE, got \"\(word)\"")
            }
            let condition = try container.decode(RecordFilter.self, forKey: .condition)
            guard case .comparison(let comparison) = condition else {
                throw DecodingError.dataCorruptedError(forKey: .condition, in: container,
                                                       debugDescription: "a quantifier's condition is one comparison (keyPath, op, value)")
            }
            self = .quantified(quantifier, relationship: try container.decode(String.self, forKey: .relationship), comparison)
        } else if keys.contains(.count) {
            try only([.count, .op, .value])
            let op = try Self.decodeOperator(container)
            guard case .integer(let whole) = try container.decode(JSONScalar.self, forKey: .value).value,
                  let number = Int(exactly: whole) else {
                throw DecodingError.dataCorruptedError(forKey: .value, in: container,
                                                       debugDescription: "@count is compared with a whole number")
            }
            self = .count(relationship: try container.decode(String.self, forKey: .count), op, number)
        } else if keys.contains(.keyPath) {
            try only([.keyPath, .op, .options, .value, .values, .object, .objects, .rightKeyPath])
            let path = try container.decode(String.self, forKey: .keyPath)
            let op = try Self.decodeOperator(container)
            var options: FilterOptions = []
            if let letters = try container.decodeIfPresent(String.self, forKey: .options) {
                for letter in letters {
                    switch letter {
                    case "c": options.insert(.caseInsensitive)
                    case "d": options.insert(.diacriticInsensitive)
                    default: throw DecodingError.dataCorruptedError(forKey: .options, in: container,
                                                                    debugDescription: "options are \"c\", \"d\" or \"cd\", got \"\(letters)\"")
                    }
                }
            }
            let operand: FilterOperand
            let given = [Key.value, .values, .object, .objects, .rightKeyPath].filter(keys.contains)
            guard given.count == 1 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "a comparison has exactly one of \"value\", \"values\" (IN, BETWEEN), \"object\", \"objects\" (IN) or \"rightKeyPath\""))
            }
            switch given[0] {
            case .object: operand = .object(try container.decode(String.self, forKey: .object))
            case .objects: operand = .objects(try container.decode([String].self, forKey: .objects))
            case .rightKeyPath: operand = .keyPath(Self.keyPath(try container.decode(String.self, forKey: .rightKeyPath)))
            case .values:
                let values = try container.decode([JSONScalar].self, forKey: .values).map(\.value)
                if op == .between {
                    guard values.count == 2 else {
                        throw DecodingError.dataCorruptedError(forKey: .values, in: container,
                                                               debugDescription: "BETWEEN takes two values, [low, high]")
                    }
                    operand = .range(values[0], values[1])
                } else {
                    operand = .list(values)
                }
            default: operand = .value(try container.decode(JSONScalar.self, forKey: .value).value)
            }
            self = .comparison(FilterComparison(Self.keyPath(path), op, options: options, operand))
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "a condition is an object with \"all\", \"any\", \"not\", \"keyPath\", \"quantifier\" or \"count\""))
        }
    }

    /// `"SELF"` is the empty key path (the record itself); any other text is names joined with dots.
    private static func keyPath(_ text: String) -> FilterKeyPath {
        text == "SELF" ? FilterKeyPath([]) : FilterKeyPath(text.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    private static func decodeOperator(_ container: KeyedDecodingContainer<Key>) throws -> FilterOperator {
        let text = try container.decode(String.self, forKey: .op)
        guard let op = FilterOperator(rawValue: text) ?? FilterOperator(rawValue: text.uppercased()) else {
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription:
                "unknown operator \"\(text)\" (==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, IN, BETWEEN)")
        }
        return op
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .all(let parts): try container.encode(parts, forKey: .all)
        case .any(let parts): try container.encode(parts, forKey: .any)
        case .not(let part): try container.encode(part, forKey: .not)
        case .comparison(let comparison): try Self.encode(comparison, into: &container)
        case .quantified(let quantifier, let relationship, let comparison):
            try container.encode(quantifier.rawValue, forKey: .quantifier)
            try container.encode(relationship, forKey: .relationship)
            try container.encode(RecordFilter.comparison(comparison), forKey: .condition)
        case .count(let relationship, let op, let number):
            try container.encode(relationship, forKey: .count)
            try container.encode(op.rawValue, forKey: .op)
            try container.encode(number, forKey: .value)
        }
    }

    private static func encode(_ comparison: FilterComparison, into container: inout KeyedEncodingContainer<Key>) throws {
        try container.encode(comparison.keyPath.components.isEmpty ? "SELF" : comparison.keyPath.description, forKey: .keyPath)
        try container.encode(comparison.op.rawValue, forKey: .op)
        let options = PredicateText.options(comparison.options).filter { $0 != "[" && $0 != "]" }
        if !options.isEmpty { try container.encode(options, forKey: .options) }
        switch comparison.operand {
        case .value(let value): try container.encode(JSONValue(value), forKey: .value)
        case .list(let values): try container.encode(values.map(JSONValue.init), forKey: .values)
        case .range(let low, let high): try container.encode([JSONValue(low), JSONValue(high)], forKey: .values)
        case .object(let uri): try container.encode(uri, forKey: .object)
        case .objects(let uris): try container.encode(uris, forKey: .objects)
        case .keyPath(let other): try container.encode(other.description, forKey: .rightKeyPath)
        }
    }

    /// A value as the API sends values, except a date whose ISO form (to the millisecond) would not read back
    /// as the same instant: that one goes as seconds since 2001-01-01, which validation also takes for a Date.
    private struct JSONValue: Encodable {
        let value: AttributeValue
        init(_ value: AttributeValue) { self.value = value }

        func encode(to encoder: any Encoder) throws {
            if case .date(let date) = value, PredicateValues.date(fromISO: ISO8601Timestamp.string(from: date)) != date {
                var container = encoder.singleValueContainer()
                try container.encode(date.timeIntervalSinceReferenceDate)
            } else {
                try value.encode(to: encoder)
            }
        }
    }

    /// Reads the body of `POST /api/entities/:name/query`, `{"where": <tree>}`: at most `maximumRequestBytes`,
    /// a 400 naming where in the body anything is wrong. Not yet checked against the model.
    public static func decodeQueryBody(_ body: Data) throws(BrowserError) -> RecordFilter {
        guard body.count <= maximumRequestBytes else {
            throw .payloadTooLarge("The body is \(body.count) bytes; a query takes at most \(maximumRequestBytes)")
        }
        struct Body: Decodable {
            let filter: RecordFilter
            enum Keys: String, CodingKey { case `where` }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                if let extra = container.allKeys.first(where: { $0.stringValue != "where" }) {
                    throw DecodingError.dataCorrupted(.init(codingPath: [extra],
                        debugDescription: "unknown key (the body is {\"where\": <tree>}; list parameters go in the URL)"))
                }
                filter = try decoder.container(keyedBy: Keys.self).decode(RecordFilter.self, forKey: .where)
            }
        }
        do {
            return try JSONDecoder().decode(Body.self, from: body).filter
        } catch let error as DecodingError {
            throw .badRequest("Body: \(Self.describe(error))")
        } catch {
            throw .badRequest("Body: \(error)")
        }
    }

    /// `at where.all[2].op: unknown operator "LIKEE"`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON (\(context.debugDescription))" }
            return "at \(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "at \(path(context.codingPath)): missing \"\(key.stringValue)\""
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let what = type == String.self ? "a string" : type == Int.self ? "a whole number"
                : String(describing: type).hasPrefix("Array") ? "a list" : "an object (a condition)"
            return "at \(path(context.codingPath)): expected \(what)"
        @unknown default:
            return "\(error)"
        }
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
