import Foundation

/// Predicate text read into a tree, with where each condition was written.
public struct ParsedPredicate: Sendable, Hashable {
    /// Not yet checked against a model: `RecordFilter.validated` does that.
    public var filter: RecordFilter
    /// The UTF-16 span of each condition (comparison, quantified comparison or `@count`), in the order
    /// `RecordFilter.conditions` lists them, so a validation error can be underlined where it was written.
    public var conditionSpans: [Range<Int>]
}

/// Reads the documented subset of Core Data's predicate format syntax (docs/API.md "Predicates") into a
/// `RecordFilter`. No `%@` or `$VAR` (the lexer says what a placeholder is and what to write instead), no
/// `SUBQUERY`, no functions, no `MATCHES`: values are literals, so text from a URL can never be a format string.
/// Errors say where and what was expected (`PredicateSyntaxError`).
///
/// ```
/// predicate  := or
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!") not | primary
/// primary    := "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | condition
/// condition  := [ "ANY" | "SOME" | "ALL" | "NONE" ] keypath operator [ "[" ("c" | "d" | "cd") "]" ] operand
///             | keypath "." "@count" comparison-operator integer      (keypath: to-one steps, then a to-many)
///             | value comparison-operator [options] keypath          (flipped: `CAST(…) < date` is `date > CAST(…)`)
///             | value "IN" keypath                                   (`ANY keypath == value`: record membership)
///             | "{" values "}" "CONTAINS" [options] keypath          (`keypath IN {values}`)
/// operand    := value | keypath | "{" [ value ("," value)* ] "}"     (a list for IN, two values for BETWEEN)
/// value      := string | number | TRUE | FALSE | YES | NO | NIL | NULL | CAST(number-or-string, "NSDate")
/// ```
/// Keywords are case-insensitive; a chain of one operator is one group (`a AND b AND c` is `all([a, b, c])`),
/// a parenthesised group stays its own node.
public enum PredicateParser {
    public static func parse(_ text: String) throws(PredicateSyntaxError) -> ParsedPredicate {
        let lexer = PredicateLexer(text)
        var state = State(tokens: try lexer.tokens(), lexer: lexer)
        let filter = try state.parseOr(depth: 0)
        guard case .end = state.current.kind else {
            throw state.error(expected: "AND, OR or the end of the predicate")
        }
        return ParsedPredicate(filter: filter, conditionSpans: state.spans)
    }

    private struct State {
        let tokens: [PredicateToken]
        let lexer: PredicateLexer
        var position = 0
        var spans: [Range<Int>] = []

        var current: PredicateToken { tokens[position] }

        mutating func advance() -> PredicateToken {
            let token = tokens[position]
            if position < tokens.count - 1 { position += 1 }
            return token
        }

        func isWord(_ words: String...) -> Bool {
            guard case .word(let word) = current.kind else { return false }
            return words.contains(word.uppercased())
        }

        func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

        func error(expected: String) -> PredicateSyntaxError {
            lexer.error(at: current.start, current.end, expected: expected)
        }

        mutating func expectSymbol(_ symbol: String, _ what: String) throws(PredicateSyntaxError) {
            guard isSymbol(symbol) else { throw error(expected: what) }
            _ = advance()
        }

        mutating func parseOr(depth: Int) throws(PredicateSyntaxError) -> RecordFilter {
            var parts = [try parseAnd(depth: depth)]
            while isWord("OR") || isSymbol("||") {
                _ = advance()
                parts.append(try parseAnd(depth: depth))
            }
            return parts.count == 1 ? parts[0] : .any(parts)
        }

        mutating func parseAnd(depth: Int) throws(PredicateSyntaxError) -> RecordFilter {
            var parts = [try parseNot(depth: depth)]
            while isWord("AND") || isSymbol("&&") {
                _ = advance()
                parts.append(try parseNot(depth: depth))
            }
            return parts.count == 1 ? parts[0] : .all(parts)
        }

