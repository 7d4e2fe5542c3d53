import BrowserCore
import Foundation

/// One attribute comparison as SQL over its column, for rows that have a value: `core` holds where the
/// comparison does, `complement` where it does not. Neither says anything about NULL (`FilterTranslation` adds
/// what a missing value gives), and neither is true for NULL except the constant "1".
///
/// Values are compared in the form Core Data stores them (format doc §7, `ValueDecoder`): integers and Booleans
/// as INTEGER (a Boolean is true when non-zero, as the reader decodes it), Double and Float as REAL, dates as
/// REAL seconds since 2001 (INTEGER-stored whole seconds compare the same), Decimal against the doubles whose
/// shown value is on the right side (`DecimalBounds`), UUIDs as their 16 bytes, URIs and strings as UTF-8 text.
/// Text without options compares exactly, code point by code point (`=`, `instr`, `substr`, a byte range for
/// `BEGINSWITH`, `GLOB` for `LIKE`: SQLite's `LIKE` folds ASCII and treats `%` and `_` specially); with `[c]`,
/// `[d]` or `[cd]` both sides are `TextFolding.fold(_:options:)` forms (`cdb_fold`, and `cdb_contains` for
/// `CONTAINS[cd]`, the search box's matcher).
struct ValueTest {
    typealias Fragment = FilterTranslation.Fragment

    var core: Fragment
    var complement: Fragment

    static let never = ValueTest(core: .never, complement: .always)

    private var swapped: ValueTest { ValueTest(core: complement, complement: core) }

    static func make(_ comparison: FilterComparison, _ attribute: AttributeMapping, reference: String) throws -> ValueTest {
        // `!=` is the complement of `==` on rows with a value.
        if comparison.op == .notEquals {
            var equality = comparison
            equality.op = .equals
            return try make(equality, attribute, reference: reference).swapped
        }
        let values: [AttributeValue]
        switch comparison.operand {
        case .value(let value): values = [value]
        case .list(let list): values = list
        case .range(let low, let high): values = [low, high]
        case .object, .objects:
            throw BrowserError.badRequest("\(attribute.name) is an attribute: it cannot be compared with an object ID")
        case .keyPath:
            throw BrowserError.badRequest("\(attribute.name) is compared with another attribute, not a value")
        }
        let builder = Builder(attribute: attribute, reference: reference, op: comparison.op)
        switch attribute.kind.attributeType {
        case .string:
            let texts = try values.map { value -> String in
                guard case .string(let text) = value else { throw builder.mismatch(value) }
                return text
            }
            return comparison.options.isEmpty ? try builder.exactText(texts) : try builder.foldedText(texts, comparison.options)
        case .integer16, .integer32, .integer64, .double, .float, .date:
            return try builder.ordered(values.map { try builder.number($0) })
        case .decimal:
            return try builder.decimal(values.map { value -> Decimal in
                switch value {
                case .decimal(let number): return number
                case .integer(let number): return Decimal(number)
                case .double(let number) where number.isFinite: return Decimal(number)
                default: throw builder.mismatch(value)
                }
            })
        case .boolean:
            return try builder.eachEqual(values.map { value -> ValueTest in
                let flag: Bool
                switch value {
                case .boolean(let given): flag = given
                case .integer(let number): flag = number != 0
                default: throw builder.mismatch(value)
                }
                // The reader decodes any non-zero integer as true.
                let isTrue = Fragment(sql: "\(reference) <> 0"), isFalse = Fragment(sql: "\(reference) = 0")
                return flag ? ValueTest(core: isTrue, complement: isFalse) : ValueTest(core: isFalse, complement: isTrue)
            })
        case .uuid:
            return try builder.equalOnly(values.map { value -> SQLiteValue in
                guard case .uuid(let uuid) = value else { throw builder.mismatch(value) }
                return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
            })
        case .uri:
            return try builder.equalOnly(values.map { value -> SQLiteValue in
                switch value {
                case .uri(let text), .string(let text): return .text(text)
                default: throw builder.mismatch(value)
                }
            })
        default:
            throw BrowserError.badRequest("\(attribute.name) (\(attribute.kind.attributeType.rawValue)) can only be compared with nil")
        }
    }

    /// The SQL of one comparison's shapes over `reference`.
    private struct Builder {
        let attribute: AttributeMapping
        let reference: String
        let op: FilterOperator

        func mismatch(_ value: AttributeValue) -> BrowserError {
            .badRequest("\(attribute.name) (\(attribute.kind.attributeType.rawValue)) cannot be compared with \(value)")
        }

