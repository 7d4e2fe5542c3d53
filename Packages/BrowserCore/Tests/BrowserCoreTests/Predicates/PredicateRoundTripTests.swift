import BrowserCore
import Foundation
import Testing

/// Canonical text carries the whole tree: for any validated tree `t`, `validated(parse(format(t))) == t`, and
/// printing is stable. Trees are generated (seeded, so a failure repeats) over every operator, type, option,
/// quantifier, nesting and awkward value (quotes, control characters, Unicode, reserved words as names,
/// sub-millisecond dates, integers beyond 2^53, long decimals).
struct PredicateRoundTripTests {
    static let schema = Make.librarySchema()
    static let book = schema.entity(named: "Book")!

    @Test("generated trees survive printing and parsing", arguments: 0..<8)
    func generatedTrees(seed: UInt64) throws {
        var generator = TreeGenerator(seed: seed, schema: Self.schema)
        for _ in 0..<100 {
            let tree = try RecordFilter.validated(generator.tree(depth: 0, entity: Self.book), for: Self.book, in: Self.schema)
            let text = PredicateText.format(tree)
            let reread = try RecordFilter.validated(PredicateParser.parse(text).filter, for: Self.book, in: Self.schema)
            #expect(reread == tree, "\(text)")
            #expect(PredicateText.format(reread) == text)
        }
    }

    @Test("generated trees survive their JSON form", arguments: 0..<4)
    func generatedTreesThroughJSON(seed: UInt64) throws {
        var generator = TreeGenerator(seed: seed + 100, schema: Self.schema)
        for _ in 0..<100 {
            let tree = try RecordFilter.validated(generator.tree(depth: 0, entity: Self.book), for: Self.book, in: Self.schema)
            let decoded = try RecordFilter.decodeQueryBody(BrowserJSON.encode(["where": tree]))
            #expect(try RecordFilter.validated(decoded, for: Self.book, in: Self.schema) == tree, "\(PredicateText.format(tree))")
        }
    }

    /// Found by the predicate fuzzer: a date whose ISO text has a five-digit year did not read back from JSON.
    @Test func aDateBeyondYear9999SurvivesTextAndJSON() throws {
        let text = #"publishedAt BETWEEN {CAST(0, "NSDate"), CAST("20002-3-01T12:00:00Z", "NSDate")} && price IN {10.11, 3}"#
        let tree = try RecordFilter.validated(PredicateParser.parse(text).filter, for: Self.book, in: Self.schema)
        let printed = PredicateText.format(tree)
        #expect(try RecordFilter.validated(PredicateParser.parse(printed).filter, for: Self.book, in: Self.schema) == tree)
        let decoded = try RecordFilter.decodeQueryBody(BrowserJSON.encode(["where": tree]))
        #expect(try RecordFilter.validated(decoded, for: Self.book, in: Self.schema) == tree)
    }

    /// Found by the predicate fuzzer: `-0.0e3` is a Double negative zero, printed `-0.0`, which read back as the
    /// decimal 0 and printed `0.0` the second time.
    @Test func aNegativeZeroPrintsTheSameTwice() throws {
        let tree = try RecordFilter.validated(PredicateParser.parse("rating >= -0.0e3").filter, for: Self.book, in: Self.schema)
        let printed = PredicateText.format(tree)
        #expect(printed == "rating >= 0.0")
        let reread = try RecordFilter.validated(PredicateParser.parse(printed).filter, for: Self.book, in: Self.schema)
        #expect(reread == tree)
        #expect(PredicateText.format(reread) == printed)
    }

    @Test func awkwardValuesPrintAsExpected() {
        let date = Date(timeIntervalSinceReferenceDate: 604_670_400.123456)
        #expect(PredicateText.literal(.date(date)) == "CAST(604670400.123456, \"NSDate\")")
        #expect(PredicateText.literal(.date(Date(timeIntervalSince1970: 1_583_064_000.5))) == "CAST(\"2020-03-01T12:00:00.500Z\", \"NSDate\")")
        #expect(PredicateText.literal(.string("a\"b\\c\n\u{1}")) == #""a\"b\\c\n\u{1}""#)
        #expect(PredicateText.format(.comparison(FilterComparison(FilterKeyPath(["author", "IN"]), .equals, .value(.null))))
            == "author.#IN == NIL")
        #expect(PredicateText.format(.not(.all([.all([]), .any([])]))) == "NOT (TRUEPREDICATE AND FALSEPREDICATE)")
    }
}

/// Random valid trees over a schema (SplitMix64, so each seed gives the same trees everywhere).
struct TreeGenerator {
    var random: SeededGenerator
    let schema: StoreSchema