        /// `depth` counts open parentheses and `NOT`s, bounded so hostile text cannot exhaust the stack.
        mutating func parseNot(depth: Int) throws(PredicateSyntaxError) -> RecordFilter {
            if isWord("NOT") || isSymbol("!") {
                guard depth < RecordFilter.maximumDepth else {
                    throw error(expected: "at most \(RecordFilter.maximumDepth) levels of nesting")
                }
                _ = advance()
                return .not(try parseNot(depth: depth + 1))
            }
            if isSymbol("(") {
                guard depth < RecordFilter.maximumDepth else {
                    throw error(expected: "at most \(RecordFilter.maximumDepth) levels of nesting")
                }
                _ = advance()
                let inner = try parseOr(depth: depth + 1)
                try expectSymbol(")", "AND, OR or a closing )")
                return inner
            }
            if isWord("TRUEPREDICATE") { _ = advance(); return .all([]) }
            if isWord("FALSEPREDICATE") { _ = advance(); return .any([]) }
            return try parseCondition()
        }

        mutating func parseCondition() throws(PredicateSyntaxError) -> RecordFilter {
            let start = current.start
            let filter: RecordFilter
            if startsValue {
                filter = try parseValueFirst(start: start)
            } else {
                var quantifier: FilterQuantifier?
                if isWord("ANY", "SOME") { quantifier = .any } else if isWord("ALL") { quantifier = .all } else if isWord("NONE") { quantifier = FilterQuantifier.none }
                if quantifier != nil { _ = advance() }
                let (components, counted) = try parseKeyPath(quantified: quantifier != nil)
                if counted {
                    let (op, number) = try parseCountComparison()
                    filter = .count(relationship: components.joined(separator: "."), op, number)
                } else {
                    let op = try parseOperator()
                    let options = try parseOptions()
                    let operand = try parseOperand(for: op)
                    if let quantifier {
                        // `ANY tags == <ID>`: an empty key path is the related record itself.
                        filter = .quantified(quantifier, relationship: components[0],
                                             FilterComparison(FilterKeyPath(Array(components.dropFirst())), op, options: options, operand))
                    } else {
                        filter = .comparison(FilterComparison(FilterKeyPath(components), op, options: options, operand))
                    }
                }
            }
            let end = tokens[max(position - 1, 0)].end
            spans.append(lexer.utf16Offsets[start]..<lexer.utf16Offsets[end])
            return filter
        }

        /// Whether the condition starts with a value (`CAST(…) < modificationDate`, `{"a", "b"} CONTAINS name`).
        var startsValue: Bool {
            switch current.kind {
            case .string, .number, .symbol("{"): return true
            case .word(let word): return ["CAST", "TRUE", "YES", "FALSE", "NO", "NIL", "NULL"].contains(word.uppercased())
            default: return false
            }
        }

        /// A condition written value first, as apps write them, read as the same condition with the key path first:
        /// `v < kp` is `kp > v`, `{a, b} CONTAINS kp` is `kp IN {a, b}`, `v IN kp` is `ANY kp == v` (for a to-many
        /// relationship, record membership: `"x-coredata://…" IN tags`).
        mutating func parseValueFirst(start: Int) throws(PredicateSyntaxError) -> RecordFilter {
            if isSymbol("{") {
                let values = try parseList(after: "the start of the condition")
                guard case .word(let word) = current.kind, word.uppercased() == "CONTAINS" else {
                    throw error(expected: "CONTAINS after a {…} list written first ({\"a\", \"b\"} CONTAINS name)")
                }
                _ = advance()
                let options = try parseOptions()
                let (components, _) = try parseKeyPath(quantified: true)
                return .comparison(FilterComparison(FilterKeyPath(components), .in, options: options, .list(values)))
            }
            let value = try parseValue(after: "the start of the condition")
            let opToken = current
            let op = try parseOperator()
            let options = try parseOptions()
            let (components, counted) = try parseKeyPath(quantified: false)
            if op == .in {
                guard !counted else { throw lexer.error(at: opToken.start, opToken.end, expected: "a to-many relationship after IN") }
                // `v IN tags` is `ANY tags == v`; `v IN tags.name` is `ANY tags.name == v` (Core Data reads both so).
                return .quantified(.any, relationship: components[0],
                                   FilterComparison(FilterKeyPath(Array(components.dropFirst())), .equals, options: options, .value(value)))
            }
            guard let flipped = Self.flipped(op) else {
                throw lexer.error(at: opToken.start, opToken.end, expected: "==, !=, <, <=, >, >= or IN after a value written first "
                    + "(or the key path first: name \(op.rawValue) \"…\")")
            }
            if counted {
                guard case .integer(let whole) = value, let number = Int(exactly: whole), options.isEmpty else {
                    throw lexer.error(at: start, opToken.start, expected: "a whole number to compare @count with")
                }
                return .count(relationship: components.joined(separator: "."), flipped, number)
            }
            return .comparison(FilterComparison(FilterKeyPath(components), flipped, options: options, .value(value)))
        }