        func unsupported() -> BrowserError {
            .badRequest("\(attribute.name) (\(attribute.kind.attributeType.rawValue)) cannot be compared with \(op.rawValue)")
        }

        /// A number or date as stored; nil for NaN (SQLite would bind it as NULL; NaN equals and orders with nothing).
        func number(_ value: AttributeValue) throws -> SQLiteValue? {
            switch value {
            case .integer(let number): return .integer(number)
            case .double(let number): return number.isNaN ? nil : .real(number)
            case .float(let number): return number.isNaN ? nil : .real(Double(number))
            case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
            default: throw mismatch(value)
            }
        }

        func comparison(_ sql: String, _ arguments: [SQLiteValue]) -> Fragment {
            Fragment(sql: sql, arguments: arguments)
        }

        /// `==`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN` on plain column values.
        func ordered(_ values: [SQLiteValue?]) throws -> ValueTest {
            let column = reference
            if op == .in {
                let members = values.compactMap { $0 }
                guard !members.isEmpty else { return .never }
                let list = Array(repeating: "?", count: members.count).joined(separator: ", ")
                return ValueTest(core: comparison("\(column) IN (\(list))", members),
                                 complement: comparison("\(column) NOT IN (\(list))", members))
            }
            guard !values.contains(where: { $0 == nil }) else { return .never }
            let bound = values.compactMap { $0 }
            // The SQL operator and the one that holds exactly where it does not.
            let operators: (core: String, complement: String)
            switch op {
            case .equals: operators = ("=", "<>")
            case .lessThan: operators = ("<", ">=")
            case .lessThanOrEqual: operators = ("<=", ">")
            case .greaterThan: operators = (">", "<=")
            case .greaterThanOrEqual: operators = (">=", "<")
            case .between:
                return ValueTest(core: comparison("\(column) BETWEEN ? AND ?", bound),
                                 complement: comparison("(\(column) < ? OR \(column) > ?)", bound))
            default: throw unsupported()
            }
            return ValueTest(core: comparison("\(column) \(operators.core) ?", bound),
                             complement: comparison("\(column) \(operators.complement) ?", bound))
        }

        /// `==` and `IN` of values compared by equality only (UUID, URI).
        func equalOnly(_ values: [SQLiteValue]) throws -> ValueTest {
            guard op == .equals || op == .in else { throw unsupported() }
            return try ordered(values)
        }

        /// `==` (one test) or `IN` (any of the tests).
        func eachEqual(_ tests: [ValueTest]) throws -> ValueTest {
            switch op {
            case .equals where tests.count == 1: return tests[0]
            case .in:
                guard !tests.isEmpty else { return .never }
                return ValueTest(core: Self.combine(tests.map(\.core), "OR"), complement: Self.combine(tests.map(\.complement), "AND"))
            default: throw unsupported()
            }
        }

        static func combine(_ parts: [Fragment], _ conjunction: String) -> Fragment {
            guard parts.count > 1 else { return parts[0] }
            return Fragment(sql: "(" + parts.map(\.sql).joined(separator: " \(conjunction) ") + ")",
                            arguments: parts.flatMap(\.arguments), cost: parts.map(\.cost).max() ?? 0)
        }

        // MARK: Decimal

        func decimal(_ values: [Decimal]) throws -> ValueTest {
            // Shown value >= d ⟺ stored >= lowest(showing: d); shown value > d ⟺ stored >= lowest(strictly).
            func atLeast(_ d: Decimal, strictly: Bool) -> ValueTest {
                guard let bound = DecimalBounds.lowest(showing: d, strictly: strictly) else { return .never }
                return ValueTest(core: comparison("\(reference) >= ?", [.real(bound)]),
                                 complement: comparison("\(reference) < ?", [.real(bound)]))
            }
            func both(_ low: ValueTest, _ high: ValueTest) -> ValueTest {
                ValueTest(core: Self.combine([low.core, high.core], "AND"), complement: Self.combine([low.complement, high.complement], "OR"))
            }
            switch op {
            case .equals, .in:
                return try eachEqual(values.map { both(atLeast($0, strictly: false), atLeast($0, strictly: true).swapped) })
            case .lessThan: return atLeast(values[0], strictly: false).swapped
            case .lessThanOrEqual: return atLeast(values[0], strictly: true).swapped
            case .greaterThan: return atLeast(values[0], strictly: true)
            case .greaterThanOrEqual: return atLeast(values[0], strictly: false)
            case .between: return both(atLeast(values[0], strictly: false), atLeast(values[1], strictly: true).swapped)
            default: throw unsupported()
            }
        }

