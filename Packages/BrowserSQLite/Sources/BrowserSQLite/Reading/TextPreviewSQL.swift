import BrowserCore
import CSQLite

/// A text column read as a list's preview (`ValuePreview`): only the first bytes of a long string reach memory,
/// never the whole value.
///
/// A record's previewed column is two items of the select list: `CASE WHEN typeof(c) = 'text' THEN NULL ELSE c
/// END` (a value that is not text is read as stored, so a mismatch is still reported as one) and
/// `typeof(c) = 'text'`. SQLite answers `typeof` of a column from the record header without reading the value
/// (its typeof optimisation); the text itself is then read through incremental BLOB I/O (`BlobPrefixReader`),
/// which reads the value's size from the header and only the pages holding its first bytes. `substr(c, 1, N)`
/// would load the whole value first (a 10 MB string is 10 MB on each read connection while it is cut), and so
/// would `length(CAST(c AS BLOB))`; `octet_length`, which does not, needs SQLite 3.43 (Debian 12 ships 3.40, and
/// an app links the system's SQLite).
///
/// A facet's grouping key (`groupItem`) is made in SQL: GROUP BY needs the key as a value, so each row's text
/// is read whole once (`PreviewKeyFunction`), for that row only.
/// Search and sort use the column itself (the WHERE and ORDER BY clauses), so they see the whole value.
/// See https://sqlite.org/c3ref/blob_open.html, https://sqlite.org/lang_corefunc.html#substr and #typeof.
enum TextPreviewSQL {
    /// Whether a column holding values of this kind is previewed: String and URI, stored as TEXT.
    static func applies(to kind: AttributeKind) -> Bool {
        kind == .string || kind == .uri
    }

    /// The value item: NULL for text (read by `BlobPrefixReader`), any other value as stored.
    static func storedUnlessTextItem(_ expression: String) -> String {
        "CASE WHEN typeof(\(expression)) = 'text' THEN NULL ELSE \(expression) END"
    }

    /// 1 when the value is text, else 0; the value is not read.
    static func isTextItem(_ expression: String) -> String {
        "typeof(\(expression)) = 'text'"
    }

    /// A grouping key that never holds a whole long value (a facet's GROUP BY): `PreviewKeyFunction`'s key, made
    /// from one read of the value.
    static func groupItem(_ expression: String, bytes: Int) -> String {
        "\(PreviewKeyFunction.name)(\(expression), \(bytes))"
    }
}

extension ValueDecoder {
    /// A facet's grouping key (`TextPreviewSQL.groupItem`) in the statement's current row: a cut key becomes
    /// `.truncatedText` with its first bytes and its length (or, for a BLOB in a text column, the mismatch it is);
    /// any other key is a whole value and decodes as `decode(_:column:kind:allowsExternalStorage:)` does.
    func decodePreviewKey(_ statement: SQLiteStatement, column: Int32, kind: AttributeKind, limit: Int) -> AttributeValue {
        guard statement.storageClass(at: column) == SQLITE_BLOB else {
            return decode(statement, column: column, kind: kind, allowsExternalStorage: false)
        }
        return statement.withBytes(at: column) { bytes in
            guard let key = PreviewKey.decode(bytes) else { return .undecodable("an unreadable facet key") }
            switch key.tag {
            case .longText:
                return decodeText(start: key.start, byteCount: key.byteCount, kind: kind, limit: limit)
            case .blob:
                return .undecodable("expected \(kind == .uri ? "a URI string" : "text"), found BLOB (\(key.byteCount) bytes)")
            }
        }
    }

    /// A String or URI value from its first bytes: `start` holds the whole value when `byteCount` is at most
    /// `limit`, else its start (at least `limit + 1` bytes, so the cut can tell whether byte `limit` begins a
    /// character, or a start already cut at a scalar boundary), and the value becomes `.truncatedText` cut at a
    /// scalar boundary.
    func decodeText(start bytes: UnsafeRawBufferPointer, byteCount: Int, kind: AttributeKind, limit: Int) -> AttributeValue {
        guard byteCount > limit else {
            guard let text = decodeUTF8(lent: bytes) else {
                return .undecodable("invalid UTF-8 in \(kind == .uri ? "URI" : "text") of \(byteCount) bytes")
            }
            return kind == .uri ? .uri(text) : .string(text)
        }
        let kept = UnsafeRawBufferPointer(rebasing: bytes[..<ValuePreview.prefixLength(ofUTF8: bytes, limit: limit)])
        guard let prefix = decodeUTF8(lent: kept) else {
            return .undecodable("invalid UTF-8 in text of \(byteCount) bytes")
        }
        return .truncatedText(prefix: prefix, byteCount: byteCount)
    }
}
