import Foundation

/// Tells a Core Data or SwiftData store from any other file by its content, not its name: apps name stores
/// `.sqlite`, `.store`, `.db` or nothing at all, and keep other SQLite databases beside them.
///
/// A store is an SQLite database (its 16-byte header) holding Core Data's `Z_METADATA` and `Z_PRIMARYKEY`
/// tables. The tables are read with `immutable=1`, which writes nothing — these are other apps' files, found
/// while scanning, that nobody asked us to open. A brand-new WAL store may keep even its schema only in the
/// `-wal`, which an immutable open cannot see; then the `-wal`'s first pages are searched for the table's name.
/// Only regular files are read (`RegularFile`), the store and its `-wal` alike.
public enum StoreRecognition {
    /// How much of a `-wal` is searched for Core Data's tables when the main file shows none.
    static let walBytesSearched = 1 << 20

    public static func isCoreDataStore(at path: String) -> Bool {
        guard hasSQLiteHeader(path) else { return false }
        if let connection = try? SQLiteConnection(path: path, readOnly: true, immutable: true),
           let tables = try? connection.rows(
               "SELECT upper(name) FROM sqlite_master WHERE type = 'table' AND upper(name) IN ('Z_METADATA', 'Z_PRIMARYKEY')") {
            if tables.count == 2 { return true }
            guard tables.isEmpty else { return false }
        }
        return walMentionsCoreDataTables(path + "-wal")
    }

    static func hasSQLiteHeader(_ path: String) -> Bool {
        (try? RegularFile.prefix(of: path, count: StoreFiles.sqliteMagic.count)) == StoreFiles.sqliteMagic
    }

    /// Read only when it is a regular file (`RegularFile`): a FIFO named like a `-wal` would block the open, and
    /// with it the scan and every request waiting for it.
    private static func walMentionsCoreDataTables(_ walPath: String) -> Bool {
        guard let bytes = try? RegularFile.prefix(of: walPath, count: walBytesSearched) else { return false }
        let needle = Array("CREATE TABLE Z_METADATA".utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            bytes[start] == needle[0] && bytes[start..<start + needle.count].elementsEqual(needle)
        }
    }
}
