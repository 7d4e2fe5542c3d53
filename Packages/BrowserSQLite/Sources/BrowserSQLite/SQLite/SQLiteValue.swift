/// A value as SQLite holds it: its storage class and its bytes.
///
/// A closed enum of SQLite's five storage classes (https://www.sqlite.org/datatype3.html). Text stays bytes so
/// that invalid UTF-8 in a store can be reported as such instead of being silently replaced.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    /// SQLite's name of the storage class, for messages.
    var storageClassName: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// The text when the value is valid UTF-8 text, else nil.
    var string: String? {
        guard case .text(let bytes) = self else { return nil }
        return decodeUTF8(bytes)
    }

    var int64: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// Text from Swift: what a statement binds.
    static func text(_ string: String) -> SQLiteValue { .text(Array(string.utf8)) }
}
