import Foundation

/// The copy of a store made before the first write of a run, so a person can go back to the store as it was.
///
/// Made with `VACUUM INTO` on the store's own connection (https://www.sqlite.org/lang_vacuum.html#vacuuminto):
/// SQLite writes one self-contained database from a read transaction, WAL content included, so the copy is
/// consistent even while the app writes; a file copy of a live WAL store could pair an old database with a newer
/// `-wal`. The copy goes beside the store (`<name>.cdbrowser-backup-<UTC time>.sqlite`) unless the host names a
/// folder; external-data files (`.<name>_SUPPORT`) are not copied (no write here changes them).
enum StoreBackup {
    static func make(of files: StoreFiles, into folder: URL?, on connection: SQLiteConnection, now: Date = Date()) throws -> String {
        let directory = folder?.standardizedFileURL.path ?? files.directory
        let name = ((files.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)
        var path = (directory as NSString).appendingPathComponent("\(name).cdbrowser-backup-\(stamp).sqlite")
        var attempt = 1
        while FileManager.default.fileExists(atPath: path) {
            attempt += 1
            path = (directory as NSString).appendingPathComponent("\(name).cdbrowser-backup-\(stamp)-\(attempt).sqlite")
        }
        let statement = try connection.prepare("VACUUM INTO ?")
        try statement.bind([.text(path)])
        _ = try statement.step()
        return path
    }
}
