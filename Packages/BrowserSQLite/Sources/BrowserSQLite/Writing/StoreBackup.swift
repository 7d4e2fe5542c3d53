import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The copy of a store made before the first write of a run, so a person can go back to the store as it was.
///
/// Made with `VACUUM INTO` on the store's own connection (https://www.sqlite.org/lang_vacuum.html#vacuuminto):
/// SQLite writes one self-contained database from a read transaction, WAL content included, so the copy is
/// consistent even while the app writes; a file copy of a live WAL store could pair an old database with a newer
/// `-wal`. The copy goes beside the store (`<name>.cdbrowser-backup-<UTC time>.sqlite`) unless the host names a
/// folder; external-data files (`.<name>_SUPPORT`) are not copied (no write here changes them).
///
/// The copy holds the store's data, so it is created the way a secret file is:
/// - never through a name someone else prepared. `VACUUM INTO` opens its target like any database, following a
///   symbolic link and accepting an existing empty file, so a link planted at the predictable name would send the
///   store's data wherever it points. The copy is written inside a fresh private folder (`mkdtemp`, mode 0700, in
///   the destination folder), then given its public name with `link(2)`, which never follows or replaces what is
///   there: a name taken (by a file or a link) means the next name (`…-2.sqlite`). Where the file system has no
///   hard links, the bytes are copied into a file created with `O_CREAT|O_EXCL|O_NOFOLLOW` instead.
/// - with the store's own permission bits, set while it is still in the private folder: a 0600 store's copy is
///   0600, never readable by others for a moment.
///
/// Each run that writes makes one, so they would pile up beside a store someone edits every day: after a new one
/// is made, only the newest `kept` of the backups recorded in the folder's `BackupLedger` stay. Only files this
/// package recorded making, still the same files, are ever removed; anything else in the folder is never touched.
enum StoreBackup {
    /// Backups of one store kept in its folder, the new one included.
    static let kept = 5
    /// Names tried after the first when the time's name is taken (a second backup within a second, or decoys).
    static let maximumAttempts = 100

    static func make(of files: StoreFiles, into folder: URL?, on connection: SQLiteConnection, now: Date = Date()) throws -> String {
        let directory = folder?.standardizedFileURL.path ?? files.directory
        let name = ((files.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)

        var template = Array((directory as NSString).appendingPathComponent(".\(name).cdbrowser-backup-XXXXXX").utf8CString)
        guard let staging = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            throw BackupFailure("cannot create a folder in \(directory): \(String(cString: strerror(errno)))")
        }
        let staged = (staging as NSString).appendingPathComponent("backup.sqlite")
        defer {
            for leftover in ["", "-journal", "-wal", "-shm"] { unlink(staged + leftover) }
            rmdir(staging)
        }
        let statement = try connection.prepare("VACUUM INTO ?")
        try statement.bind([.text(staged)])
        _ = try statement.step()
        guard chmod(staged, storeMode(files.path)) == 0 else {
            throw BackupFailure("cannot set the backup's permissions: \(String(cString: strerror(errno)))")
        }

        for attempt in 1...maximumAttempts {
            let path = (directory as NSString).appendingPathComponent(
                "\(name).cdbrowser-backup-\(stamp)\(attempt == 1 ? "" : "-\(attempt)").sqlite")
            guard try place(staged, at: path) else { continue }
            record(path, of: name, in: directory)
            return path
        }
        throw BackupFailure("every name from \(name).cdbrowser-backup-\(stamp).sqlite to …-\(maximumAttempts).sqlite in \(directory) is taken")
    }

    /// Why the backup could not be made; the write is then refused.
    struct BackupFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The store file's permission bits (0600 when they cannot be read: the safer guess).
    static func storeMode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0o600
    }

    /// Gives `staged` the name `path` without following or replacing anything there; false when the name is taken.
    private static func place(_ staged: String, at path: String) throws -> Bool {
        if link(staged, path) == 0 { return true }
        switch errno {
        case EEXIST:
            return false
        case EPERM, ENOTSUP, EXDEV, EMLINK, EOPNOTSUPP:
            return try copyExclusively(staged, to: path)
        case let code:
            throw BackupFailure("cannot create \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Where hard links are not supported: the bytes copied into a file that did not exist before.
    private static func copyExclusively(_ staged: String, to path: String) throws -> Bool {
        let source = try RegularFile(opening: staged)
        var info = stat()
        guard fstat(source.descriptor, &info) == 0 else { throw BackupFailure("cannot read the backup just made") }
        let target = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, info.st_mode & 0o777)
        if target < 0 {
            if errno == EEXIST || errno == ELOOP { return false }
            throw BackupFailure("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var copied = 0
        var failure: String?
        while copied < source.size, failure == nil {
            let chunk = try source.read(at: copied, count: min(1 << 20, source.size - copied))
            if chunk.isEmpty { break }
            let written = chunk.withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
            if written != chunk.count { failure = String(cString: strerror(errno)) }
            copied += chunk.count
        }
        // fchmod: the file was created under the process's umask, which may have narrowed the store's mode.
        if fchmod(target, info.st_mode & 0o777) != 0 || close(target) != 0 || failure != nil {
            unlink(path)
            throw BackupFailure("cannot write \(path): \(failure ?? String(cString: strerror(errno)))")
        }
        return true
    }

    /// Adds the backup just made to the folder's ledger, then removes all but the newest `kept` of the backups it
    /// lists (those still the very files made; the one just made is always kept). A backup that cannot be removed,
    /// or a ledger that cannot be written, never fails the write.
    static func record(_ made: String, of name: String, in directory: String) {
        var info = stat()
        guard lstat(made, &info) == 0 else { return }
        var ledger = BackupLedger(at: BackupLedger.path(for: name, in: directory))
        ledger.entries = ledger.entries.filter { BackupLedger.isRecorded($0, in: directory) }
        ledger.entries.append(.init(inode: UInt64(info.st_ino), name: (made as NSString).lastPathComponent))
        while ledger.entries.count > kept {
            let old = ledger.entries.removeFirst()
            unlink((directory as NSString).appendingPathComponent(old.name))
        }
        ledger.save()
    }
}
