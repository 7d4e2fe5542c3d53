import Foundation

/// A `RecordFilter` as canonical predicate text, in the subset of Core Data's predicate format syntax that
/// `PredicateParser` reads: `pageCount > 300 AND author.name BEGINSWITH[c] "k"`.
///
/// One spelling per tree, so the text mode, shared URLs and error messages all show the same thing:
/// - keywords in upper case, `==` for equality, options as `[c]`, `[d]`, `[cd]`;
/// - `AND` and `OR` chains of one group on one level; a nested group (two or more conditions) in parentheses,
///   so `a AND (b OR c)` and `(a AND b) AND c` keep their trees; `NOT` before a condition, or before a
///   parenthesised group; an empty `all` is `TRUEPREDICATE`, an empty `any` `FALSEPREDICATE`;
/// - strings in double quotes, with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}` for other controls and invisible
///   characters;
/// - numbers as Swift prints them (`300`, `0.1`, `1e+300`), Booleans `TRUE`/`FALSE`, nil `NIL`;
/// - dates as `CAST("2020-03-01T12:00:00Z", "NSDate")` when the ISO form (to the millisecond) is exact, else
///   `CAST(604670400.123456, "NSDate")` (seconds since 2001-01-01, Core Data's own `CAST`), so a printed date
///   always reads back as the same instant;
/// - UUIDs, URIs and object IDs as quoted strings (validation gives them their
///   attribute's type back); record membership as `ANY tags == "x-coredata://…"`; a key path operand as written;
/// - a key path component that is a reserved word (`IN`, `ANY`…) or not a plain identifier with a `#` before
///   it, as Core Data escapes reserved words.
public enum PredicateText {
    public static func format(_ filter: RecordFilter) -> String {
        var text = ""
        append(filter, to: &text)
        return text
    }

    private static func append(_ filter: RecordFilter, to text: inout String) {
        switch filter {
        case .all(let parts) where parts.isEmpty: text += "TRUEPREDICATE"
        case .any(let parts) where parts.isEmpty: text += "FALSEPREDICATE"
        case .all(let parts): appendChain(parts, separator: " AND ", to: &text)
        case .any(let parts): appendChain(parts, separator: " OR ", to: &text)
        case .not(let part):
            text += "NOT "
            appendOperand(part, to: &text)
        case .comparison(let comparison):
            append(comparison, to: &text)
        case .quantified(let quantifier, let relationship, let comparison):
            // An empty key path is the related record itself: `ANY tags == "x-coredata://…"`.
            text += quantifier.rawValue + " " + component(relationship) + (comparison.keyPath.components.isEmpty ? "" : ".")
            append(comparison, to: &text)
        case .count(let relationship, let op, let number):
            text += component(relationship) + ".@count " + op.rawValue + " " + String(number)
        }
    }

    private static func appendChain(_ parts: [RecordFilter], separator: String, to text: inout String) {
        for (index, part) in parts.enumerated() {
            if index > 0 { text += separator }
            appendOperand(part, to: &text)
        }
    }

    /// A condition inside a group or after `NOT`: a group of two or more conditions gets parentheses.
    private static func appendOperand(_ filter: RecordFilter, to text: inout String) {
        switch filter {
        case .all(let parts) where parts.count > 1, .any(let parts) where parts.count > 1:
            text += "("
            append(filter, to: &text)
            text += ")"
        default:
            append(filter, to: &text)
        }
    }

    private static func append(_ comparison: FilterComparison, to text: inout String) {
        if !comparison.keyPath.components.isEmpty { text += keyPath(comparison.keyPath) }
        text += " " + comparison.op.rawValue + options(comparison.options) + " "
        switch comparison.operand {
        case .value(let value): text += literal(value)
        case .list(let values): text += "{" + values.map(literal).joined(separator: ", ") + "}"
        case .range(let low, let high): text += "{" + literal(low) + ", " + literal(high) + "}"
        case .object(let uri): text += quoted(uri)
        case .objects(let uris): text += "{" + uris.map(quoted).joined(separator: ", ") + "}"
        case .keyPath(let other): text += keyPath(other)
        }
    }

    public static func keyPath(_ keyPath: FilterKeyPath) -> String {
        keyPath.components.map(component).joined(separator: ".")
    }

    static func options(_ options: FilterOptions) -> String {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true): "[cd]"
        case (true, false): "[c]"
        case (false, true): "[d]"
        case (false, false): ""
        }
    }

    /// One name of a key path: as it is when it reads back as that name, else escaped with `#`.
    /// A composite's element (`place.city`, one attribute) prints as its parts; validation joins them again.
    static func component(_ name: String) -> String {
        name.split(separator: ".", omittingEmptySubsequences: false).map { part in
            PredicateLexer.isIdentifier(String(part)) && !PredicateLexer.isReserved(String(part)) ? String(part) : "#" + part
        }.joined(separator: ".")
    }

    /// A value as a literal that `PredicateParser` reads back.
    public static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "NIL"
        case .string(let text), .uri(let text), .truncatedText(let text, _): return quoted(text)
        case .integer(let number): return String(number)
        case .double(let number): return numeral(number)
        case .float(let number): return numeral(Double(number))
        case .decimal(let number): return number.description  // a numeral without exponent reads back exact
        case .boolean(let flag): return flag ? "TRUE" : "FALSE"
        case .date(let date):
            let iso = ISO8601Timestamp.string(from: date)
            if PredicateValues.date(fromISO: iso) == date { return "CAST(\(quoted(iso)), \"NSDate\")" }
            return "CAST(\(date.timeIntervalSinceReferenceDate.description), \"NSDate\")"
        case .uuid(let uuid): return quoted(uuid.uuidString)
        case .binary(let byteCount): return quoted("<\(byteCount) bytes>")
        case .undecodable(let message): return quoted(message)
        }
    }

    /// A Double's numeral. Negative zero prints as `0.0`: `-0.0` has no exponent, so it reads back as the decimal
    /// -0, which is plain 0, and the text would not print the same twice. Every store compares -0.0 equal to 0.0,
    /// so the predicate means the same either way.
    private static func numeral(_ number: Double) -> String {
        number == 0 ? "0.0" : number.description
    }

    /// A double-quoted string literal, read back by `PredicateParser` and by Swift alike. Controls and the
    /// characters a reader would not see (zero-width, bidi overrides and isolates, BOM) are escaped as `\u{…}`.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let value = scalar.value
                if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || (0x200B...0x200F).contains(value)
                    || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0xFEFF {
                    result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