    init(seed: UInt64, schema: StoreSchema) {
        self.random = SeededGenerator(state: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        self.schema = schema
    }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func tree(depth: Int, entity: EntitySchema) -> RecordFilter {
        let roll = below(depth >= 4 ? 5 : 9)
        switch roll {
        case 5: return .all((0..<below(4)).map { _ in tree(depth: depth + 1, entity: entity) })
        case 6: return .any((0..<below(4)).map { _ in tree(depth: depth + 1, entity: entity) })
        case 7: return .not(tree(depth: depth + 1, entity: entity))
        case 8:
            let toMany = entity.relationships.filter(\.isToMany)
            guard let relationship = toMany.isEmpty ? nil : pick(toMany),
                  let destination = schema.entity(named: relationship.destination) else { return comparison(entity) }
            if below(3) == 0 {
                return .count(relationship: relationship.name, pick([.equals, .notEquals, .lessThan, .greaterThanOrEqual]), below(5))
            }
            guard case .comparison(let inner) = comparison(destination) else { return comparison(entity) }
            return .quantified(pick(FilterQuantifier.allCases), relationship: relationship.name, inner)
        default:
            return comparison(entity)
        }
    }

    mutating func comparison(_ entity: EntitySchema) -> RecordFilter {
        // Now and then through a to-one relationship, or comparing the relationship itself.
        let toOne = entity.relationships.filter { !$0.isToMany }
        if !toOne.isEmpty, below(4) == 0 {
            let relationship = pick(toOne)
            if below(3) == 0 {
                let operand: FilterOperand = below(2) == 0 ? .value(.null)
                    : .object("x-coredata://\(Make.storeID)/\(relationship.destination)/p\(below(100) + 1)")
                return .comparison(FilterComparison(FilterKeyPath(relationship.name), pick([.equals, .notEquals]), operand))
            }
            if let destination = schema.entity(named: relationship.destination),
               case .comparison(var inner) = comparison(destination) {
                inner.keyPath.components.insert(relationship.name, at: 0)
                return .comparison(inner)
            }
        }
        // Attributes of undefined type cannot be filtered on at all (FilterValidationTests checks the refusal).
        let attribute = pick(entity.attributes.filter { $0.type != .undefined })
        let path = FilterKeyPath(attribute.name)
        if below(6) == 0 {
            return .comparison(FilterComparison(path, pick([.equals, .notEquals]), .value(.null)))
        }
        switch attribute.type {
        case .string:
            let op = pick([FilterOperator.equals, .notEquals, .contains, .beginsWith, .endsWith, .like, .in])
            let options = pick([FilterOptions(), .caseInsensitive, .diacriticInsensitive, .caseAndDiacriticInsensitive])
            let operand: FilterOperand = op == .in ? .list((0..<below(3)).map { _ in .string(text()) }) : .value(.string(text()))
            return .comparison(FilterComparison(path, op, options: options, operand))
        case .boolean:
            return .comparison(FilterComparison(path, pick([.equals, .notEquals]), .value(.boolean(below(2) == 0))))
        case .uuid:
            return .comparison(FilterComparison(path, pick([.equals, .notEquals]), .value(.uuid(UUID()))))
        case .uri:
            return .comparison(FilterComparison(path, .in, .list([.uri("https://example.com/" + text())])))
        case .binary, .transformable, .undefined, .objectID:
            return .comparison(FilterComparison(path, pick([.equals, .notEquals]), .value(.null)))
        default:
            let op = pick([FilterOperator.equals, .notEquals, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between, .in])
            switch op {
            case .between: return .comparison(FilterComparison(path, op, .range(value(attribute.type), value(attribute.type))))
            case .in: return .comparison(FilterComparison(path, op, .list((0..<below(3)).map { _ in value(attribute.type) })))
            default: return .comparison(FilterComparison(path, op, .value(value(attribute.type))))
            }
        }
    }

    mutating func value(_ type: AttributeType) -> AttributeValue {
        switch type {
        case .integer16, .integer32: .integer(Int64(below(2_000)) - 1_000)
        case .integer64: .integer(pick([0, -1, 9_007_199_254_740_993, Int64.max, Int64.min]))
        case .double, .float: .double(pick([0.1, -2.5, 1e300, .leastNonzeroMagnitude, 3, Double(below(1_000)) / 7]))
        case .decimal: .decimal(pick([Decimal(string: "10.11")!, Decimal(string: "-0.000001")!, Decimal(string: "12345678901234567890.123")!, 3]))
        case .date: .date(pick([Date(timeIntervalSinceReferenceDate: 604_670_400.123456), Date(timeIntervalSince1970: 0),
                                Date(timeIntervalSince1970: -4_000_000_000), Date(timeIntervalSince1970: 1_583_064_000.5)]))
        default: .null
        }
    }

    mutating func text() -> String {
        pick(["", "k", "Café", "say \"hi\"", "back\\slash", "line\nbreak\ttab\u{1}", "😀 é\u{301}", "*?", "AND", "x-coredata://a/B/p1"])
    }
}