        /// The operator that holds for `b op' a` exactly when `op` holds for `a op b`; nil for the text operators.
        static func flipped(_ op: FilterOperator) -> FilterOperator? {
            switch op {
            case .equals, .notEquals: op
            case .lessThan: .greaterThan
            case .lessThanOrEqual: .greaterThanOrEqual
            case .greaterThan: .lessThan
            case .greaterThanOrEqual: .lessThanOrEqual
            default: nil
            }
        }

        /// `== 3` after `@count`.
        mutating func parseCountComparison() throws(PredicateSyntaxError) -> (FilterOperator, Int) {
            guard case .symbol(let symbol) = current.kind, let op = FilterOperator(rawValue: symbol),
                  [.equals, .notEquals, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual].contains(op) else {
                throw error(expected: "==, !=, <, <=, > or >= after @count")
            }
            _ = advance()
            guard case .number(let numeral) = current.kind, let number = Int(numeral) else {
                throw error(expected: "a whole number to compare @count with")
            }
            _ = advance()
            return (op, number)
        }

        /// Names separated by dots, possibly ending in `@count`.
        mutating func parseKeyPath(quantified: Bool) throws(PredicateSyntaxError) -> ([String], counted: Bool) {
            var components: [String] = []
            while true {
                switch current.kind {
                case .word(let word) where !PredicateLexer.isReserved(word):
                    components.append(word)
                case .escapedWord(let word):
                    components.append(word)
                case .symbol("@") where !components.isEmpty && !quantified:
                    _ = advance()
                    guard case .word(let word) = current.kind, word == "count" else {
                        throw error(expected: "count after @ (the only collection operator supported is @count)")
                    }
                    _ = advance()
                    return (components, true)
                case .word(let word) where components.isEmpty:
                    throw error(expected: PredicateLexer.isReserved(word) && ["SELF", "SUBQUERY", "FETCH"].contains(word.uppercased())
                                ? "a key path (\(word.uppercased()) is not supported)"
                                : "a key path (write #\(word) for a property named \(word))")
                default:
                    throw error(expected: components.isEmpty ? "a key path (an attribute or relationship name)" : "a name after the dot")
                }
                _ = advance()
                guard isSymbol(".") else { return (components, false) }
                _ = advance()
            }
        }

        mutating func parseOperator() throws(PredicateSyntaxError) -> FilterOperator {
            switch current.kind {
            case .symbol(let symbol):
                if let op = FilterOperator(rawValue: symbol), op.rawValue.first?.isLetter == false {
                    _ = advance()
                    return op
                }
            case .word(let word):
                let upper = word.uppercased()
                if let op = FilterOperator(rawValue: upper), upper.first?.isLetter == true {
                    _ = advance()
                    return op
                }
                if upper == "MATCHES" {
                    throw error(expected: "an operator other than MATCHES (regular expressions are not supported: use LIKE with * and ?)")
                }
            default:
                break
            }
            throw error(expected: "an operator (==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, IN, BETWEEN)")
        }

        mutating func parseOptions() throws(PredicateSyntaxError) -> FilterOptions {
            // `==[c]` and `== [c]` alike: Core Data reads the options after the operator, spaces or not.
            guard isSymbol("[") else { return [] }
            _ = advance()
            guard case .word(let letters) = current.kind else { throw error(expected: "c, d or cd inside [ ]") }
            var options: FilterOptions = []
            for letter in letters.lowercased() {
                switch letter {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                default: throw error(expected: "c, d or cd inside [ ] (only case and diacritic options are supported)")
                }
            }
            _ = advance()
            try expectSymbol("]", "] after the options")
            return options
        }

