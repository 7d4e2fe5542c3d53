import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a generated pairing token is remembered between launches, and for how long.
///
/// The decision (PLAN.md, "Security and limits"): a generated token survives app relaunches for
/// `lifetime` (7 days), then a new one replaces it. A debug build is relaunched many times an hour; a token
/// that changed on every launch would make the developer re-copy the URL from the console each time, and the
/// open browser tab would go on failing with 401. A token that never changed would stay useful forever to
/// anyone who saw it once (a screenshot, shell history, a shared screen). Seven days bounds that, and the
/// browser's cookie expires with it.
///
/// The file holds only the token, is created with mode 0600, and lives in the app's caches directory (per
/// app on iOS; `~/Library/Caches` on macOS, `~/.cache` on Linux, named after the process). If it cannot be
/// read or written the token is simply not remembered: access control never depends on the file system.
enum PairingTokenFile {
    static let lifetime: TimeInterval = 7 * 24 * 60 * 60

    /// `<caches>/CoreDataBrowser/<process name>.pairing-token`, or nil when there is no caches directory.
    static var defaultLocation: URL? {
        guard let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first else {
            return nil
        }
        let name = ProcessInfo.processInfo.processName.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        return caches.appendingPathComponent("CoreDataBrowser", isDirectory: true)
            .appendingPathComponent("\(name.isEmpty ? "app" : name).pairing-token")
    }

    /// The remembered token and when it expires, replacing a missing, unreadable, invalid or expired one
    /// with `generate()` (written back when possible).
    static func load(
        from url: URL, now: Date = Date(), generate: () -> PairingToken = PairingToken.generate
    ) -> (token: PairingToken, expires: Date) {
        let manager = FileManager.default
        if let data = try? Data(contentsOf: url),
            let token = PairingToken(validating: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
            let created = (try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
            created <= now, now.timeIntervalSince(created) < lifetime
        {
            return (token, created.addingTimeInterval(lifetime))
        }
        let token = generate()
        try? manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written to a private temporary file and renamed, so the token is never readable by others, not even
        // for a moment, and a crash mid-write never leaves half a token.
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        if manager.createFile(atPath: temporary.path, contents: Data(token.value.utf8), attributes: [.posixPermissions: 0o600]) {
            // rename(2) replaces the old file atomically.
            if rename(temporary.path, url.path) != 0 {
                try? manager.removeItem(at: temporary)
            }
        }
        return (token, now.addingTimeInterval(lifetime))
    }
}
