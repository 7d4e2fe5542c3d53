import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The backups of one store that this package made in one folder, oldest first: what `StoreBackup` prunes, and
/// the only files it ever removes.
///
/// Kept in a sidecar beside the backups, `.<store name>.cdbrowser-backups`, so pruning works across runs (each run
/// that writes makes one backup; a record kept only in memory would never see the last run's). Pruning by file
/// names alone let anyone who can create a file in the folder steer it: a decoy named like a backup dated in the
/// future counted as "newer" and pushed real backups out. Now a file is removed only when the ledger lists it and
/// it is still the very file made (the same inode, a regular file of ours, not a link), and order comes from the
/// ledger, never from dates in names. The ledger itself is trusted only when it is a regular file owned by this
/// user that nobody else can write, checked on the open descriptor; otherwise it is ignored (nothing is pruned)
/// and replaced. Written whole to a fresh file (`O_CREAT|O_EXCL|O_NOFOLLOW`, 0600) renamed into place, so a link
/// planted at its name is replaced, never followed. Backups made before the ledger existed are never removed.
struct BackupLedger {
    struct Entry: Equatable {
        var inode: UInt64
        var name: String
    }

    let path: String
    var entries: [Entry]

    /// A ledger is a few lines; a larger file is not one of ours.
    static let maximumBytes = 64 * 1024

    static func path(for storeName: String, in directory: String) -> String {
        (directory as NSString).appendingPathComponent(".\(storeName).cdbrowser-backups")
    }

    /// The ledger at `path`, empty when there is none or it cannot be trusted.
    init(at path: String) {
        self.path = path
        entries = Self.load(path)
    }

    private static func load(_ path: String) -> [Entry] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == getuid(),
              info.st_mode & 0o022 == 0, info.st_size <= maximumBytes else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2, let inode = UInt64(fields[0]), !fields[1].contains("/") else { return nil }
            return Entry(inode: inode, name: String(fields[1]))
        }
    }

    /// Whether the file `name` in `directory` is still the one recorded: the same inode, a regular file (not a
    /// link put in its place) owned by this user.
    static func isRecorded(_ entry: Entry, in directory: String) -> Bool {
        var info = stat()
        return lstat((directory as NSString).appendingPathComponent(entry.name), &info) == 0
            && (info.st_mode & S_IFMT) == S_IFREG && UInt64(info.st_ino) == entry.inode && info.st_uid == getuid()
    }

    /// Writes the entries in place of the ledger; false when it cannot (the backups are then simply not pruned
    /// next time).
    @discardableResult
    func save() -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".cdbrowser-backups-\(UUID().uuidString).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let bytes = Array(entries.map { "\($0.inode)\t\($0.name)\n" }.joined().utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard close(descriptor) == 0, written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
