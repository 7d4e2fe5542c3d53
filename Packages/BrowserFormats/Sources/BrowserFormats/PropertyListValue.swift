/// A property list decoded whole (`PropertyList.read`, binary `bplist00` or XML), including the keyed-archive
/// UIDs that `PropertyListSerialization` hides on Linux: for the small lists a store or model holds, read by
/// key. Values of unknown size are walked object by object instead (`PropertyListGraph`).
public indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, as property lists store dates.
    case date(Double)
    case data([UInt8])
    /// Arrays, sets and ordered sets.
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    /// A keyed archive's reference to an entry of `$objects`.
    case uid(Int)
    case null

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Integers, and booleans as 0/1 (archives store some flags either way).
    public var integer: Int64? {
        switch self {
        case .integer(let number): number
        case .boolean(let flag): flag ? 1 : 0
        case .real(let number) where number.rounded() == number && abs(number) < 9.0e18: Int64(number)
        default: nil
        }
    }

    public var boolean: Bool? {
        switch self {
        case .boolean(let flag): flag
        case .integer(let number): number != 0
        default: nil
        }
    }

    public var array: [PropertyListValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    public var data: [UInt8]? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }

    public var uid: Int? {
        if case .uid(let index) = self { return index }
        return nil
    }

    public subscript(key: String) -> PropertyListValue? {
        dictionary?[key]
    }
}

/// Why a property list could not be read.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
