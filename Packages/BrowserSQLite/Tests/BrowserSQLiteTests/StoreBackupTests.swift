@testable import BrowserSQLite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `StoreBackup` on real files: the copy keeps the store's permissions, is never written through a name someone
/// prepared (a link, an empty file), and pruning removes only backups it recorded making.
struct StoreBackupTests {
    let directory = TemporaryDirectory()
    let store: URL

    init() throws {
        store = directory.path("Library.sqlite")
        let database = try RawDatabase(path: store.path)
        try database.execute("CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, ZTITLE VARCHAR); INSERT INTO ZBOOK VALUES (1, 'First')")
    }

    /// One backup at `now` (seconds after a fixed day, so names are predictable).
    func backup(at seconds: TimeInterval = 0, into folder: URL? = nil) throws -> String {
        let connection = try SQLiteConnection(path: store.path, readOnly: true)
        return try StoreBackup.make(of: StoreFiles(path: store.path), into: folder, on: connection,
                                    now: Date(timeIntervalSince1970: 1_790_000_000 + seconds))
    }

    func name(_ seconds: TimeInterval = 0, attempt: Int = 1) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: Date(timeIntervalSince1970: 1_790_000_000 + seconds))
        return "Library.cdbrowser-backup-\(stamp)\(attempt == 1 ? "" : "-\(attempt)").sqlite"
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    func names() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
    }

    @Test func theBackupHasTheStoresPermissions() throws {
        for storeMode: mode_t in [0o600, 0o640] {
            chmod(store.path, storeMode)
            let made = try backup(at: Double(storeMode))
            #expect(mode(made) == storeMode)
            #expect(try RawDatabase(path: made).rows("SELECT ZTITLE FROM ZBOOK")[0][0] as? String == "First")
        }
        // The private folder the copy was written in is gone.
        #expect(try names().filter { $0.hasPrefix(".Library.cdbrowser-backup-") }.isEmpty)
    }

    @Test func aLinkOrAFilePlantedAtTheNameIsNeverWrittenThrough() throws {
        chmod(store.path, 0o600)
        // A dangling link: VACUUM INTO would create its target, with the store's data, wherever it points.
        let elsewhere = directory.path("elsewhere.sqlite")
        try FileManager.default.createSymbolicLink(atPath: directory.path(name()).path, withDestinationPath: elsewhere.path)
        // An empty file: VACUUM INTO accepts one and writes into it (keeping its owner and mode).
        #expect(FileManager.default.createFile(atPath: directory.path(name(attempt: 2)).path, contents: nil, attributes: [.posixPermissions: 0o666]))
        let made = try backup()
        #expect(made == directory.path(name(attempt: 3)).path)
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
        #expect(try FileManager.default.attributesOfItem(atPath: directory.path(name(attempt: 2)).path)[.size] as? NSNumber == 0)
        #expect(mode(made) == 0o600)
    }

    @Test func pruningKeepsTheNewestFiveItMadeAndNothingElse() throws {
        // Decoys named like backups, dated in the future, and a real-looking old one made by someone else.
        let decoys = ["Library.cdbrowser-backup-20990101T000000Z.sqlite", "Library.cdbrowser-backup-20990102T000000Z-2.sqlite",
                      "Library.cdbrowser-backup-20200101T000000Z.sqlite"]
        for decoy in decoys { try Data("x".utf8).write(to: directory.path(decoy)) }
        var made: [String] = []
        for second in 0..<7 { made.append(try backup(at: Double(second))) }
        let kept = Set(made.suffix(StoreBackup.kept).map { ($0 as NSString).lastPathComponent })
        let backups = try names().filter { $0.hasPrefix("Library.cdbrowser-backup-") }
        #expect(backups == kept.union(decoys))
        #expect(BackupLedger(at: BackupLedger.path(for: "Library", in: directory.url.path)).entries.map(\.name)
            == made.suffix(StoreBackup.kept).map { ($0 as NSString).lastPathComponent })
    }

    @Test func aRecordedBackupReplacedByAnotherFileIsNotRemoved() throws {
        let first = try backup(at: 0)
        // Someone replaces the first backup with a file of their own under the same name.
        // (Written beside it, then renamed over it: a file system may hand a freed inode number to the next file.)
        let theirs = directory.path("theirs")
        try Data("theirs".utf8).write(to: theirs)
        #expect(rename(theirs.path, first) == 0)
        for second in 1...StoreBackup.kept { _ = try backup(at: Double(second)) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data("theirs".utf8))
    }

    @Test func aLedgerOthersCanWriteIsIgnored() throws {
        var made: [String] = []
        for second in 0..<StoreBackup.kept { made.append(try backup(at: Double(second))) }
        let ledger = BackupLedger.path(for: "Library", in: directory.url.path)
        chmod(ledger, 0o666)
        // Not trusted: nothing is pruned, and the ledger starts again with the new backup alone, private.
        made.append(try backup(at: 10))
        #expect(made.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(BackupLedger(at: ledger).entries.map(\.name) == [(made.last! as NSString).lastPathComponent])
        #expect(mode(ledger) == 0o600)
    }
}
