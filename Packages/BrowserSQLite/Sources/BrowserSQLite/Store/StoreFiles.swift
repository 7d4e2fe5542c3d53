import Foundation

/// A store file and its companions on disk: `-wal`, `-shm`, `-journal`, and the external-data folder.
struct StoreFiles: Sendable {
    /// The store's absolute path, as the user named it (symbolic links kept).
    let path: String

    var walPath: String { path + "-wal" }
    var shmPath: String { path + "-shm" }
    var journalPath: String { path + "-journal" }
    var directory: String { (path as NSString).deletingLastPathComponent }

    /// Binary attributes stored outside the database: `.<store name without extension>_SUPPORT/_EXTERNAL_DATA`
    /// beside the store (format doc §9).
    var externalDataDirectory: String {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return (directory as NSString).appendingPathComponent(".\(base)_SUPPORT/_EXTERNAL_DATA")
    }

    /// The first 100 bytes of the file (https://www.sqlite.org/fileformat.html#the_database_header).
    struct Header: Sendable {
        /// Write/read format versions 2: the database is in WAL mode.
        var isWAL: Bool
    }

    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    init(path: String) {
        self.path = path
    }

    /// Checks that the file exists and is an SQLite database that is not shorter than its header says, and that
    /// its companions, when they exist, are regular files: SQLite opens them itself, and a FIFO in a `-wal`'s place
    /// would block that open (`RegularFile`).
    func inspect() throws(SQLiteStoreError) -> Header {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.prefix(of: path, count: 100)
        } catch .missing {
            throw .fileMissing(path: path)
        } catch .notRegular(let kind) {
            throw .notSQLite(path: path, reason: RegularFile.Refusal.notRegular(kind: kind).description)
        } catch {
            throw .unreadable(path: path, message: error.description)
        }
        for companion in [walPath, shmPath, journalPath] {
            if let kind = RegularFile.nonRegularKind(at: companion) {
                throw .unreadable(path: companion, message: RegularFile.Refusal.notRegular(kind: kind).description
                    + "; SQLite would open it as the store's \(companion.dropFirst(path.count))")
            }
        }
        guard bytes.count == 100, bytes.starts(with: Self.sqliteMagic) else {
            throw .notSQLite(path: path, reason: bytes.isEmpty ? "the file is empty" : nil)
        }
        func bigEndian(_ offset: Int, _ count: Int) -> Int {
            bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = bigEndian(16, 2)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw .corrupt(path: path, message: "the header gives an invalid page size \(rawPageSize)")
        }
        // The page count at offset 28 is valid only when the version-valid-for number matches the change counter.
        let pageCount = bigEndian(28, 4)
        let recordedSize = bigEndian(92, 4) == bigEndian(24, 4) && pageCount > 0 ? pageCount * pageSize : nil
        if let recordedSize, let actual = size(of: path), actual < recordedSize {
            throw .corrupt(path: path, message: "the file has \(actual) bytes but its header records \(pageCount) pages of \(pageSize) bytes (\(recordedSize) bytes)")
        }
        return Header(isWAL: bytes[18] == 2 || bytes[19] == 2)
    }

    /// Whether SQLite may create and write the `-shm` (and an empty `-wal`) beside the store: the directory and
    /// any existing `-wal`/`-shm` must be writable, both for this process (`access`) and by their permission bits,
    /// so that files marked read-only are respected even by root.
    func companionsAreWritable() -> Bool {
        guard Self.isWritable(directory) else { return false }
        for companion in [walPath, shmPath] where FileManager.default.fileExists(atPath: companion) {
            guard Self.isWritable(companion) else { return false }
        }
        return true
    }

    /// Whether the store can be written in place: the file itself and everything `companionsAreWritable` asks.
    func canWriteInPlace() -> Bool {
        Self.isWritable(path) && companionsAreWritable()
    }

    /// A rollback journal left by a writer that did not finish: a read-only connection cannot roll it back.
    var hasHotJournalCandidate: Bool {
        (size(of: journalPath) ?? 0) > 0
    }

    /// Sizes and modification times of the store and its `-wal`: changes whenever a writer commits.
    func signature() -> String {
        [path, walPath].map { file in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else { return "-" }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(size)@\(Int64((modified * 1_000_000).rounded()))"
        }.joined(separator: ",")
    }

    func size(of file: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
    }

    private static func isWritable(_ path: String) -> Bool {
        guard FileManager.default.isWritableFile(atPath: path),
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { return false }
        return permissions & 0o222 != 0
    }
}
