import BrowserCore
import CSQLite

/// The SQL function `cdb_contains(text, foldedNeedle)`: Core Data's `CONTAINS[cd]` for search filters.
///
/// SQLite's `LIKE` folds ASCII only, so "cafe" would miss "Café" and "strasse" would miss "Straße". This function
/// calls `TextFolding.containsFolded`, the one definition every adapter shares. The query folds the needle once
/// (`TextFolding.fold`) and binds it; each row's text is folded here. NULL, non-text and invalid UTF-8 values
/// never match (0, not NULL, so `NOT cdb_contains(…)` keeps them, as `NOT (nil CONTAINS[cd] x)` does).
/// https://www.sqlite.org/c3ref/create_function.html
enum FoldedContainsFunction {
    static let name = "cdb_contains"

    static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let status = sqlite3_create_function_v2(
            connection.handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard let context else { return }
                guard count == 2, let arguments,
                      let text = FoldedContainsFunction.text(of: arguments[0]),
                      let needle = FoldedContainsFunction.text(of: arguments[1])
                else {
                    sqlite3_result_int(context, 0)
                    return
                }
                sqlite3_result_int(context, TextFolding.containsFolded(text, foldedNeedle: needle) ? 1 : 0)
            },
            nil, nil, nil
        )
        guard status == SQLITE_OK else { throw connection.error(status, sql: nil) }
    }

    /// The argument's text when it is valid UTF-8 TEXT; its bytes are read unconverted.
    private static func text(of value: OpaquePointer?) -> String? {
        guard let value, sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
        guard let pointer = sqlite3_value_blob(value) else { return "" }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value)))
        return decodeUTF8(bytes)
    }
}