        // MARK: Text

        /// Exact text: code point by code point, which for valid UTF-8 is byte by byte.
        func exactText(_ texts: [String]) throws -> ValueTest {
            let column = reference
            switch op {
            case .equals, .in:
                return try ordered(texts.map { .text($0) })
            case .contains:
                return ValueTest(core: comparison("instr(\(column), ?) > 0", [.text(texts[0])]),
                                 complement: comparison("instr(\(column), ?) = 0", [.text(texts[0])]))
            case .beginsWith:
                // The texts starting with p are those from p up to (not including) p with its last byte raised
                // by one (UTF-8 never holds 0xFF): a range SQLite can take from an index on the column.
                let prefix = Array(texts[0].utf8)
                guard let last = prefix.last else { return ValueTest(core: .always, complement: .never) }
                let upper = SQLiteValue.text(Array(prefix.dropLast()) + [last + 1])
                return ValueTest(core: comparison("(\(column) >= ? AND \(column) < ?)", [.text(prefix), upper]),
                                 complement: comparison("(\(column) < ? OR \(column) >= ?)", [.text(prefix), upper]))
            case .endsWith:
                let suffix = texts[0]
                guard !suffix.isEmpty else { return ValueTest(core: .always, complement: .never) }
                // substr counts characters (code points) of TEXT.
                let arguments: [SQLiteValue] = [.integer(-Int64(suffix.unicodeScalars.count)), .text(suffix)]
                return ValueTest(core: comparison("substr(\(column), ?) = ?", arguments),
                                 complement: comparison("substr(\(column), ?) <> ?", arguments))
            case .like:
                let pattern = [SQLiteValue.text(Self.globPattern(texts[0]))]
                return ValueTest(core: comparison("\(column) GLOB ?", pattern),
                                 complement: comparison("NOT (\(column) GLOB ?)", pattern))
            default:
                throw unsupported()
            }
        }

        /// Folded text: `cdb_fold(column, options)` against operands folded once here. A value `cdb_fold` cannot
        /// fold (invalid UTF-8) matches nothing, so each test is `coalesce(…, 0)`.
        func foldedText(_ texts: [String], _ options: FilterOptions) throws -> ValueTest {
            let folded = texts.map { TextFolding.fold($0, options: options) }
            func test(_ sql: String, _ arguments: [SQLiteValue]) -> ValueTest {
                ValueTest(core: Fragment(sql: "coalesce(\(sql), 0)", arguments: arguments, cost: Fragment.functionCost),
                          complement: Fragment(sql: "NOT coalesce(\(sql), 0)", arguments: arguments, cost: Fragment.functionCost))
            }
            if op == .contains, options == .caseAndDiacriticInsensitive {
                return test("\(FoldedContainsFunction.name)(\(reference), ?)", [.text(folded[0])])
            }
            let value = "\(FoldedTextFunction.name)(\(reference), \(options.rawValue))"
            switch op {
            case .equals:
                return test("\(value) = ?", [.text(folded[0])])
            case .in:
                guard !folded.isEmpty else { return .never }
                return test("\(value) IN (\(Array(repeating: "?", count: folded.count).joined(separator: ", ")))",
                            folded.map { .text($0) })
            case .contains:
                return test("instr(\(value), ?) > 0", [.text(folded[0])])
            case .beginsWith:
                return test("substr(\(value), 1, ?) = ?", [.integer(Int64(folded[0].unicodeScalars.count)), .text(folded[0])])
            case .endsWith:
                guard !folded[0].isEmpty else { return test("\(value) IS NOT NULL", []) }
                return test("substr(\(value), ?) = ?", [.integer(-Int64(folded[0].unicodeScalars.count)), .text(folded[0])])
            case .like:
                return test("\(value) GLOB ?", [.text(Self.globPattern(folded[0]))])
            default:
                throw unsupported()
            }
        }

        /// Core Data's `LIKE` pattern (`*` any run, `?` one character, nothing else special) as an SQLite `GLOB`
        /// pattern, whose only other special character, `[`, is written as the class `[[]`.
        /// https://www.sqlite.org/lang_expr.html#glob
        static func globPattern(_ pattern: String) -> String {
            var glob = ""
            for scalar in pattern.unicodeScalars {
                if scalar == "[" { glob += "[[]" } else { glob.unicodeScalars.append(scalar) }
            }
            return glob
        }
    }
}
