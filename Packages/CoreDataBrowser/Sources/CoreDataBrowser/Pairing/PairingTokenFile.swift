import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a generated pairing token is remembered between launches, and for how long.
///
/// The decision (docs/decisions/pairing.md): a generated token survives app relaunches for
/// `lifetime` (7 days), then a new one replaces it. A debug build is relaunched many times an hour; a token
/// that changed on every launch would make the developer re-copy the URL from the console each time, and the
/// open browser tab would go on failing with 401. A token that never changed would stay useful forever to
/// anyone who saw it once (a screenshot, shell history, a shared screen). Seven days bounds that, and the
/// browser's cookie expires with it.
///
/// The file holds only the token, is created with mode 0600 in a 0700 folder (a file others could read is
/// not trusted), and lives in the app's caches directory (per
/// app on iOS; `~/Library/Caches` on macOS, `~/.cache` on Linux, named after the process). If it cannot be
/// read or written the token is simply not remembered: access control never depends on the file system.
enum PairingTokenFile {
    static let lifetime: TimeInterval = 7 * 24 * 60 * 60
    /// A remembered token with less life left than this is replaced at launch.
    static let renewalMargin: TimeInterval = 24 * 60 * 60

    /// `<caches>/CoreDataBrowser/<process name>.pairing-token`, or nil when there is no caches directory.
    static var defaultLocation: URL? {
        guard let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else {
            return nil
        }
        let name = ProcessInfo.processInfo.processName.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        return caches.appendingPathComponent("CoreDataBrowser", isDirectory: true)
            .appendingPathComponent("\(name.isEmpty ? "app" : name).pairing-token")
    }

    /// The remembered token and when it expires, replacing a missing, unreadable, invalid, expired or
    /// not-private one with `generate()`, written back when possible. `expires` is nil when the token could not
    /// be remembered (nothing to expire: it lives as long as the process).
    static func load(
        from url: URL, now: Date = Date(), generate: () -> PairingToken = PairingToken.generate
    ) -> (token: PairingToken, expires: Date?) {
        // A token with less than a day left is replaced now rather than expire in the middle of a debugging session.
        if let (token, created) = readPrivate(url), created <= now, now.timeIntervalSince(created) < lifetime - renewalMargin {
            return (token, created.addingTimeInterval(lifetime))
        }
        let token = generate()
        return (token, writePrivately(token, to: url) ? now.addingTimeInterval(lifetime) : nil)
    }

    /// Remembers `token` in place of the file's (`CoreDataBrowserServer.renewPairingToken()`); its expiry, or nil
    /// when it could not be written. Then the old file is removed, so a relaunch cannot bring back the token it
    /// held, which was just revoked.
    static func replace(at url: URL, with token: PairingToken, now: Date = Date()) -> Date? {
        if writePrivately(token, to: url) { return now.addingTimeInterval(lifetime) }
        unlink(url.path)
        return nil
    }

    /// The token in the file and the file's modification time, only if the folder and the file are ours and
    /// private: a token others could have read, or swapped, is no secret.
    ///
    /// Checked on what is read, not on a path that could change in between: the file is opened with
    /// `O_NOFOLLOW` (a symlink put in its place fails the open), then `fstat` on the open descriptor checks a
    /// regular file of ours with no group or other bits, and the bytes come from that same descriptor.
    private static func readPrivate(_ url: URL) -> (PairingToken, Date)? {
        guard isPrivateFolder(url.deletingLastPathComponent()) else { return nil }
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == getuid(),
              info.st_mode & 0o077 == 0, info.st_size > 0, info.st_size <= maximumFileBytes
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count,
              let token = PairingToken(validating: String(decoding: bytes, as: UTF8.self)
                  .trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let modified = Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
        return (token, modified)
    }

    /// A token file is a few dozen bytes; anything larger is not ours.
    static let maximumFileBytes = 4096

    /// The folder is a real directory (not a symlink), ours, and writable by nobody else: otherwise another
    /// local user could replace the file between our checks and our read, or plant a token of their own.
    private static func isPrivateFolder(_ folder: URL) -> Bool {
        var info = stat()
        return lstat(folder.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == getuid()
            && info.st_mode & 0o022 == 0
    }

    /// Writes the token to a temporary file created with mode 0600 from the start (`open(2)` with
    /// `O_CREAT|O_EXCL|O_NOFOLLOW`, so it is never readable by others, not even for a moment) in a 0700 folder,
    /// then renames it into place (atomic: a crash mid-write never leaves half a token). False on any failure.
    private static func writePrivately(_ token: PairingToken, to url: URL) -> Bool {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // A folder that already existed keeps its mode: remember nothing in one others can write to.
        guard isPrivateFolder(folder) else { return false }
        let temporary = folder.appendingPathComponent(".\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let bytes = Array(token.value.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard close(descriptor) == 0, written == bytes.count, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
