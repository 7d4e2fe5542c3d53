/// A decoded property list value (binary `bplist00` or XML), including the keyed-archive UIDs that
/// `PropertyListSerialization` hides on Linux.
indirect enum PropertyListValue: Sendable, Hashable {
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

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Integers, and booleans as 0/1 (archives store some flags either way).
    var integer: Int64? {
        switch self {
        case .integer(let number): number
        case .boolean(let flag): flag ? 1 : 0
        case .real(let number) where number.rounded() == number && abs(number) < 9.0e18: Int64(number)
        default: nil
        }
    }

    var boolean: Bool? {
        switch self {
        case .boolean(let flag): flag
        case .integer(let number): number != 0
        default: nil
        }
    }

    var array: [PropertyListValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    var data: [UInt8]? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }

    var uid: Int? {
        if case .uid(let index) = self { return index }
        return nil
    }

    subscript(key: String) -> PropertyListValue? {
        dictionary?[key]
    }
}

/// Why a property list could not be read.
struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

enum PropertyList {
    /// Reads a binary (`bplist00`) or XML property list, whichever `bytes` holds.
    static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        if bytes.starts(with: Array("bplist0".utf8)) {
            return try BinaryPropertyListReader.read(bytes)
        }
        return try XMLPropertyListReader.read(bytes)
    }
}
