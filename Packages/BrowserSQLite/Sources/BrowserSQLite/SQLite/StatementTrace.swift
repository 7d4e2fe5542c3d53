import Dispatch

/// What one request ran on a connection, recorded while `SQLiteConnection.trace` is set (`/api/…/explain`): each
/// statement's SQL and bound values, the rows it returned and the time spent stepping through them, and the
/// notes the reader left at its decisions (which kept order or checkpoint served a page, where a total came from).
/// Used on the connection's queue only.
final class StatementTrace {
    struct Entry {
        var sql: String
        var arguments: [SQLiteValue]
        var rows = 0
        var nanoseconds: UInt64 = 0
    }

    private(set) var entries: [Entry] = []
    private(set) var notes: [String] = []

    /// Starts recording a statement bound with `arguments`; returns its index for `stepped`.
    func began(_ sql: String, arguments: [SQLiteValue]) -> Int {
        entries.append(Entry(sql: sql, arguments: arguments))
        return entries.count - 1
    }

    func stepped(_ index: Int, row: Bool, since start: UInt64) {
        entries[index].nanoseconds += DispatchTime.now().uptimeNanoseconds - start
        if row { entries[index].rows += 1 }
    }

    func note(_ text: String) {
        notes.append(text)
    }
}

extension SQLiteValue {
    /// The value as an SQL literal, for showing what a statement was bound with (long text and blobs cut).
    var literal: String {
        switch self {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let bytes):
            let text = decodeUTF8(bytes) ?? "<\(bytes.count) bytes of invalid UTF-8>"
            let shown = text.count > 200 ? String(text.prefix(200)) + "…" : text
            return "'" + shown.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            let hex = bytes.prefix(64).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            return "x'" + hex.joined() + (bytes.count > 64 ? "…" : "") + "'"
        }
    }
}
