import BrowserCore
import CSQLite

/// A text column read as a list's preview (`ValuePreview`): SQLite cuts the value and measures it, so only the
/// first characters of a long string reach Swift, never the whole value.
///
/// Each previewed column is two items of the select list:
/// `CASE WHEN typeof(c) = 'text' THEN substr(c, 1, N) ELSE c END` (a value that is not text is read as stored,
/// so a mismatch is still reported as one) and `CASE WHEN typeof(c) = 'text' THEN length(CAST(c AS BLOB)) END`
/// (its length in bytes: `length` of text counts characters; a CAST of text to BLOB reinterprets the bytes
/// without a copy). `substr` counts characters, so N characters hold at least N bytes; the decoder then cuts
/// them to at most N bytes at a scalar boundary, as `ValuePreview.cut` does for a whole string.
///
/// SQLite still reads a long value's pages once for the row it is on (to cut and to measure it) and frees them
/// at the next row: what a page costs in memory is bounded by its largest value, not by the sum of its values.
/// Search and sort use the column itself (the WHERE and ORDER BY clauses), so they see the whole value.
/// See https://sqlite.org/lang_corefunc.html#substr and #length.
enum TextPreviewSQL {
    /// Whether a column holding values of this kind is previewed: String and URI, stored as TEXT.
    static func applies(to kind: AttributeKind) -> Bool {
        kind == .string || kind == .uri
    }

    /// The value item: the first `bytes` characters of text, any other value as stored.
    static func valueItem(_ expression: String, bytes: Int) -> String {
        "CASE WHEN typeof(\(expression)) = 'text' THEN substr(\(expression), 1, \(bytes)) ELSE \(expression) END"
    }

    /// The length item: text's length in bytes, NULL for any other value.
    static func lengthItem(_ expression: String) -> String {
        "CASE WHEN typeof(\(expression)) = 'text' THEN length(CAST(\(expression) AS BLOB)) END"
    }

    /// A grouping key that never holds a whole long value (a facet's GROUP BY): the first `bytes` characters of
    /// text, and of a BLOB (found in a text column) its first `bytes` bytes; other values as stored.
    static func groupItem(_ expression: String, bytes: Int) -> String {
        "CASE WHEN typeof(\(expression)) IN ('text', 'blob') THEN substr(\(expression), 1, \(bytes)) ELSE \(expression) END"
    }

    /// The length that goes with `groupItem`: of text and of a BLOB, in bytes.
    static func groupLengthItem(_ expression: String) -> String {
        "CASE WHEN typeof(\(expression)) IN ('text', 'blob') THEN length(CAST(\(expression) AS BLOB)) END"
    }
}

extension ValueDecoder {
    /// A previewed column (`TextPreviewSQL`) of the statement's current row: text longer than `limit` bytes
    /// becomes `.truncatedText` with its first bytes (cut at a scalar boundary) and its length; shorter text,
    /// and any value that is not text, decodes as `decode(_:column:kind:allowsExternalStorage:)` does.
    func decodePreview(_ statement: SQLiteStatement, column: Int32, lengthColumn: Int32, kind: AttributeKind,
                       limit: Int) -> AttributeValue {
        guard statement.storageClass(at: column) == SQLITE_TEXT, let length = statement.value(at: lengthColumn).int64,
              Int(length) > limit else {
            return decode(statement, column: column, kind: kind, allowsExternalStorage: false)
        }
        return statement.withBytes(at: column) { bytes in
            let kept = UnsafeRawBufferPointer(rebasing: bytes[..<ValuePreview.prefixLength(ofUTF8: bytes, limit: limit)])
            guard let prefix = decodeUTF8(lent: kept) else {
                return .undecodable("invalid UTF-8 in text of \(length) bytes")
            }
            return .truncatedText(prefix: prefix, byteCount: Int(length))
        }
    }
}
