import BrowserCore
import CSQLite

/// The SQL function `cdb_fold(text, options)`: `TextFolding.fold(text, options:)`, the form a predicate's `[c]`,
/// `[d]` and `[cd]` compare, so `==[c]`, `BEGINSWITH[d]`, `LIKE[cd]`, `IN[c]`… are SQL comparisons of folded text
/// with an operand folded once per query (`FilterTranslation`). `options` is `FilterOptions.rawValue`.
///
/// NULL, non-text and invalid UTF-8 values give NULL (the caller turns a NULL comparison into false). ASCII text
/// is folded on its bytes (lower-casing is all `[c]` does to it, and `[d]` nothing), the rest through
/// `TextFolding`. `CONTAINS[cd]` keeps `cdb_contains` (`FoldedContainsFunction`), whose byte-level matcher
/// avoids making a String per row. https://www.sqlite.org/c3ref/create_function.html
enum FoldedTextFunction {
    static let name = "cdb_fold"

    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let status = sqlite3_create_function_v2(
            connection.handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard let context else { return }
                guard count == 2, let arguments, let value = arguments[0], let options = arguments[1],
                      sqlite3_value_type(value) == SQLITE_TEXT
                else {
                    sqlite3_result_null(context)
                    return
                }
                let folding = FilterOptions(rawValue: Int(sqlite3_value_int64(options)))
                let count = Int(sqlite3_value_bytes(value))
                guard count > 0, let pointer = sqlite3_value_blob(value) else {
                    sqlite3_result_text(context, "", 0, cdb_sqlite_transient())
                    return
                }
                let bytes = UnsafeRawBufferPointer(start: pointer, count: count)
                if let ascii = FoldedTextFunction.foldASCII(bytes, folding) {
                    ascii.withUnsafeBytes { buffer in
                        sqlite3_result_text(context, buffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                                            Int32(buffer.count), cdb_sqlite_transient())
                    }
                    return
                }
                guard let text = decodeUTF8(lent: bytes) else {
                    sqlite3_result_null(context)
                    return
                }
                let folded = Array(TextFolding.fold(text, options: folding).utf8)
                guard !folded.isEmpty else {
                    // A text of marks only folds to nothing under [d]: empty text, not NULL.
                    sqlite3_result_text(context, "", 0, cdb_sqlite_transient())
                    return
                }
                folded.withUnsafeBytes { buffer in
                    sqlite3_result_text(context, buffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                                        Int32(buffer.count), cdb_sqlite_transient())
                }
            },
            nil, nil, nil
        )
        guard status == SQLITE_OK else { throw connection.error(status, sql: nil) }
    }

    /// The fold of ASCII text on its bytes (what `TextFolding` gives for it: lower-cased letters under `[c]`,
    /// unchanged otherwise); nil when the text is not all ASCII.
    static func foldASCII(_ bytes: UnsafeRawBufferPointer, _ options: FilterOptions) -> [UInt8]? {
        var folded = [UInt8](repeating: 0, count: bytes.count)
        let lower = options.contains(.caseInsensitive)
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x80 else { return nil }
            folded[index] = lower && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
        return folded
    }
}
