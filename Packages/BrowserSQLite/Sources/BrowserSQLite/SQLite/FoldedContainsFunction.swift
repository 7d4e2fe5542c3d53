import BrowserCore
import CSQLite

/// The SQL function `cdb_contains(text, foldedNeedle)`: Core Data's `CONTAINS[cd]` for search filters.
///
/// SQLite's `LIKE` folds ASCII only, so "cafe" would miss "Café" and "strasse" would miss "Straße". This function
/// calls `TextFolding.containsFolded`, the one definition every adapter shares. The query folds the needle once
/// (`TextFolding.fold`) and binds it; each row's text is folded here, on its bytes where `FoldedContainsMatcher`
/// can (ASCII and scalars below U+0500), through `TextFolding` otherwise. NULL, non-text and invalid UTF-8 values
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
                      let text = FoldedContainsFunction.bytes(of: arguments[0]),
                      let needle = FoldedContainsFunction.bytes(of: arguments[1])
                else {
                    sqlite3_result_int(context, 0)
                    return
                }
                sqlite3_result_int(context, FoldedContainsFunction.contains(text, needle) ? 1 : 0)
            },
            nil, nil, nil
        )
        guard status == SQLITE_OK else { throw connection.error(status, sql: nil) }
    }

    /// `TextFolding.containsFolded` on the arguments' bytes: `FoldedContainsMatcher` when it can tell, else the
    /// exact path on Strings. Invalid UTF-8 never matches.
    static func contains(_ text: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        if let answer = FoldedContainsMatcher.contains(text, foldedNeedle: needle) { return answer }
        guard let text = decodeUTF8(text), let needle = decodeUTF8(needle) else { return false }
        return TextFolding.containsFolded(text, foldedNeedle: needle)
    }

    /// The argument's bytes when it is TEXT (read unconverted; valid only during the call), else nil.
    private static func bytes(of value: OpaquePointer?) -> UnsafeRawBufferPointer? {
        guard let value, sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
        guard let pointer = sqlite3_value_blob(value) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value)))
    }
}
