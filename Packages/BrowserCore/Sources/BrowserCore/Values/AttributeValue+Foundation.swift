import Foundation

extension AttributeValue {
    /// Converts a value as Foundation hands it out (what `NSManagedObject.value(forKey:)` returns: `NSNumber`,
    /// `NSDecimalNumber`, `String`, `Date`, `Data`, `UUID`, `URL`, or their Swift counterparts) into the value
    /// case for the attribute's declared type.
    ///
    /// It lives here, not in the Core Data adapter, so that it is plain Foundation (tested on Linux) and so the
    /// live adapter and the store-file reader end in the same cases for the same data: an `Integer 64` is
    /// `.integer` whatever object carried it, a `Float` stays `.float` (JSON `0.1`, not `0.10000000149011612`),
    /// a `Decimal` keeps every digit. A value that does not fit its declared type becomes `.undecodable` with
    /// the reason, so one odd cell never breaks a page.
    ///
    /// `Transformable` values are only accepted as `Data` here: turning an arbitrary object back into the bytes
    /// Core Data stored needs its value transformer, which the caller owns.
    public init(foundationValue value: Any?, type: AttributeType) {
        guard let value, !(value is NSNull) else {
            self = .null
            return
        }
        switch type {
        case .integer16, .integer32, .integer64:
            // int64Value is exact for any integer NSNumber, including values beyond 2^53.
            self = (value as? NSNumber).map { .integer($0.int64Value) } ?? Self.mismatch(value, type)
        case .double:
            self = (value as? NSNumber).map { .double($0.doubleValue) } ?? Self.mismatch(value, type)
        case .float:
            self = (value as? NSNumber).map { .float($0.floatValue) } ?? Self.mismatch(value, type)
        case .boolean:
            self = (value as? NSNumber).map { .boolean($0.boolValue) } ?? Self.mismatch(value, type)
        case .decimal:
            if let decimal = value as? Decimal {
                self = .decimal(decimal)
            } else if let number = value as? NSNumber {
                // NSDecimalNumber is an NSNumber whose decimalValue is exact.
                self = .decimal(number.decimalValue)
            } else {
                self = Self.mismatch(value, type)
            }
        case .string:
            self = (value as? String).map(AttributeValue.string) ?? Self.mismatch(value, type)
        case .date:
            self = (value as? Date).map(AttributeValue.date) ?? Self.mismatch(value, type)
        case .uuid:
            self = (value as? UUID).map(AttributeValue.uuid) ?? Self.mismatch(value, type)
        case .uri:
            if let url = value as? URL {
                self = .uri(url.absoluteString)
            } else {
                self = Self.mismatch(value, type)
            }
        case .binary, .transformable:
            self = (value as? Data).map { .binary(byteCount: $0.count) } ?? Self.mismatch(value, type)
        case .objectID, .undefined:
            self = Self.asStored(value)
        }
    }

    /// A value of an unknown type, shown by what it is (the store-file reader does the same with raw columns).
    private static func asStored(_ value: Any) -> AttributeValue {
        switch value {
        case let text as String: return .string(text)
        case let date as Date: return .date(date)
        case let data as Data: return .binary(byteCount: data.count)
        case let uuid as UUID: return .uuid(uuid)
        case let url as URL: return .uri(url.absoluteString)
        case let number as NSNumber:
            // "q", "i", "s", "l" and "c" are the integer encodings; anything else is read as a double.
            let integerTypes: Set<String> = ["q", "Q", "i", "I", "s", "S", "l", "L", "c", "C"]
            return integerTypes.contains(String(cString: number.objCType)) ? .integer(number.int64Value) : .double(number.doubleValue)
        default: return .undecodable("a value of type \(Swift.type(of: value))")
        }
    }

    private static func mismatch(_ value: Any, _ type: AttributeType) -> AttributeValue {
        .undecodable("expected a \(type.rawValue) value, found \(Swift.type(of: value))")
    }
}

extension AttributeValue {
    /// The object Core Data takes for the value (`setValue(_:forKey:)`, a predicate's constant): `NSNumber` for
    /// numbers and Booleans, `NSDecimalNumber`, `String`, `Date`, `UUID`, zeroed `Data` of the byte count for
    /// binary (only its size is known), nil for null and for the start of a cut text (it is not the value, and
    /// must never be written or compared as if it were). The inverse of `init(foundationValue:type:)`.
    public var foundationValue: Any? {
        switch self {
        case .null, .undecodable, .truncatedText: nil
        case .string(let text), .uri(let text): text
        case .integer(let number): NSNumber(value: number)
        case .double(let number): NSNumber(value: number)
        case .float(let number): NSNumber(value: number)
        case .decimal(let number): NSDecimalNumber(decimal: number)
        case .boolean(let flag): NSNumber(value: flag)
        case .date(let date): date
        case .uuid(let uuid): uuid
        case .binary(let byteCount): Data(count: byteCount)
        }
    }
}
