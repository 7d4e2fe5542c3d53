import BrowserCore
import CSQLite

/// The SQL function `cdb_preview_key(value, limit)`: the key a facet groups a String or URI column by, made from
/// one read of the value (`TextPreviewSQL.groupItem`). Cutting in SQL needs the value twice, for its start and
/// for its length, and SQLite loads it once for each: two copies of a 10 MB string per row and connection.
///
/// - Text of at most `limit` bytes: itself, so facets of ordinary values are exact and read as text.
/// - Longer text: a BLOB of `PreviewKey.longText`, its length in bytes (8, big-endian) and its first bytes cut
///   at a scalar boundary to at most `limit`. A BLOB never equals a TEXT, so a cut key never groups with a short
///   value that happens to look like it.
/// - A BLOB found in a text column: a BLOB of `PreviewKey.blob`, its length and its first `limit` bytes.
/// - Anything else (NULL, numbers a lenient writer put there): itself.
/// https://www.sqlite.org/c3ref/create_function.html
enum PreviewKeyFunction {
    static let name = "cdb_preview_key"

    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let status = sqlite3_create_function_v2(
            connection.handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard let context else { return }
                guard count == 2, let arguments, let value = arguments[0], let limitValue = arguments[1] else {
                    sqlite3_result_null(context)
                    return
                }
                let type = sqlite3_value_type(value)
                let limit = Int(sqlite3_value_int64(limitValue))
                guard type == SQLITE_TEXT || type == SQLITE_BLOB else {
                    sqlite3_result_value(context, value)
                    return
                }
                // sqlite3_value_blob lends a TEXT value's UTF-8 bytes as they are stored, without a conversion.
                let size = Int(sqlite3_value_bytes(value))
                let bytes = UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: size)
                if type == SQLITE_TEXT, size <= limit {
                    sqlite3_result_value(context, value)
                    return
                }
                let kept = type == SQLITE_TEXT ? ValuePreview.prefixLength(ofUTF8: bytes, limit: limit) : min(size, limit)
                let key = PreviewKey.encode(type == SQLITE_TEXT ? .longText : .blob, byteCount: size,
                                            start: UnsafeRawBufferPointer(rebasing: bytes[..<kept]))
                key.withUnsafeBytes { buffer in
                    sqlite3_result_blob(context, buffer.baseAddress, Int32(buffer.count), cdb_sqlite_transient())
                }
            },
            nil, nil, nil
        )
        guard status == SQLITE_OK else { throw connection.error(status, sql: nil) }
    }
}

/// A cut facet key made by `PreviewKeyFunction`: a tag, the whole value's length, its first bytes.
enum PreviewKey {
    enum Tag: UInt8 {
        case longText = 0
        case blob = 1
    }

    static let headerLength = 9

    static func encode(_ tag: Tag, byteCount: Int, start: UnsafeRawBufferPointer) -> [UInt8] {
        var key = [tag.rawValue]
        key.reserveCapacity(headerLength + start.count)
        withUnsafeBytes(of: UInt64(byteCount).bigEndian) { key.append(contentsOf: $0) }
        key.append(contentsOf: start)
        return key
    }

    /// The tag, length and first bytes of a key; nil when `key` is not one.
    static func decode(_ key: UnsafeRawBufferPointer) -> (tag: Tag, byteCount: Int, start: UnsafeRawBufferPointer)? {
        guard key.count >= headerLength, let tag = Tag(rawValue: key[0]) else { return nil }
        let byteCount = key[1..<headerLength].reduce(0) { $0 << 8 | Int($1) }
        return (tag, byteCount, UnsafeRawBufferPointer(rebasing: key[headerLength...]))
    }
}
