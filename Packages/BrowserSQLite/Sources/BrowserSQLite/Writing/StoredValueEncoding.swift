import BrowserCore
import Foundation

/// An attribute value as Core Data's SQLite store holds it (format doc §7): the inverse of `ValueDecoder` for
/// every type a write may set (`RecordChangesValidation` lets Binary and Transformable values only be cleared).
enum StoredValueEncoding {
    static func encode(_ value: AttributeValue, as attribute: AttributeMapping) throws(BrowserError) -> SQLiteValue {
        switch value {
        case .null: return .null
        case .string(let text): return .text(text)
        case .uri(let text): return .text(text)
        case .integer(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .float(let number): return .real(Double(number))
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        // Seconds since 2001-01-01 (NSDate's reference date), as Core Data stores dates.
        case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
        // A DECIMAL column has NUMERIC affinity: SQLite stores the numeral as INTEGER or REAL when that keeps its
        // value (as Core Data's own writes show: 10, 10.11) and as TEXT otherwise, which `ValueDecoder` reads too.
        case .decimal(let number): return .text(NSDecimalNumber(decimal: number).description(withLocale: Locale(identifier: "en_US_POSIX")))
        // 16 raw bytes in the canonical string's order.
        case .uuid(let uuid):
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            return .blob(bytes)
        // A cut text is the start of a value, not a value: writing it would lose the rest.
        case .binary, .undecodable, .truncatedText:
            throw .invalidFields([.attribute(attribute.name, "this value cannot be written to a store file")])
        }
    }
}