        mutating func parseOperand(for op: FilterOperator) throws(PredicateSyntaxError) -> FilterOperand {
            switch op {
            case .in:
                return .list(try parseList(after: "IN"))
            case .between:
                let listStart = current
                let values = try parseList(after: "BETWEEN")
                guard values.count == 2 else {
                    throw lexer.error(at: listStart.start, tokens[position - 1].end, expected: "two values in BETWEEN {low, high}",
                                      found: "\(values.count)")
                }
                return .range(values[0], values[1])
            default:
                if isSymbol("{") { throw error(expected: "one value after \(op.rawValue) ({…} lists go with IN and BETWEEN)") }
                if startsKeyPath {
                    // Two key paths compared: `lastServerTimeStamp > clearedTimeStamp`.
                    return .keyPath(FilterKeyPath(try parseKeyPath(quantified: true).0))
                }
                return .value(try parseValue(after: op.rawValue))
            }
        }

        /// Whether an operand is a name rather than a value.
        var startsKeyPath: Bool {
            switch current.kind {
            case .escapedWord: return true
            case .word(let word): return !PredicateLexer.isReserved(word)
            default: return false
            }
        }

        mutating func parseList(after op: String) throws(PredicateSyntaxError) -> [AttributeValue] {
            try expectSymbol("{", "{ after \(op)")
            var values: [AttributeValue] = []
            if isSymbol("}") { _ = advance(); return values }
            while true {
                values.append(try parseValue(after: values.isEmpty ? "{" : ","))
                if isSymbol(",") { _ = advance(); continue }
                try expectSymbol("}", ", or } in the list")
                return values
            }
        }

        mutating func parseValue(after what: String) throws(PredicateSyntaxError) -> AttributeValue {
            let token = current
            switch token.kind {
            case .string(let text):
                _ = advance()
                return .string(text)
            case .number(let numeral):
                _ = advance()
                guard let value = PredicateValues.number(numeral) else {
                    throw lexer.error(at: token.start, token.end, expected: "a number a Double can hold")
                }
                return value
            case .word(let word):
                switch word.uppercased() {
                case "TRUE", "YES": _ = advance(); return .boolean(true)
                case "FALSE", "NO": _ = advance(); return .boolean(false)
                case "NIL", "NULL": _ = advance(); return .null
                case "CAST": return try parseCast()
                default: break
                }
            default:
                break
            }
            throw error(expected: "a value after \(what) (a quoted string, a number, TRUE, FALSE, NIL or CAST(…, \"NSDate\"))")
        }

        /// `CAST(604670400, "NSDate")` (seconds since 2001-01-01, Core Data's form), also with the number quoted,
        /// and `CAST("2020-03-01T12:00:00Z", "NSDate")` with an ISO 8601 date.
        mutating func parseCast() throws(PredicateSyntaxError) -> AttributeValue {
            _ = advance()
            try expectSymbol("(", "( after CAST")
            let argument = current
            let date: Date?
            switch argument.kind {
            case .number(let numeral): date = Double(numeral).flatMap { $0.isFinite ? Date(timeIntervalSinceReferenceDate: $0) : nil }
            case .string(let text): date = Double(text).map(Date.init(timeIntervalSinceReferenceDate:)) ?? PredicateValues.date(fromISO: text)
            default: date = nil
            }
            guard let date else {
                throw error(expected: "seconds since 2001-01-01 or an ISO 8601 date (\"2020-03-01\", \"2020-03-01T12:00:00Z\") in CAST")
            }
            _ = advance()
            try expectSymbol(",", ", \"NSDate\" in CAST")
            guard case .string(let type) = current.kind, type == "NSDate" else {
                throw error(expected: "\"NSDate\" (CAST only makes dates)")
            }
            _ = advance()
            try expectSymbol(")", ") to close CAST")
            return .date(date)
        }
    }
}
