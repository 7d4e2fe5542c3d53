import Foundation

/// The copy of a store made before the first write of a run, so a person can go back to the store as it was.
///
/// Made with `VACUUM INTO` on the store's own connection (https://www.sqlite.org/lang_vacuum.html#vacuuminto):
/// SQLite writes one self-contained database from a read transaction, WAL content included, so the copy is
/// consistent even while the app writes; a file copy of a live WAL store could pair an old database with a newer
/// `-wal`. The copy goes beside the store (`<name>.cdbrowser-backup-<UTC time>.sqlite`) unless the host names a
/// folder; external-data files (`.<name>_SUPPORT`) are not copied (no write here changes them).
///
/// Each run that writes makes one, so they would pile up beside a store someone edits every day: after a new one
/// is made, only the newest `kept` of that store's backups in the folder stay (ours only: names we write, for this
/// store's name; anything else in the folder is never touched).
enum StoreBackup {
    /// Backups of one store kept in its folder, the new one included.
    static let kept = 5

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
        pruneOlder(of: name, in: directory, keeping: path)
        return path
    }

    /// Removes all but the newest `kept` backups of the store named `name` in `directory`, newest by the time in
    /// their names (a copied or touched file keeps its place), never `made`, the one just written. A backup that
    /// cannot be removed stays: pruning never fails a write.
    static func pruneOlder(of name: String, in directory: String, keeping made: String) {
        let prefix = "\(name).cdbrowser-backup-"
        let madeName = (made as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let others = names.compactMap { file -> (file: String, stamp: String, attempt: Int)? in
            guard file != madeName, file.hasPrefix(prefix), file.hasSuffix(".sqlite"),
                  let (stamp, attempt) = stamp(file.dropFirst(prefix.count).dropLast(".sqlite".count)) else { return nil }
            return (file, stamp, attempt)
        }
        let newestFirst = others.sorted { ($0.stamp, $0.attempt) > ($1.stamp, $1.attempt) }
        for old in newestFirst.dropFirst(kept - 1) {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(old.file))
        }
    }

    /// `20261126T020000Z` (attempt 1) or `20261126T020000Z-2`: what `make` writes after the prefix; nil for
    /// anything else, so a file whose name merely starts like ours (`Library.cdbrowser-backup-notes.sqlite`) is
    /// never taken for a backup.
    private static func stamp(_ text: Substring) -> (String, Int)? {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let stamp = parts[0]
        guard stamp.count == 16, stamp.dropFirst(8).first == "T", stamp.last == "Z",
              stamp.enumerated().allSatisfy({ index, character in index == 8 || index == 15 || character.isASCII && character.isNumber })
        else { return nil }
        if parts.count == 1 { return (String(stamp), 1) }
        guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let attempt = Int(parts[1]) else { return nil }
        return (String(stamp), attempt)
    }
}
