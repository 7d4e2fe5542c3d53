import Foundation

/// Gives a predicate's value the case of its attribute's type (the contract's "each value has the case of its
/// attribute's type"), or says why it cannot: what `RecordFilter.validated` does to every value it keeps.
enum FilterValueCoercion {
    /// The value in the case of the attribute's type, or why it cannot be.
    static func coerce(_ value: AttributeValue, to attribute: AttributeSchema, name: String,
                       fail: (String) -> FilterProblem) throws(FilterProblem) -> AttributeValue {
        let type = attribute.type
        let shown = PredicateText.literal(value)
        func mismatch(_ detail: String? = nil) -> FilterProblem {
            fail("\(shown) is not a value of \(name), a \(type.rawValue) attribute" + (detail.map { " (\($0))" } ?? ""))
        }
        if case .null = value { throw fail("nil cannot be in a list or range") }
        switch type {
        case .integer16, .integer32, .integer64:
            switch value {
            case .integer: return value
            case .decimal(let number): if let whole = Int64(number.description) { return .integer(whole) }
            case .double(let number) where number == number.rounded(.towardZero) && abs(number) < 9.2e18: return .integer(Int64(number))
            case .string(let text): if let whole = Int64(text) { return .integer(whole) }
            default: break
            }
            throw mismatch("a whole number is needed")
        case .double, .float:
            switch value {
            case .integer(let number): return .double(Double(number))
            case .double(let number) where number.isFinite: return value
            case .decimal(let number): if let double = Double(number.description), double.isFinite { return .double(double) }
            case .float(let number) where number.isFinite: return .double(Double(number))
            case .string(let text): if let double = Double(text), double.isFinite { return .double(double) }
            default: break
            }
            throw mismatch("a finite number is needed")
        case .decimal:
            switch value {
            case .integer(let number): return .decimal(Decimal(number))
            case .decimal(let number) where !number.isNaN: return value
            case .double(let number) where number.isFinite:
                if let decimal = Decimal(string: number.description, locale: Locale(identifier: "en_US_POSIX")) { return .decimal(decimal) }
            case .string(let text):
                if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN,
                   text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) { return .decimal(decimal) }
            default: break
            }
            throw mismatch("a number is needed")
        case .boolean:
            switch value {
            case .boolean: return value
            case .integer(0): return .boolean(false)
            case .integer(1): return .boolean(true)
            default: throw mismatch("TRUE or FALSE is needed")
            }
        case .date:
            switch value {
            case .date: return value
            case .string(let text): if let date = PredicateValues.date(fromISO: text) { return .date(date) }
            // Seconds since 2001-01-01: what Core Data stores, and what `CAST(n, "NSDate")` means.
            case .integer(let seconds): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
            case .double(let seconds) where seconds.isFinite: return .date(Date(timeIntervalSinceReferenceDate: seconds))
            case .decimal(let seconds): if let double = Double(seconds.description) { return .date(Date(timeIntervalSinceReferenceDate: double)) }
            default: break
            }
            throw mismatch("a date is needed: an ISO 8601 string such as \"2020-03-01\" or \"2020-03-01T12:00:00Z\", or seconds since 2001-01-01")
        case .string:
            if case .string = value { return value }
            throw mismatch("a quoted string is needed")
        case .uuid:
            switch value {
            case .uuid: return value
            case .string(let text): if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
            default: break
            }
            throw mismatch("a UUID string is needed")
        case .uri:
            switch value {
            case .uri: return value
            case .string(let text): return .uri(text)
            default: throw mismatch("a quoted URI is needed")
            }
        case .binary, .transformable, .undefined, .objectID:
            throw mismatch()
        }
    }
}
